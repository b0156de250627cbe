// The tus checksum extension: a PATCH may carry `Upload-Checksum: <algorithm> <base64 digest>` of
// its body. A body that does not match is not kept (460) and the client sends it again. Clients
// that send no checksum keep Bun's native write path; those that do pay for hashing.

export const CHECKSUM_ALGORITHMS = ['sha1', 'md5', 'sha256'] as const
type Algorithm = (typeof CHECKSUM_ALGORITHMS)[number]

export type Checksum = { algorithm: Algorithm; digest: string }

/** @tus/server answers a thrown `{ status_code, body }` as is. */
export const CHECKSUM_MISMATCH = { status_code: 460, body: 'Checksum Mismatch' }

const HEADER_RE = /^([a-z0-9-]+) ([A-Za-z0-9+/]+={0,2})$/

/** The header's checksum, or undefined when it is malformed or names an algorithm we lack. */
export function parseChecksum(header: string): Checksum | undefined {
  const match = HEADER_RE.exec(header.trim())
  const algorithm = CHECKSUM_ALGORITHMS.find((name) => name === match?.[1])
  return algorithm && match?.[2] ? { algorithm, digest: match[2] } : undefined
}

export const hasherFor = (checksum: Checksum) => new Bun.CryptoHasher(checksum.algorithm)
