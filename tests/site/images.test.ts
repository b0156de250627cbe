// Site images (docs/decisions/038-site-images-converted-by-sharp.md): converted with sharp into the
// served formats and widths, SVG logos sanitised, bad files refused with a clear message and
// nothing stored, replaced images cleaned up, and the start-up sweep keeping what the site still
// needs.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { aspectRefusal, type ImagePurpose, imageMsg } from '../../src/contract/site.ts'
import { startHousekeeping } from '../../src/services.ts'
import { defaultContent } from '../../src/site/defaults.ts'
import { sanitizeSvg } from '../../src/site/svg.ts'
import {
  current,
  gif,
  mediaFiles,
  picture,
  resetSite,
  save,
  siteImageRows,
  svg,
  uploadImage,
} from '../../testkit/site.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let owner: string
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  await resetSite(t)
  owner = await t.login()
})

type File = { url: string; width: number; type: string }

describe('converting', () => {
  test('a wide hero becomes AVIF and WebP at the widths it reaches; the page serves them', async () => {
    const r = await uploadImage(t, owner, 'heroWide', await picture(1400, 788, 'jpeg'))
    expect(r.status).toBe(201)
    const image = r.json.data.image
    expect(image).toMatchObject({ width: 1400, height: 788 })
    const files = image.files as File[]
    expect(files.map((f) => [f.type, f.width])).toEqual([
      ['image/avif', 1280],
      ['image/webp', 1280],
    ])
    expect((await mediaFiles(t)).length).toBe(2)
    for (const file of files) {
      const res = await t.fetch(file.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(file.type)
      const meta = await sharp(new Uint8Array(await res.arrayBuffer())).metadata()
      expect(meta.width).toBe(1280)
      expect(meta.format).toBe(file.type === 'image/avif' ? 'heif' : 'webp')
    }

    const content = structuredClone(defaultContent)
    content.hero.wideImage = image.id
    expect((await save(t, owner, 0, content)).status).toBe(200)
    const pub = (await t.call('GET', '/api/public/site')).json.data.site
    expect(pub.hero.images.wide.files).toEqual(files)
  }, 60_000)

  test('a raster logo becomes one WebP at most twice the logo box', async () => {
    const r = await uploadImage(t, owner, 'logo', await picture(1000, 500, 'png'))
    expect(r.status).toBe(201)
    expect(r.json.data.image).toMatchObject({ width: 384, height: 192 })
    expect(r.json.data.image.files).toEqual([
      {
        url: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.webp$/),
        width: 384,
        type: 'image/webp',
      },
    ])
  })

  test('an SVG logo is kept as sanitised SVG, served as image/svg+xml', async () => {
    const logo = await Bun.file('web/public/clients/universal-music-group.svg').bytes()
    const r = await uploadImage(t, owner, 'logo', logo)
    expect(r.status).toBe(201)
    expect(r.json.data.image).toMatchObject({ width: 240, height: 96 })
    const res = await t.fetch(r.json.data.image.files[0].url)
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    const text = await res.text()
    expect(text).toStartWith('<?xml')
    expect(text).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
  })

  test('every built-in client logo passes the sanitiser unchanged in meaning', async () => {
    const dir = 'web/public/clients'
    for (const name of await readdir(dir)) {
      const result = await sanitizeSvg(await Bun.file(join(dir, name)).text())
      expect(result.ok).toBe(true)
    }
  })

  test('a multipart body with a `file` field works the same', async () => {
    const body = new FormData()
    body.append('file', new Blob([await picture(600, 300)]), 'logo.png')
    const r = await uploadImage(t, owner, 'logo', body)
    expect(r.status).toBe(201)
  })
})

describe('refusing', () => {
  const refusals: [string, string, () => Promise<Uint8Array<ArrayBuffer>>, number, string][] = [
    ['a GIF hero', 'heroWide', gif, 415, imageMsg.heroType],
    ['an SVG hero', 'heroWide', async () => svg(''), 415, imageMsg.heroType],
    [
      'a text file as a logo',
      'logo',
      async () => new TextEncoder().encode('hello'),
      415,
      imageMsg.logoType,
    ],
    [
      'a truncated PNG',
      'logo',
      async () => (await picture(400, 200)).slice(0, 120),
      400,
      imageMsg.undecodable,
    ],
    [
      'a narrow wide hero',
      'heroWide',
      () => picture(1000, 600),
      400,
      imageMsg.tooNarrow('heroWide'),
    ],
    [
      'a narrow mobile hero',
      'heroMobile',
      () => picture(400, 700),
      400,
      imageMsg.tooNarrow('heroMobile'),
    ],
    [
      'an SVG with a script',
      'logo',
      async () => svg('<script>alert(1)</script>'),
      400,
      imageMsg.svgUnsafe('a <script>'),
    ],
    [
      'an SVG with an event handler',
      'logo',
      async () => svg('', ' onload="alert(1)"'),
      400,
      imageMsg.svgUnsafe('an event handler (onload)'),
    ],
    [
      'an SVG with an external image',
      'logo',
      async () => svg('<image href="https://tracker.example/p.png" width="1" height="1"/>'),
      400,
      imageMsg.svgUnsafe('an external reference'),
    ],
    [
      'an SVG with an external xlink:href',
      'logo',
      async () => svg('<use xlink:href="https://evil.example/a.svg#x"/>'),
      400,
      imageMsg.svgUnsafe('an external reference'),
    ],
    [
      'an SVG with a javascript: link',
      'logo',
      async () => svg('<a href="javascript:alert(1)"><text>x</text></a>'),
      400,
      imageMsg.svgUnsafe('an external reference'),
    ],
    [
      'an SVG with a foreignObject',
      'logo',
      async () => svg('<foreignObject width="10" height="10"><div>hi</div></foreignObject>'),
      400,
      imageMsg.svgUnsafe('a foreignObject'),
    ],
    [
      'an SVG whose style imports',
      'logo',
      async () => svg('<style>@import url(https://x.example/a.css);</style>'),
      400,
      imageMsg.svgUnsafe('an external reference in a style'),
    ],
    [
      'an SVG with entity declarations',
      'logo',
      async () =>
        new TextEncoder().encode(
          '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
        ),
      400,
      imageMsg.svgUnsafe('entity declarations'),
    ],
  ]
  test.each(refusals)(
    '%s → %#: a clear message, nothing stored',
    async (_, purpose, make, status, message) => {
      const r = await uploadImage(t, owner, purpose, await make())
      expect(r.status).toBe(status)
      expect(r.json).toEqual({ status: 'error', message, field: 'file' })
      expect(await mediaFiles(t)).toEqual([])
      expect(await siteImageRows(t)).toBe(0)
    },
    30_000,
  )

  const tallSvg = () =>
    new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 200" width="40" height="200"><rect width="40" height="200" fill="#123"/></svg>',
    )
  const misshapen: [string, string, () => Promise<Uint8Array<ArrayBuffer>>, number, number][] = [
    ['a 100,000×2 strip as the wide hero', 'heroWide', () => picture(100_000, 2), 100_000, 2],
    ['a 5:1 panorama as the wide hero', 'heroWide', () => picture(2000, 400), 2000, 400],
    ['a portrait as the wide hero', 'heroWide', () => picture(1300, 1400), 1300, 1400],
    ['a landscape as the mobile hero', 'heroMobile', () => picture(1600, 900), 1600, 900],
    ['a 1:4 tower as the mobile hero', 'heroMobile', () => picture(500, 2000), 500, 2000],
    ['a 3000×1 line as a logo', 'logo', () => picture(3000, 1), 3000, 1],
    ['a tall raster logo', 'logo', () => picture(100, 300), 100, 300],
    ['a tall SVG logo', 'logo', async () => tallSvg(), 40, 200],
  ]
  test.each(misshapen)(
    '%s → 400 naming the shape it may have, nothing stored',
    async (_, purpose, make, width, height) => {
      const r = await uploadImage(t, owner, purpose, await make())
      expect(r.status).toBe(400)
      expect(r.json).toEqual({
        status: 'error',
        message: aspectRefusal(purpose as ImagePurpose, width, height) ?? 'fits',
        field: 'file',
      })
      expect(r.json.message).toContain(`this one is ${width}×${height} pixels`)
      expect(await mediaFiles(t)).toEqual([])
      expect(await siteImageRows(t)).toBe(0)
    },
    30_000,
  )

  test('shapes at the bounds are taken: 4:1 and 1:1 wide, 1:3 and 4:3 mobile, 8:1 and 1:2 logos', async () => {
    const fits: [string, number, number][] = [
      ['heroWide', 2560, 640],
      ['heroWide', 1280, 1280],
      ['heroMobile', 480, 1440],
      ['heroMobile', 1200, 900],
      ['logo', 800, 100],
      ['logo', 100, 200],
    ]
    for (const [purpose, width, height] of fits) {
      const r = await uploadImage(t, owner, purpose, await picture(width, height))
      expect([purpose, width, height, r.status]).toEqual([purpose, width, height, 201])
    }
  }, 60_000)

  test('more than 10 MB → 413 from the declared length, nothing read or stored', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1)
    big.set(await picture(8, 8))
    const r = await uploadImage(t, owner, 'logo', big)
    expect(r.status).toBe(413)
    expect(r.json.message).toBe(imageMsg.tooLarge)
    expect(await mediaFiles(t)).toEqual([])
  })

  test('a decompression bomb (a small file of too many pixels) → 400', async () => {
    const bomb = await sharp({
      create: { width: 10_000, height: 6_000, channels: 3, background: '#fff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    const r = await uploadImage(t, owner, 'heroWide', new Uint8Array(bomb))
    expect(r.status).toBe(400)
    expect(r.json.message).toBe(imageMsg.tooManyPixels)
    expect(await mediaFiles(t)).toEqual([])
  }, 30_000)

  test('no session → 401 before the body is read; an unknown purpose → 400', async () => {
    expect((await uploadImage(t, null, 'logo', await picture(10, 10))).status).toBe(401)
    const r = await uploadImage(t, owner, 'poster', await picture(10, 10))
    expect(r.status).toBe(400)
    expect(r.json.message).toBe(imageMsg.purpose)
  })

  test('the tRPC procedure takes no JSON bytes (files go through the REST path)', async () => {
    const res = await t.fetch('/trpc/site.addImage', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ purpose: 'logo', bytes: [137, 80, 78, 71] }),
    })
    expect(res.status).toBe(400)
    expect(await mediaFiles(t)).toEqual([])
  })
})

describe('keeping and removing', () => {
  async function logoSave(baseVersion: number, logo: string) {
    const content = structuredClone(defaultContent)
    content.clients[0]!.logo = logo
    const r = await save(t, owner, baseVersion, content)
    expect(r.status).toBe(200)
    return r.json.data.version as number
  }
  const upload = async () =>
    (await uploadImage(t, owner, 'logo', await picture(480, 192))).json.data.image

  test('a replaced image stays while any undo can bring it back; an unsaved one goes', async () => {
    const [a, b, c, unsaved] = [await upload(), await upload(), await upload(), await upload()]
    let v = await logoSave(0, a.id)
    v = await logoSave(v, b.id)
    v = await logoSave(v, c.id)
    // Ageing every upload past the grace period lets the clean-up act on what is not needed.
    await t.app.database.db.execute(
      sql`update site_images set created_at = now() - interval '2 days'`,
    )
    expect(await t.app.services.site.cleanUp()).toBe(1)
    const files = await mediaFiles(t)
    for (const kept of [a, b, c]) expect(files).toContain(kept.files[0].url.slice('/media/'.length))
    expect(files).not.toContain(unsaved.files[0].url.slice('/media/'.length))
    expect(await siteImageRows(t)).toBe(3)
    // Undo walks back through b and a, whose files are still there.
    for (const restored of [b, a]) {
      const undo = await t.call('POST', '/api/site/undo', {
        token: owner,
        body: { baseVersion: v },
      })
      expect(undo.status).toBe(200)
      v = undo.json.data.version
      const logo = (await t.call('GET', '/api/public/site')).json.data.site.clients[0].logo
      expect(logo.id).toBe(restored.id)
      expect((await t.fetch(logo.files[0].url)).status).toBe(200)
    }
  }, 60_000)

  test('an unsaved upload is kept for a day, then cleaned up', async () => {
    const image = await upload()
    await t.app.services.site.cleanUp()
    expect(await siteImageRows(t)).toBe(1)
    await t.app.database.db.execute(
      sql`update site_images set created_at = now() - interval '2 days'`,
    )
    await t.app.services.site.cleanUp()
    expect(await siteImageRows(t)).toBe(0)
    expect(await mediaFiles(t)).not.toContain(image.files[0].url.slice('/media/'.length))
  })

  test('unsaved uploads go without any save: at start-up and on the periodic round', async () => {
    const age = () =>
      t.app.database.db.execute(
        sql`update site_images set created_at = now() - interval '25 hours' where created_at > now() - interval '1 hour'`,
      )
    const early = await upload()
    await age()
    await t.restart()
    expect(await siteImageRows(t)).toBe(0)
    expect(await mediaFiles(t)).not.toContain(early.files[0].url.slice('/media/'.length))

    // The same round on a short period, as the hourly timer runs it.
    const late = await upload()
    const saved = await upload()
    await logoSave(0, saved.id)
    await age()
    const stop = await startHousekeeping(t.app.services, 0, 50)
    try {
      const lateFile = late.files[0].url.slice('/media/'.length)
      for (let i = 0; i < 100 && (await mediaFiles(t)).includes(lateFile); i++) await Bun.sleep(50)
      expect(await mediaFiles(t)).not.toContain(lateFile)
    } finally {
      stop()
    }
    expect(await siteImageRows(t)).toBe(1)
    expect(await mediaFiles(t)).toContain(saved.files[0].url.slice('/media/'.length))
  }, 60_000)

  test('a restart keeps the site’s images (the media sweep knows them)', async () => {
    const image = await upload()
    const v = await logoSave(0, image.id)
    expect(v).toBeGreaterThan(0)
    const name = image.files[0].url.slice('/media/'.length)
    await t.restart()
    expect(await mediaFiles(t)).toContain(name)
    expect((await current(t, owner)).content.clients[0].logo).toBe(image.id)
  }, 60_000)
})
