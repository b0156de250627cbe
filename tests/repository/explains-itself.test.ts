// The repository explains itself: its comments, tests and documents cite docs/ or a decision
// record, never an issue number or a document a clone does not have, and every docs/ page,
// section and record they cite exists. A decision is cited by its path,
// docs/decisions/<number>-<slug>.md (in a Markdown page, a link to it), never as a bare number.
// The patterns are built from pieces so this file does not match itself.
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const FOLDERS = ['src', 'web/src', 'db', 'scripts', 'tests', 'e2e', 'bench', 'testkit', 'docs']
const TEXT = '{ts,tsx,mjs,js,css,html,sql,md,json}'
const SELF = 'tests/repository/explains-itself.test.ts'

const word = (...parts: string[]) => parts.join('')
const FORBIDDEN: [string, RegExp][] = [
  // A comment's marker may stand between the word and its number when a line wraps.
  [
    'an issue number',
    new RegExp(`\\b${word('iss', 'ues?')}\\s+(?:(?:\\/\\/|\\*|--)\\s*)?#?\\d`, 'i'),
  ],
  ['the old product spec', new RegExp(`\\b${word('SP', 'EC')}\\b`)],
  ['the old contracts file', new RegExp(word('ARCHI', 'TECTURE', '\\.md'))],
  ['the old style notes', new RegExp(word('STY', 'LE', '\\.md'))],
  ['a folder beside the repository', new RegExp(word('\\.\\./', 'shared', '/'))],
  ['notes the repository does not have', new RegExp(word('pipeline', '-notes'), 'i')],
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

/** Line number of a character offset, for messages. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

test('nothing cites an issue number, the old spec or a file outside the repository', () => {
  const hits: string[] = []
  for (const path of files()) {
    const text = read(path)
    // Matched across line breaks: a citation wrapped onto the next line is still one.
    for (const [what, pattern] of FORBIDDEN) {
      for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
        hits.push(`${path}:${lineAt(text, m.index)} cites ${what}: ${m[0]}`)
      }
    }
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

/** Markdown links `[text](target)`: what a page cites by a link. */
const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g

test('decisions are cited by their path, never by a bare number', () => {
  const bad: string[] = []
  const records = new Set([...new Bun.Glob('docs/decisions/*.md').scanSync({ cwd: ROOT })])
  const numbered = new RegExp(`\\b${word('rec', 'ords?')}\\s+\\d{3}\\b`, 'gi')
  const spoken = new RegExp(`\\b${word('decis', 'ions?')}\\s+\\d{3}\\b`, 'gi')
  const noSlug = new RegExp(`${word('docs/deci', 'sions/')}\\d{3}(?!-[a-z0-9-]+\\.md)`, 'g')
  for (const path of files()) {
    const text = read(path)
    // A link's own text may be the record's number ([062](…/062-….md)): the link is the path.
    const prose = text.replace(LINK, (link) => ' '.repeat(link.length))
    for (const pattern of [numbered, spoken]) {
      for (const m of prose.matchAll(pattern)) {
        bad.push(`${path}:${lineAt(text, m.index)} cites a decision by number: "${m[0]}"`)
      }
    }
    for (const m of text.matchAll(noSlug)) {
      bad.push(`${path}:${lineAt(text, m.index)} cites a decision without its slug: "${m[0]}"`)
    }
    if (!path.endsWith('.md')) continue
    // A link that names a record must name the record it points at.
    for (const m of text.matchAll(LINK)) {
      const [, label, target] = m
      const file = /(?:^|\/)(\d{3})-[a-z0-9-]+\.md$/.exec(target ?? '')
      const number = /^\d{3}$/.exec(label ?? '')
      if (number && (!file || file[1] !== number[0])) {
        bad.push(`${path}:${lineAt(text, m.index)} links ${label} to ${target}`)
      }
      if (file) {
        const resolved = relative(ROOT, resolve(dirname(join(ROOT, path)), target!))
        if (!records.has(resolved)) bad.push(`${path}:${lineAt(text, m.index)}: no ${resolved}`)
      }
    }
  }
  expect(bad).toEqual([])
})

test('every document, section and linked page cited exists', () => {
  const missing: string[] = []
  for (const path of files()) {
    const text = read(path)
    // Paths written out: `docs/…` in a comment, a test or a page, with an optional #section.
    for (const m of text.matchAll(/(?<![\w./-])docs\/[a-z0-9][a-z0-9._/-]*(?:#[\w-]+)?/g)) {
      const [cited = ''] = m
      const [page = '', anchor] = cited.replace(/[.]+$/, '').split('#')
      if (!existsSync(join(ROOT, page))) missing.push(`${path}:${lineAt(text, m.index)}: ${cited}`)
      else if (anchor && page.endsWith('.md') && !anchorsOf(page).has(anchor)) {
        missing.push(`${path}:${lineAt(text, m.index)}: ${cited}`)
      }
    }
    // Any other document named by its path (bench/README.md, tests/README.md, …).
    for (const m of text.matchAll(/(?<![\w./-])(?:[a-z0-9_.-]+\/)+[\w.-]+\.md\b/g)) {
      const [cited = ''] = m
      const here = relative(ROOT, resolve(dirname(join(ROOT, path)), cited))
      if (!existsSync(join(ROOT, cited)) && !existsSync(join(ROOT, here))) {
        missing.push(`${path}:${lineAt(text, m.index)}: ${cited}`)
      }
    }
    if (!path.endsWith('.md')) continue
    // Links of a Markdown page, relative to the page.
    for (const m of text.matchAll(LINK)) {
      const target = m[2] ?? ''
      if (/^([a-z]+:|#)/.test(target)) continue
      const [file = '', anchor] = target.split('#')
      const resolved = relative(ROOT, resolve(dirname(join(ROOT, path)), file))
      if (!existsSync(join(ROOT, resolved))) {
        missing.push(`${path}:${lineAt(text, m.index)}: ${target}`)
      } else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        missing.push(`${path}:${lineAt(text, m.index)}: ${target}`)
      }
    }
  }
  expect(missing).toEqual([])
})
