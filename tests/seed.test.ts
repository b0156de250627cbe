import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..')

async function seed(dataDir: string, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, 'db/seed.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: 'seed-pass-1' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const code = await proc.exited
  return {
    code,
    out: await new Response(proc.stdout).text(),
    err: await new Response(proc.stderr).text(),
  }
}

test('db:seed fills an empty instance once; the videos are served publicly', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-seed-test-'))
  try {
    const first = await seed(dataDir, '2', '--once')
    expect(first.err).toBe('')
    expect(first.code).toBe(0)
    expect(first.out).toContain('Seeded 2 sample videos.')
    expect(existsSync(join(dataDir, '.seeded'))).toBe(true)
    const again = await seed(dataDir, '2', '--once')
    expect(again.code).toBe(0)
    expect(again.out).not.toContain('Seeded')

    const { createApp } = await import('../src/app.ts')
    const { loadConfig } = await import('../src/config.ts')
    const app = await createApp(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }))
    try {
      const res = await app.fetch(new Request('http://localhost/api/public/videos'))
      const body = await res.json()
      expect(body.data.videos).toHaveLength(2)
      const thumb = await app.fetch(
        new Request(`http://localhost${body.data.videos[0].thumbnailUrl}`),
      )
      expect(thumb.headers.get('content-type')).toBe('image/jpeg')
    } finally {
      await app.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
