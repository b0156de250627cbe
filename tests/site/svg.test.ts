// Hostile SVG logos (docs/decisions/056-svg-logos-within-a-budget-sanitised-on-a-worker.md and
// docs/decisions/039-svg-logos-dompurify-on-jsdom-refused-when-active.md): files over the budget
// are refused in milliseconds with what is over it, files that reach outside are refused whatever
// CSS escape hides the reference, a logo that refers only to itself keeps its `url(#id)`, the
// sanitiser's time limit ends its worker, and SVGs wait in the same bounded queue as raster images.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { imageMsg } from '../../src/contract/site.ts'
import { svgOverBudget } from '../../src/site/svg-scan.ts'
import { sanitizeOnWorker } from '../../src/site/svg-thread.ts'
import {
  commentBombSvg,
  externalSvgs,
  gradientLogo,
  heavySvgs,
  svgOf,
} from '../../testkit/fuzz/svg.ts'
import { mediaFiles, picture, resetSite, siteImageRows, uploadImage } from '../../testkit/site.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let admin: string
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  await resetSite(t)
  // A plain admin: uploading logos needs no super admin.
  admin = (await t.createAdmin('designer', await t.login())).token
})

const overBudget: Record<keyof typeof heavySvgs, [number, string]> = {
  '40,000 attributes on one element': [400, 'more than 100 attributes on one element'],
  '400,000 attributes on one element (about 7 MB)': [413, 'larger than 5 MB'],
  '40,000 nested <g>': [400, 'elements nested more than 256 deep'],
  '20,000 elements': [400, 'more than 5,000 elements'],
  '59,400 attributes in all': [400, 'more than 50,000 attributes'],
  '20,000 elements inside a comment': [400, 'more than 5,000 elements'],
}

describe('over the budget', () => {
  test.each(Object.entries(heavySvgs))(
    '%s → refused within a second, saying what is over, nothing stored',
    async (name, make) => {
      const bytes = make()
      const [status, what] = overBudget[name as keyof typeof heavySvgs]
      const started = performance.now()
      const r = await uploadImage(t, admin, 'logo', bytes)
      const ms = performance.now() - started
      expect(r.json).toEqual({
        status: 'error',
        message: imageMsg.svgTooComplex(what),
        field: 'file',
      })
      expect(r.status).toBe(status)
      expect(ms).toBeLessThan(1000)
      expect(await mediaFiles(t)).toEqual([])
      expect(await siteImageRows(t)).toBe(0)
    },
    30_000,
  )

  test('every built-in client logo is well within the budget', async () => {
    const dir = 'web/public/clients'
    for (const name of await readdir(dir)) {
      expect(svgOverBudget(await Bun.file(join(dir, name)).bytes())).toBeNull()
    }
  })

  test('a head of 500 comments is read in milliseconds (no backtracking type check)', async () => {
    const started = performance.now()
    const r = await uploadImage(t, admin, 'logo', commentBombSvg())
    expect(performance.now() - started).toBeLessThan(1000)
    expect(r.status).toBe(415)
    expect(r.json.message).toBe(imageMsg.logoType)
  })
})

describe('external references', () => {
  test.each(Object.entries(externalSvgs))(
    '%s → refused, nothing stored',
    async (_, inner) => {
      const r = await uploadImage(t, admin, 'logo', svgOf(inner))
      expect(r.status).toBe(400)
      expect(r.json.message).toBeOneOf([
        imageMsg.svgUnsafe('an external reference'),
        imageMsg.svgUnsafe('an external reference in a style'),
      ])
      expect(await mediaFiles(t)).toEqual([])
      expect(await siteImageRows(t)).toBe(0)
    },
    30_000,
  )

  test('a logo that refers only to itself keeps every url(#grad), and nothing points out', async () => {
    const r = await uploadImage(t, admin, 'logo', gradientLogo())
    expect(r.status).toBe(201)
    const stored = await (await t.fetch(r.json.data.image.files[0].url)).text()
    expect(stored.match(/url\(\s*['"]?#grad/g)).toHaveLength(3)
    // The XML namespace is a name, not a fetch; nothing else may name a scheme or a host.
    const rest = stored.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')
    expect(rest).not.toContain('http')
    expect(rest).not.toContain('//')
    expect(rest).not.toContain('\\')
  })
})

describe('the worker', () => {
  test('a file over the time limit ends the worker; the next file gets a new one', async () => {
    const heavy = svgOf('<rect x="1" y="2" width="3" height="4"/>'.repeat(3000))
    expect(await sanitizeOnWorker(heavy, 1)).toBe('timeout')
    const next = await sanitizeOnWorker(svgOf('<rect width="9" height="9"/>'))
    expect(next).toMatchObject({ ok: true })
  }, 60_000)

  test('SVGs wait in the image queue: with it full, one more is answered 429', async () => {
    const hero = await picture(2600, 1400, 'jpeg')
    // Three heroes fill the queue (one converting, two waiting; each takes seconds).
    const heroes = Array.from({ length: 3 }, () => uploadImage(t, admin, 'heroWide', hero))
    await Bun.sleep(200)
    const r = await uploadImage(t, admin, 'logo', gradientLogo())
    expect(r.status).toBe(429)
    expect(r.json.message).toBe(imageMsg.busy)
    expect((await Promise.all(heroes)).map((h) => h.status)).toEqual([201, 201, 201])
    // Once the queue has room, the same logo goes through.
    expect((await uploadImage(t, admin, 'logo', gradientLogo())).status).toBe(201)
  }, 120_000)
})
