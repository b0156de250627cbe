// Where a player starts a stream, named before it asks: for each rendition it plays first (the
// lowest video rung, then the shared audio), its playlist, init segment and first media segment,
// as paths relative to the master playlist. The public answers carry it (`streamStart`) and every
// play button repeats it in `data-stream-start`, so a press can fetch all of them at once instead
// of one round trip after another. Shared by the server and the public pages; no server imports.

export type StartFiles = { playlist: string; init: string; segment: string }

/** The renditions a player starts with, the video first. */
export type StreamStart = readonly StartFiles[]

/** A rendition's files live in a folder under the master's: a name and an extension, no more. */
const RELATIVE_PATH = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_.-]+\.[a-z0-9]+$/

const isRelativePath = (value: unknown): value is string =>
  typeof value === 'string' && RELATIVE_PATH.test(value) && !value.includes('..')

/**
 * A stream start read from an answer or an attribute: null unless every file is a plain path
 * under the master's folder (nothing here may send a request elsewhere).
 */
export function streamStartOf(value: unknown): StreamStart | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 4) return null
  const starts: StartFiles[] = []
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return null
    const { playlist, init, segment } = entry as Record<string, unknown>
    if (!isRelativePath(playlist) || !isRelativePath(init) || !isRelativePath(segment)) return null
    starts.push({ playlist, init, segment })
  }
  return starts
}

/** As a play button carries it: each rendition's three files space-separated, renditions by ";". */
export function encodeStreamStart(start: StreamStart): string {
  return start.map(({ playlist, init, segment }) => `${playlist} ${init} ${segment}`).join(';')
}

export function decodeStreamStart(attribute: string | null): StreamStart | null {
  if (!attribute) return null
  return streamStartOf(
    attribute.split(';').map((group) => {
      const [playlist, init, segment, extra] = group.trim().split(/\s+/)
      return extra === undefined ? { playlist, init, segment } : null
    }),
  )
}
