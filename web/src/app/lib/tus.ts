// Sends files to /uploads/ with tus: chunked, retried on network errors and resumed from the
// stored fingerprint (also after a reload). Reports one percentage across all files.
import { Upload } from 'tus-js-client'
import type { FileKind } from '../../../../src/schemas/index.ts'

export const CHUNK_SIZE = 50 * 1024 * 1024
// Enough to ride out a server restart or a dropped connection of about a minute.
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 10_000, 15_000, 20_000]

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'UploadError'
  }
}

export interface UploadOptions {
  token: string | null
  onProgress?: (percent: number) => void
  signal?: AbortSignal
}

/** 0-100 over the bytes of every file together, so a big video dominates as it should. */
export function overallPercent(sent: readonly number[], totals: readonly number[]) {
  const total = totals.reduce((a, b) => a + b, 0)
  if (total <= 0) return 0
  const done = sent.reduce((a, b) => a + b, 0)
  return Math.min(100, Math.floor((done / total) * 100))
}

function uploadOne(
  kind: FileKind,
  file: File,
  token: string | null,
  onBytes: (sent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: '/uploads/',
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: true,
      // A finished upload is consumed by the video it becomes; never resume onto it.
      removeFingerprintOnSuccess: true,
      metadata: { kind, filename: file.name, filetype: file.type },
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      onProgress: (sent) => onBytes(sent),
      // Retry network failures and server errors even while the browser reports offline
      // (the default gives up then), and 429: the session's upload slots free up once a PATCH
      // cut off by a network blip ends; never retry a refusal such as 401, 413 or 415.
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0
        return status === 0 || status >= 500 || [409, 423, 429].includes(status)
      },
      onError: (err) => reject(new UploadError(err.message, readStatus(err))),
      onSuccess: () => {
        const id = upload.url?.split('/').filter(Boolean).pop()
        if (id) resolve(id)
        else reject(new UploadError('The upload has no id'))
      },
    })
    signal?.addEventListener('abort', () => {
      void upload.abort()
      reject(new UploadError('Upload cancelled'))
    })
    upload
      .findPreviousUploads()
      .then((previous) => {
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0]
        if (latest) upload.resumeFromPreviousUpload(latest)
        upload.start()
      })
      .catch(() => upload.start())
  })
}

function readStatus(err: Error): number | undefined {
  const response = (err as { originalResponse?: { getStatus(): number } | null }).originalResponse
  return response ? response.getStatus() : undefined
}

/** Upload each given file (in parallel) and return the tus upload ids by kind. */
export async function uploadFiles(
  files: Partial<Record<FileKind, File>>,
  { token, onProgress, signal }: UploadOptions,
): Promise<Partial<Record<FileKind, string>>> {
  const entries = Object.entries(files).filter((e): e is [FileKind, File] => e[1] instanceof File)
  const totals = entries.map(([, file]) => file.size)
  const sent = entries.map(() => 0)
  // One failure stops the others (their fingerprints stay, so a retry resumes them).
  const stop = new AbortController()
  signal?.addEventListener('abort', () => stop.abort())
  onProgress?.(0)
  const ids = await Promise.all(
    entries.map(([kind, file], i) =>
      uploadOne(
        kind,
        file,
        token,
        (bytes) => {
          sent[i] = bytes
          onProgress?.(overallPercent(sent, totals))
        },
        stop.signal,
      ).catch((err: unknown) => {
        stop.abort()
        throw err
      }),
    ),
  )
  return Object.fromEntries(entries.map(([kind], i) => [kind, ids[i]]))
}
