// Test support lives in testkit/: tests/, e2e/ and bench/ use it and never import each other,
// testkit/ imports none of them, and nothing the app or the image runs (src/, db/, scripts/)
// imports any of the four.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const SUPPORT = ['tests', 'e2e', 'bench', 'testkit']
const APP = ['src', 'db', 'scripts']

const topFolder = (file: string) => relative(ROOT, file).split('/')[0] ?? ''

function crossings(): string[] {
  const transpiler = new Bun.Transpiler({ loader: 'ts' })
  const found: string[] = []
  const glob = new Bun.Glob(`{${[...SUPPORT, ...APP].join(',')}}/**/*.{ts,tsx,mjs}`)
  for (const path of glob.scanSync({ cwd: ROOT, absolute: true })) {
    if (path.includes('/node_modules/')) continue
    const from = topFolder(path)
    for (const { path: specifier } of transpiler.scanImports(readFileSync(path, 'utf8'))) {
      if (!specifier.startsWith('.')) continue
      const to = topFolder(resolve(dirname(path), specifier))
      if (to === from || !SUPPORT.includes(to)) continue
      if (to === 'testkit' && SUPPORT.includes(from)) continue
      found.push(`${relative(ROOT, path)} imports ${specifier}`)
    }
  }
  return found
}

test('tests, e2e and bench share testkit/ and import nothing of each other', () => {
  expect(crossings()).toEqual([])
})
