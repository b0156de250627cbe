// What the build ships for `/`, read from Vite's manifest (web/dist/.vite/manifest.json): the
// files the public page loads up front, and the chunks it must not load up front (the
// dashboard's, and hls.js, which is imported only when a stream is about to play).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const DIST = join(import.meta.dir, '..', '..', 'web', 'dist')

type Chunk = {
  file: string
  src?: string
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
  isEntry?: boolean
  isDynamicEntry?: boolean
}
type Manifest = Record<string, Chunk>

function manifest(): Manifest {
  return JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest
}

/** The entry and everything it imports statically: what `/` loads before any dynamic import. */
export function initialFiles(): Set<string> {
  const m = manifest()
  const entry = Object.values(m).find((chunk) => chunk.isEntry)
  if (!entry) throw new Error('the build manifest has no entry')
  const files = new Set<string>()
  const walk = (chunk: Chunk) => {
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const key of chunk.imports ?? []) walk(m[key]!)
  }
  walk(entry)
  return files
}

/** A dynamic entry and everything it imports statically. */
function closure(m: Manifest, start: string): Set<string> {
  const files = new Set<string>()
  const walk = (key: string) => {
    const chunk = m[key]!
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    for (const next of chunk.imports ?? []) walk(next)
  }
  walk(start)
  return files
}

/**
 * The public pages' React chunk (web/src/public/mount.tsx) and what it imports: loaded on a
 * visitor's first intent, never up front (web/src/public/on-intent.ts).
 */
export function publicChunks(): { mount: string; files: Set<string> } {
  const m = manifest()
  const key = Object.keys(m).find((k) => k.endsWith('public/mount.tsx'))
  if (!key) throw new Error('the build has no public chunk (src/public/mount.tsx)')
  const initial = initialFiles()
  const files = closure(m, key)
  for (const file of initial) files.delete(file)
  return { mount: m[key]!.file, files }
}

/** Files that only the dashboard needs (never requested by `/`, live or not). */
export function dashboardChunks(): string[] {
  const m = manifest()
  const initial = new Set([...initialFiles(), ...publicChunks().files])
  const app = Object.entries(m).find(([key]) => key.includes('app/mount'))
  if (!app) throw new Error('the build has no dashboard chunk (src/app/mount.tsx)')
  const files = new Set<string>()
  const seen = new Set<string>()
  const walk = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = m[key]!
    if (!initial.has(chunk.file)) files.add(chunk.file)
    for (const css of chunk.css ?? []) if (!initial.has(css)) files.add(css)
    for (const next of chunk.imports ?? []) walk(next)
  }
  walk(app[0])
  return [...files]
}

/** The hls.js chunk: a dynamic entry of its own, which no chunk imports statically. */
export function hlsChunk(): { file: string; dynamicOnly: boolean } {
  const m = manifest()
  const found = Object.entries(m).find(([key]) => /node_modules\/hls\.js\//.test(key))
  if (!found) throw new Error('the build has no hls.js chunk')
  const [key, chunk] = found
  const importedStatically = Object.values(m).some((c) => c.imports?.includes(key))
  return { file: chunk.file, dynamicOnly: Boolean(chunk.isDynamicEntry) && !importedStatically }
}
