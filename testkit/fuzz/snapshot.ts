// What a refused request must leave unchanged: every table's content and the files on disk.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { TestApp } from '../test-app.ts'

// The activity log is not here: a refused sign-in that starts a lock is recorded, by design.
const TABLES = [
  'admins',
  'sessions',
  'password_reset_tokens',
  'videos',
  'site_versions',
  'site_images',
  'review_links',
] as const

async function files(dir: string, prefix = ''): Promise<string[]> {
  let entries: string[] = []
  try {
    entries = await readdir(dir)
  } catch {
    return []
  }
  const out: string[] = []
  for (const name of entries.sort()) {
    const p = join(dir, name)
    const s = await stat(p)
    if (s.isDirectory()) out.push(...(await files(p, `${prefix}${name}/`)))
    else out.push(`${prefix}${name}:${s.size}`)
  }
  return out
}

export async function snapshot(t: TestApp): Promise<string> {
  const parts: string[] = []
  for (const table of TABLES) {
    const [row] = await t.app.database.sql.unsafe(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${table} x`,
    )
    parts.push(`${table}=${row?.h}`)
  }
  parts.push(
    ...(await files(join(t.dataDir, 'media'))),
    ...(await files(join(t.dataDir, 'uploads'))),
  )
  return parts.join('\n')
}
