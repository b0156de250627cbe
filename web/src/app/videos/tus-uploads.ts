// Sends files to /uploads/ with tus: chunked, retried on network errors and resumed from the
// stored fingerprint (also after a reload or in a new tab). Reports the bytes of all files
// together, and whether the connection is lost (the upload then waits and resumes by itself).
// A work's files are one of each kind; caption files are as many as the admin adds, each under
// a key of its own.

import type { FileKind } from '@contract/index.ts'
import { type DetailedError, defaultOptions, type PreviousUpload, Upload } from 'tus-js-client'
import { RequestError } from '../lib/errors.ts'

export const CHUNK_SIZE = 50 * 1024 * 1024
const ENDPOINT = '/uploads/'
// About five minutes of retries for a server restart or a connection that fails without the
// browser going offline (while it is offline the uploads are stopped and cost no attempts).
// tus-js-client resets the count only when a whole chunk has gone through.
const RETRY_DELAYS = [
  0, 1000, 3000, 5000, 10_000, 10_000, 15_000, 20_000, 30_000, 30_000, 30_000, 30_000, 60_000,
  60_000,
]
/** No byte moved for this long while uploading: the connection is as good as lost. */
export const STALL_MS = 10_000

/** What the server makes of an upload: one of the work's files, or a caption track's file. */
export type UploadKind = FileKind | 'captions'

/** One file to send: `key` names it in the answer (and its fingerprint), `kind` tells the server. */
export interface UploadItem {
  key: string
  kind: UploadKind
  file: File
}

/**
 * Whose uploads these are, so that resuming finds only its own: the admin's id and what the
 * files are for (a new video, or the edit of one video).
 */
export interface UploadScope {
  owner: string
  purpose: 'create' | `edit:${string}`
}

export interface UploadProgress {
  /** Bytes sent of all files together. */
  sent: number
  total: number
  /** 0-100 over all bytes, so a big video dominates as it should. */
  percent: number
}

export interface UploadOptions {
  token: string | null
  scope: UploadScope
  onProgress?: (progress: UploadProgress) => void
  /** The connection was lost (true: the upload waits and resumes by itself) or is back (false). */
  onPausedChange?: (paused: boolean) => void
  signal?: AbortSignal
}

export function overallPercent(sent: readonly number[], totals: readonly number[]) {
  const total = totals.reduce((a, b) => a + b, 0)
  if (total <= 0) return 0
  const done = sent.reduce((a, b) => a + b, 0)
  return Math.min(100, Math.floor((done / total) * 100))
}

const SEPARATOR = '|'

/**
 * The fingerprint tus stores an upload under: scope, key (a work file's kind, or a caption
 * file's slot) and the file as the browser sees it.
 */
export function fingerprintOf(scope: UploadScope, key: string, file: File): string {
  return [
    'studio',
    scope.owner,
    scope.purpose,
    key,
    file.name,
    file.type,
    file.size,
    file.lastModified,
  ].join(SEPARATOR)
}

const storageKeyPrefix = (scope: UploadScope) =>
  `tus::${['studio', scope.owner, scope.purpose].join(SEPARATOR)}${SEPARATOR}`

/** The fingerprint inside a storage key `tus::<fingerprint>::<random>`. */
const fingerprintOfKey = (key: string) => key.slice('tus::'.length, key.lastIndexOf('::'))

const tusHeaders = (token: string | null): Record<string, string> => ({
  'Tus-Resumable': '1.0.0',
  ...(token ? { Authorization: `Bearer ${token}` } : {}),
})

/** Refusals that are about the file itself (its type, size or emptiness): its field is at fault. */
const FILE_REFUSALS = new Set([400, 413, 415])

/**
 * A failed upload as the client error vocabulary reads it (lib/errors.ts): the server's status,
 * its one-line reason (the form's message for sizes and types, the line a caption file is wrong
 * at) and the file's field, its key.
 */
function uploadError(err: Error | DetailedError, key: string): RequestError {
  const response = 'originalResponse' in err ? err.originalResponse : null
  const status = response?.getStatus() ?? 0
  const reason = response?.getBody()?.trim()
  return new RequestError(
    status && reason ? reason : err.message,
    status,
    FILE_REFUSALS.has(status) ? key : undefined,
  )
}

interface OneUpload {
  done: Promise<string>
  /** Abort any request or retry timer and start again at once (from the server's offset). */
  restart(): void
  /** Stop sending; `restart()` continues. */
  abort(): void
}

function uploadOne(
  { key, kind, file }: UploadItem,
  { token, scope }: Pick<UploadOptions, 'token' | 'scope'>,
  on: { bytes: (sent: number) => void; connectionLost: () => void },
): OneUpload {
  let upload: Upload | undefined
  // Set once start() ran; before that a restart would start it twice.
  let started = false
  const done = new Promise<string>((resolve, reject) => {
    const tus = new Upload(file, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: true,
      // A finished upload is consumed by the video it becomes; never resume onto it.
      removeFingerprintOnSuccess: true,
      fingerprint: () => Promise.resolve(fingerprintOf(scope, key, file)),
      metadata: { kind, filename: file.name, filetype: file.type },
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      onProgress: (sent) => on.bytes(sent),
      // Called before each retry. Retry network failures and server errors even while the
      // browser reports offline (the default gives up then), and 409/423/429: the session's
      // upload slots free up once a PATCH cut off by a network blip ends; never retry a refusal
      // such as 401, 413 or 415. Only a failure to reach the server means the connection is lost.
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0
        const retry = status === 0 || status >= 500 || [409, 423, 429].includes(status)
        if (retry && (status === 0 || status >= 500)) on.connectionLost()
        return retry
      },
      onError: (err) => reject(uploadError(err, key)),
      onSuccess: () => {
        const id = tus.url?.split('/').filter(Boolean).pop()
        if (id) resolve(id)
        else reject(new RequestError('The upload has no id', 0))
      },
    })
    upload = tus
    tus
      .findPreviousUploads()
      .then((previous) => {
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0]
        if (latest) tus.resumeFromPreviousUpload(latest)
      })
      .catch(() => undefined)
      .then(() => {
        started = true
        tus.start()
      })
  })
  return {
    done,
    restart() {
      if (started) void upload?.abort().then(() => upload?.start())
    },
    abort() {
      void upload?.abort()
    },
  }
}

/** Upload a work's files (in parallel) and return the tus upload ids by kind. */
export async function uploadFiles(
  files: Partial<Record<FileKind, File>>,
  options: UploadOptions,
): Promise<Partial<Record<FileKind, string>>> {
  const items = Object.entries(files)
    .filter((e): e is [FileKind, File] => e[1] instanceof File)
    .map(([kind, file]) => ({ key: kind, kind, file }))
  return uploadItems(items, options)
}

/**
 * Upload each item (in parallel) and return the tus upload ids by key. The connection counts as
 * lost while the browser says it is offline, while an upload waits to retry after a network
 * failure, or when no byte has moved for STALL_MS; it is back once bytes move again.
 */
export async function uploadItems(
  entries: readonly UploadItem[],
  { token, scope, onProgress, onPausedChange, signal }: UploadOptions,
): Promise<Partial<Record<string, string>>> {
  const totals = entries.map(({ file }) => file.size)
  const total = totals.reduce((a, b) => a + b, 0)
  const sent = entries.map(() => 0)
  const finished = entries.map(() => false)
  /** Uploads whose connection failed, with the bytes they had then; cleared when bytes move. */
  const lost = new Map<number, number>()
  let offline = typeof navigator !== 'undefined' && navigator.onLine === false
  let stalled = false
  let paused = false
  let lastMove = performance.now()

  const report = () => {
    const next = offline || stalled || lost.size > 0
    if (next !== paused) {
      paused = next
      onPausedChange?.(paused)
    }
  }

  const uploads = entries.map((entry, i) =>
    uploadOne(
      entry,
      { token, scope },
      {
        bytes: (bytes) => {
          const before = sent[i] ?? 0
          sent[i] = bytes
          if (bytes > before) {
            lastMove = performance.now()
            stalled = false
            const at = lost.get(i)
            if (at !== undefined && bytes > at) lost.delete(i)
          }
          report()
          onProgress?.({
            sent: sent.reduce((a, b) => a + b, 0),
            total,
            percent: overallPercent(sent, totals),
          })
        },
        connectionLost: () => {
          lost.set(i, sent[i] ?? 0)
          report()
        },
      },
    ),
  )

  // Offline: stop sending (a request would only fail and use up a retry); back online: start
  // again at once from the server's offset, rather than wait for a retry timer or for a request
  // that hangs on the dead connection to time out.
  const onOffline = () => {
    offline = true
    uploads.forEach((upload, i) => {
      if (!finished[i]) upload.abort()
    })
    report()
  }
  const onOnline = () => {
    offline = false
    uploads.forEach((upload, i) => {
      if (!finished[i]) upload.restart()
    })
    lastMove = performance.now()
    report()
  }
  const stallTimer = setInterval(() => {
    // An upload that sent all its bytes waits for the server's answer: not a stall.
    const sending = entries.some((_, i) => !finished[i] && (sent[i] ?? 0) < (totals[i] ?? 0))
    const still = sending && performance.now() - lastMove > STALL_MS
    if (still !== stalled) {
      stalled = still
      report()
    }
  }, 1000)
  window.addEventListener('offline', onOffline)
  window.addEventListener('online', onOnline)

  // One failure stops the others (their fingerprints stay, so a retry resumes them).
  const stopAll = () => {
    for (const upload of uploads) upload.abort()
  }
  const onAbort = () => stopAll()
  signal?.addEventListener('abort', onAbort)

  onProgress?.({ sent: 0, total, percent: 0 })
  report()
  try {
    const ids = await Promise.all(
      uploads.map((upload, i) =>
        upload.done.then(
          (id) => {
            finished[i] = true
            return id
          },
          (err: unknown) => {
            stopAll()
            throw err
          },
        ),
      ),
    )
    if (signal?.aborted) throw new RequestError('Upload cancelled', 0)
    return Object.fromEntries(entries.map(({ key }, i) => [key, ids[i]]))
  } finally {
    clearInterval(stallTimer)
    window.removeEventListener('offline', onOffline)
    window.removeEventListener('online', onOnline)
    signal?.removeEventListener('abort', onAbort)
    if (paused) onPausedChange?.(false)
  }
}

/** An upload this browser started for `scope` and did not finish, as the server has it now. */
export interface UnfinishedUpload {
  kind: FileKind
  filename: string
  size: number
  /** Bytes the server holds. */
  offset: number
  /** The fingerprint a file picked again must have to continue this upload. */
  fingerprint: string
  storageKey: string
  uploadUrl: string
}

const isKind = (value: string | undefined): value is FileKind =>
  value === 'video' || value === 'thumbnail' || value === 'brandLogo'

/**
 * The unfinished uploads stored for `scope`, each asked at the server how far it got. Those the
 * server no longer has (expired, finished into a video, never this admin's) are forgotten.
 */
export async function findUnfinishedUploads(
  scope: UploadScope,
  token: string | null,
): Promise<UnfinishedUpload[]> {
  const storage = defaultOptions.urlStorage
  const prefix = storageKeyPrefix(scope)
  const stored = (await storage.findAllUploads())
    .filter(
      (entry): entry is PreviousUpload & { uploadUrl: string } =>
        entry.urlStorageKey.startsWith(prefix) && typeof entry.uploadUrl === 'string',
    )
    .sort((a, b) => b.creationTime.localeCompare(a.creationTime))
  const found = await Promise.all(
    stored.map(async (entry): Promise<UnfinishedUpload | null> => {
      const kind = entry.metadata.kind
      if (!isKind(kind)) return null
      let response: Response
      try {
        response = await fetch(entry.uploadUrl, { method: 'HEAD', headers: tusHeaders(token) })
      } catch {
        return null
      }
      if ([403, 404, 410].includes(response.status)) {
        await storage.removeUpload(entry.urlStorageKey)
        return null
      }
      const offset = Number(response.headers.get('Upload-Offset'))
      const size = Number(response.headers.get('Upload-Length') ?? entry.size)
      if (!response.ok || !Number.isFinite(offset) || !Number.isFinite(size) || size <= 0) {
        return null
      }
      return {
        kind,
        filename: entry.metadata.filename ?? '',
        size,
        offset,
        fingerprint: fingerprintOfKey(entry.urlStorageKey),
        storageKey: entry.urlStorageKey,
        uploadUrl: entry.uploadUrl,
      }
    }),
  )
  // One per fingerprint (the newest wins when a file was started twice).
  const byFingerprint = new Map<string, UnfinishedUpload>()
  for (const upload of found) {
    if (upload && !byFingerprint.has(upload.fingerprint))
      byFingerprint.set(upload.fingerprint, upload)
  }
  return [...byFingerprint.values()]
}

/** Ends unfinished uploads on the server and forgets them here. */
export async function discardUploads(
  uploads: readonly UnfinishedUpload[],
  token: string | null,
): Promise<void> {
  await Promise.all(
    uploads.map(async (upload) => {
      await fetch(upload.uploadUrl, { method: 'DELETE', headers: tusHeaders(token) }).catch(
        () => undefined,
      )
      await defaultOptions.urlStorage.removeUpload(upload.storageKey)
    }),
  )
}
