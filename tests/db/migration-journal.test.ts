// drizzle's migrator applies only migrations dated after the last one a database has: a journal
// out of order would make an upgrade skip migrations silently.
import { expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'

const dir = new URL('../../db/migrations/', import.meta.url).pathname
type Entry = { idx: number; when: number; tag: string }
const { entries } = (await Bun.file(`${dir}meta/_journal.json`).json()) as { entries: Entry[] }

test('migrations are dated in the order they are numbered, each later than the one before', () => {
  entries.forEach((entry, i) => {
    expect(entry.idx).toBe(i)
    if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(entries[i - 1]!.when)
  })
})

test('every migration file is in the journal, and every journal entry has its file', async () => {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()
  expect(files).toEqual(entries.map((entry) => `${entry.tag}.sql`))
})
