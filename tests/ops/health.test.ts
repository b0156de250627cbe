// /healthz on the real app: each check named with its state and latency, 200 when all answer,
// 503 naming the one that does not, never a path, an error text or a stack; and a check that
// hangs is cut off at its timeout, so the answer never hangs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { CHECK_TIMEOUT_MS, createHealth } from '../../src/ops/health.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

type Health = {
  status: 'ok' | 'error'
  failing?: string[]
  checks: Record<string, { status: 'ok' | 'error'; latencyMs: number; error?: string }>
}

async function health() {
  const started = performance.now()
  const res = await t.fetch('/healthz')
  const text = await res.text()
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: JSON.parse(text) as Health,
    ms: performance.now() - started,
  }
}

describe('/healthz', () => {
  test('200 with the database, the storage and the queue each ok, with its latency', async () => {
    const h = await health()
    expect(h.status).toBe(200)
    expect(h.headers.get('content-type')).toContain('application/json')
    expect(h.headers.get('cache-control')).toBe('no-store')
    expect(h.body.status).toBe('ok')
    expect(h.body.failing).toBeUndefined()
    expect(Object.keys(h.body.checks)).toEqual(['database', 'storage', 'queue'])
    for (const check of Object.values(h.body.checks)) {
      expect(check.status).toBe('ok')
      expect(check.latencyMs).toBeGreaterThanOrEqual(0)
      expect(check.latencyMs).toBeLessThan(CHECK_TIMEOUT_MS)
    }
    expect(h.ms).toBeLessThan(CHECK_TIMEOUT_MS)
  })

  test('503 naming the storage when the media folder is gone; 200 again once it is back', async () => {
    const media = join(t.dataDir, 'media')
    const away = join(t.dataDir, 'media-away')
    await rename(media, away)
    try {
      const h = await health()
      expect(h.status).toBe(503)
      expect(h.body.status).toBe('error')
      expect(h.body.failing).toEqual(['storage'])
      expect(h.body.checks.storage).toMatchObject({ status: 'error', error: 'failed: ENOENT' })
      expect(h.body.checks.database!.status).toBe('ok')
      expect(h.body.checks.queue!.status).toBe('ok')
      // What the operator reads in the log, not what the client gets.
      expect(h.text).not.toContain(t.dataDir)
      expect(h.text).not.toContain('    at ')
    } finally {
      await rename(away, media)
    }
    expect((await health()).status).toBe(200)
  })

  test('503 when the media folder is a file instead', async () => {
    const media = join(t.dataDir, 'media')
    const away = join(t.dataDir, 'media-away')
    await rename(media, away)
    await Bun.write(media, 'not a folder')
    try {
      const h = await health()
      expect(h.status).toBe(503)
      expect(h.body.failing).toEqual(['storage'])
      expect(h.body.checks.storage!.error).toBe('failed: ENOTDIR')
    } finally {
      await rm(media)
      await rename(away, media)
    }
    // The scratch folder is checked too.
    await rm(join(t.dataDir, 'tmp'), { recursive: true })
    try {
      expect((await health()).body.failing).toEqual(['storage'])
    } finally {
      await mkdir(join(t.dataDir, 'tmp'), { mode: 0o700 })
    }
    expect((await health()).status).toBe(200)
  })
})

describe('checks', () => {
  test('a check that never answers fails at its timeout, and the others still report', async () => {
    const answer = createHealth(
      [
        { name: 'stuck', run: () => new Promise(() => {}) },
        { name: 'fine', run: async () => {} },
        {
          name: 'broken',
          run: async () => {
            throw Object.assign(new Error('secret=hunter2 at /srv/data'), { code: 'ECONNREFUSED' })
          },
        },
      ],
      150,
    )
    const started = performance.now()
    const res = await answer()
    expect(performance.now() - started).toBeLessThan(1000)
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('/srv/data')
    const body = JSON.parse(text) as Health
    expect(body.failing).toEqual(['stuck', 'broken'])
    expect(body.checks.stuck).toMatchObject({ status: 'error', error: 'no answer in 150 ms' })
    expect(body.checks.stuck!.latencyMs).toBeGreaterThanOrEqual(140)
    expect(body.checks.fine!.status).toBe('ok')
    expect(body.checks.broken).toMatchObject({ status: 'error', error: 'failed: ECONNREFUSED' })
  })
})
