// The Docker image holds the folders its runtime stage copies and a production install
// (`dependencies`, no peers). What the server, the seed and the migrate script import must be
// found there; a devDependency or a bench/ helper imported at run time works in a checkout and
// breaks only in the image. This walks their import graph (type-only imports are erased).
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = join(import.meta.dir, '..')
const ENTRIES = ['src/server.ts', 'db/seed.ts', 'db/migrate.ts']

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
