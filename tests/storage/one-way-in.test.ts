// Media is read and written through a `Storage` only (docs/storage.md): the app's code never
// builds a path into the media folder itself, so the same code runs on an object store. Only
// the disk engine maps keys to files, and only the store's default picks its folder.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const ALLOWED = new Set(['src/storage/store.ts', 'src/db/data-dir.ts'])

// `join(dataDir, 'media')`, `join(dir, 'media', name)` and the like (a `/media/…` URL is not a path).
const MEDIA_PATH = /(join|resolve)\([^)]*['"]media['"]/

test('no app code outside the storage engines builds a path into the media folder', () => {
  const hits: string[] = []
  for (const path of new Bun.Glob('src/**/*.ts').scanSync({ cwd: ROOT })) {
    if (path.startsWith('src/storage/') || ALLOWED.has(path)) continue
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (MEDIA_PATH.test(line)) hits.push(`${path}:${i + 1}: ${line.trim()}`)
    })
  }
  expect(hits).toEqual([])
})

test('the media code reaches stored bytes through the storage, not node:fs', () => {
  // These modules serve, take in, process and sweep media; any node:fs use they keep is for the
  // local scratch folder, whose paths they build from `tmpDir`.
  const modules = [
    'src/media/serve.ts',
    'src/media/range.ts',
    'src/uploads/intake.ts',
    'src/pages/review.ts',
    'src/videos/rows.ts',
    'src/videos/index.ts',
    'src/videos/context.ts',
    'src/videos/queries.ts',
    'src/videos/commands.ts',
    'src/videos/maintenance.ts',
  ]
  for (const path of modules) {
    const text = readFileSync(join(ROOT, path), 'utf8')
    expect({ path, fs: /from 'node:fs(\/promises)?'/.test(text) }).toEqual({ path, fs: false })
  }
})
