// The repository explains itself: its comments, tests and documents cite docs/ or a decision
// record, never an issue number or a document a clone does not have, and every docs/ page,
// section and record they cite exists. The patterns are built from pieces so this file does not
// match itself.
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const FOLDERS = ['src', 'web/src', 'db', 'scripts', 'tests', 'e2e', 'bench', 'testkit', 'docs']
const TEXT = '{ts,tsx,mjs,js,css,html,sql,md,json}'
const SELF = 'tests/repository/explains-itself.test.ts'

const word = (...parts: string[]) => parts.join('')
const FORBIDDEN: [string, RegExp][] = [
  ['an issue number', new RegExp(`\\b${word('iss', 'ues?')}\\s+#?\\d`, 'i')],
  ['the old product spec', new RegExp(`\\b${word('SP', 'EC')}\\b`)],
  ['the old contracts file', new RegExp(word('ARCHI', 'TECTURE', '\\.md'))],
  ['the old style notes', new RegExp(word('STY', 'LE', '\\.md'))],
  ['a folder beside the repository', new RegExp(word('\\.\\./', 'shared', '/'))],
]

function files(): string[] {
  const found = ['README.md']
  for (const folder of FOLDERS) {
    const glob = new Bun.Glob(`${folder}/**/*.${TEXT}`)
    for (const path of glob.scanSync({ cwd: ROOT })) {
      if (/(^|\/)(node_modules|dist|dist-ssr|screenshots)\//.test(path) || path === SELF) continue
      // drizzle-kit's snapshots are generated, not written.
      if (path.startsWith('db/migrations/meta/')) continue
      found.push(path)
    }
  }
  return found
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

test('nothing cites an issue number, the old spec or a file outside the repository', () => {
  const hits: string[] = []
  for (const path of files()) {
    read(path)
      .split('\n')
      .forEach((line, i) => {
        for (const [what, pattern] of FORBIDDEN) {
          if (pattern.test(line)) hits.push(`${path}:${i + 1} cites ${what}: ${line.trim()}`)
        }
      })
  }
  expect(hits).toEqual([])
})

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchorsOf(page: string): Set<string> {
  const headings = read(page)
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+\s/, ''))))
}

test('every docs/ page, section and decision record cited exists', () => {
  const missing: string[] = []
  const records = [...new Bun.Glob('docs/decisions/*.md').scanSync({ cwd: ROOT })]
  for (const path of files()) {
    const text = read(path)
    for (const [, page, anchor] of text.matchAll(/\b(docs\/[a-z-]+\.md)(?:#([\w-]+))?/g)) {
      if (!page || !existsSync(join(ROOT, page))) missing.push(`${path}: ${page}`)
      else if (anchor && !anchorsOf(page).has(anchor)) missing.push(`${path}: ${page}#${anchor}`)
    }
    for (const [cited, number] of text.matchAll(/\brecords? (\d{3})\b/g)) {
      if (!records.some((r) => r.startsWith(`docs/decisions/${number}-`))) {
        missing.push(`${path}: ${cited}`)
      }
    }
  }
  // Links between the docs/ pages themselves.
  for (const page of [...new Bun.Glob('docs/*.md').scanSync({ cwd: ROOT })]) {
    for (const [, target, anchor] of read(page).matchAll(/\]\(([a-z-]+\.md)(?:#([\w-]+))?\)/g)) {
      const file = `docs/${target}`
      if (!existsSync(join(ROOT, file))) missing.push(`${page}: ${target}`)
      else if (anchor && !anchorsOf(file).has(anchor)) missing.push(`${page}: ${target}#${anchor}`)
    }
  }
  expect(missing).toEqual([])
})
