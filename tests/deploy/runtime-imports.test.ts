// The Docker image holds the folders its runtime stage copies and a production install
// (`dependencies`, no peers). What the server, the seed and the migrate script import must be
// found there; a devDependency or a bench/ helper imported at run time works in a checkout and
// breaks only in the image. This walks their import graph (type-only imports are erased).
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
// The server, and what an operator runs in the image beside it (`docker exec … bun run …`); the
// SVG sanitiser's and the caption reader's workers are started by file URL, which no import names.
const ENTRIES = [
  'src/server.ts',
  'src/site/svg-worker.ts',
  'src/captions/worker.ts',
  'src/worker.ts',
  'src/processing/reprocess.ts',
  'src/backup/cli.ts',
  'db/seed.ts',
  'db/migrate.ts',
]

/** Folders the Dockerfile's last stage copies from the build context (`COPY <src> … <dest>`). */
function shippedFolders(): string[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ')
  const lastStage = text.slice(text.search(/^FROM (?![\s\S]*^FROM )/m))
  return [...lastStage.matchAll(/^COPY\s+(?!--from)(.+)$/gm)].flatMap((m) => {
    const parts = m[1]?.trim().split(/\s+/) ?? []
    return parts.slice(0, -1)
  })
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

function resolveLocal(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier)
  const found = [base, `${base}.ts`, join(base, 'index.ts')].find(
    (p) => existsSync(p) && !p.endsWith('/'),
  )
  if (!found) throw new Error(`${relative(ROOT, from)} imports ${specifier}, which does not exist`)
  return found
}

function importGraph() {
  const transpiler = new Bun.Transpiler({ loader: 'ts' })
  const files = new Set<string>()
  const packages = new Map<string, string>() // package -> first file importing it
  const queue = ENTRIES.map((e) => join(ROOT, e))
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (files.has(file)) continue
    files.add(file)
    for (const { path } of transpiler.scanImports(readFileSync(file, 'utf8'))) {
      if (path.startsWith('.')) queue.push(resolveLocal(file, path))
      else if (path.startsWith('node:') || path.startsWith('bun:')) continue
      else if (builtinModules.includes(path) || path === 'bun') continue
      else if (!packages.has(packageName(path)))
        packages.set(packageName(path), relative(ROOT, file))
    }
  }
  return { files: [...files].map((f) => relative(ROOT, f)), packages }
}

test('what the server, the seed and db:migrate import is in the image', () => {
  const shipped = shippedFolders()
  expect(shipped).toContain('src')
  const { files, packages } = importGraph()
  expect(files.length).toBeGreaterThan(20)
  const outside = files.filter((f) => !shipped.some((s) => f === s || f.startsWith(`${s}/`)))
  expect(outside).toEqual([])

  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}))
  const missing = [...packages]
    .filter(([name]) => !runtime.has(name))
    .map(([name, file]) => `${name} (imported by ${file})`)
  expect(missing).toEqual([])
  expect(packages.has('drizzle-orm')).toBe(true)
})

test('peers the runtime packages need are runtime packages too (the image omits peers)', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const runtime = new Set(Object.keys(manifest.dependencies ?? {}))
  const missing: string[] = []
  for (const name of runtime) {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
    const optional = pkg.peerDependenciesMeta ?? {}
    for (const peer of Object.keys(pkg.peerDependencies ?? {})) {
      if (optional[peer]?.optional || runtime.has(peer)) continue
      // Imported by the package itself, not only by its users' tooling.
      if (importsPeer(join(ROOT, 'node_modules', name), peer)) missing.push(`${peer} (for ${name})`)
    }
  }
  expect(missing).toEqual([])
})

/** Whether any JavaScript file of the package (dist or lib) imports `peer`. */
function importsPeer(dir: string, peer: string): boolean {
  const glob = new Bun.Glob('**/*.{js,mjs,cjs}')
  for (const file of glob.scanSync({ cwd: dir, onlyFiles: true })) {
    if (file.includes('node_modules/')) continue
    const text = readFileSync(join(dir, file), 'utf8')
    if (text.includes(`'${peer}'`) || text.includes(`"${peer}"`)) return true
  }
  return false
}
