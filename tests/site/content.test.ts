// Site content (docs/decisions/037-site-content-as-versions.md): defaults, validation with clear
// messages, versions, undo and the public answer's cache, through the REST paths and the tRPC
// procedures.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { msg } from '../../src/contract/messages.ts'
import { siteMsg } from '../../src/contract/site.ts'
import { defaultContent } from '../../src/site/defaults.ts'
import { current, resetSite, save } from '../../testkit/site.ts'
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

const DEFAULT_CLIENTS = [
  'Nike',
  'Apple TV',
  'Google',
  'Coca Cola',
  'Netflix',
  'Hulu',
  'AT&T',
  'Beats',
  'ESPN',
  'Fitbit',
  'Lionsgate',
  'Showtime',
  'Meta',
  'Comedy Central',
  'Universal Music Group',
]

const clone = <T>(v: T): T => structuredClone(v)

describe('the public content', () => {
  test('a new instance serves today’s page: the hero line, 15 clients, two titled contacts', async () => {
    const r = await t.call('GET', '/api/public/site')
    expect(r.status).toBe(200)
    const site = r.json.data.site
    expect(site.hero.line).toBe('Where words leave off, music begins.')
    expect(site.clients.map((c: { name: string }) => c.name)).toEqual(DEFAULT_CLIENTS)
    expect(site.contact.team.map((m: { title: string }) => m.title)).toEqual([
      'Executive Producer',
      'Chief Creative Officer',
    ])
    // The default images keep the stable URLs index.html preloads.
    const wide = site.hero.images.wide.files.map((f: { url: string }) => f.url)
    expect(wide).toContain('/hero/hero-wide-1280.avif')
    expect(site.clients[0].logo.files[0].url).toBe('/clients/nike.svg')
  })

  test('cached as bytes with an ETag: 304 when unchanged, new bytes after a save', async () => {
    const first = await t.fetch('/api/public/site')
    const etag = first.headers.get('etag')
    expect(etag).toBeTruthy()
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    const again = await t.fetch('/api/public/site', { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)

    const content = clone(defaultContent)
    content.hero.line = 'Sound first, then everything else.'
    expect((await save(t, owner, 0, content)).status).toBe(200)
    const after = await t.fetch('/api/public/site', { headers: { 'if-none-match': etag! } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
    const body = (await after.json()) as { data: { site: { hero: { line: string } } } }
    expect(body.data.site.hero.line).toBe('Sound first, then everything else.')
  })

  test('the dashboard read needs a session', async () => {
    expect((await t.call('GET', '/api/site')).status).toBe(401)
    expect((await t.call('PUT', '/api/site', { body: {} })).status).toBe(401)
    expect((await t.call('POST', '/api/site/undo', { body: {} })).status).toBe(401)
  })
})

describe('saving', () => {
  test('a save is a new version; the public page and the dashboard read it', async () => {
    const before = await current(t, owner)
    expect(before).toMatchObject({ version: 0, canUndo: false, lastChange: null })
    const content = clone(defaultContent)
    content.hero.line = 'Music where words stop.'
    content.contact.team[0] = {
      name: 'Ana Ortiz',
      title: 'Executive Producer',
      phone: '+1 (213) 555-0100',
      email: 'Ana@Studio.example',
    }
    const r = await save(t, owner, 0, content)
    expect(r.status).toBe(200)
    expect(r.json.data.changed).toEqual(['heroLine', 'contact'])
    expect(r.json.data.canUndo).toBe(true)
    expect(r.json.data.lastChange).toMatchObject({ by: 'owner', kind: 'save' })
    const pub = (await t.call('GET', '/api/public/site')).json.data.site
    expect(pub.hero.line).toBe('Music where words stop.')
    // E-mails are kept lower-case, as sign-in treats them.
    expect(pub.contact.team[0]).toEqual({ ...content.contact.team[0], email: 'ana@studio.example' })
  })

  test('unchanged content makes no version', async () => {
    const r = await save(t, owner, 0, defaultContent)
    expect(r.status).toBe(200)
    expect(r.json.data).toMatchObject({ version: 0, changed: [], canUndo: false })
  })

  test('a save from an older version is refused (409), nothing changes', async () => {
    const a = clone(defaultContent)
    a.hero.line = 'First editor.'
    const first = await save(t, owner, 0, a)
    expect(first.status).toBe(200)
    const b = clone(defaultContent)
    b.hero.line = 'Second editor, from the old page.'
    const stale = await save(t, owner, 0, b)
    expect(stale.status).toBe(409)
    expect(stale.json.message).toBe(siteMsg.stale)
    expect((await current(t, owner)).content.hero.line).toBe('First editor.')
  })

  const invalid: [string, (c: typeof defaultContent) => void, string][] = [
    [
      'an empty hero line',
      (c) => {
        c.hero.line = '  '
      },
      siteMsg.lineRequired,
    ],
    [
      'a long hero line',
      (c) => {
        c.hero.line = 'x'.repeat(121)
      },
      siteMsg.lineMax,
    ],
    [
      'no services',
      (c) => {
        c.hero.services = []
      },
      siteMsg.servicesMin,
    ],
    [
      'an empty service',
      (c) => {
        c.hero.services[1] = ''
      },
      siteMsg.serviceRequired,
    ],
    [
      'no clients',
      (c) => {
        c.clients = []
      },
      siteMsg.clientsMin,
    ],
    [
      'a client without a name',
      (c) => {
        c.clients[3]!.name = ''
      },
      siteMsg.clientNameRequired,
    ],
    [
      'a client without a logo',
      (c) => {
        c.clients[3]!.logo = ''
      },
      siteMsg.clientLogoRequired,
    ],
    [
      'an empty paragraph',
      (c) => {
        c.about.paragraphs[0] = ' '
      },
      siteMsg.paragraphRequired,
    ],
    [
      'no team',
      (c) => {
        c.contact.team = []
      },
      siteMsg.teamMin,
    ],
    [
      'a bad e-mail',
      (c) => {
        c.contact.team[1]!.email = 'jonah@'
      },
      msg.emailInvalid,
    ],
    [
      'no e-mail',
      (c) => {
        c.contact.team[1]!.email = ''
      },
      msg.emailRequired,
    ],
    [
      'letters in a phone',
      (c) => {
        c.contact.team[0]!.phone = '555-CALL-NOW'
      },
      siteMsg.phoneChars,
    ],
    [
      'a short phone',
      (c) => {
        c.contact.team[0]!.phone = '+1 55'
      },
      siteMsg.phoneDigits,
    ],
    [
      'no job title',
      (c) => {
        c.contact.team[0]!.title = ''
      },
      siteMsg.titleRequired,
    ],
    [
      'a control character',
      (c) => {
        c.contact.team[0]!.name = 'Ana\u0007'
      },
      'Name must not contain control characters',
    ],
  ]
  test.each(invalid)('%s → 400 with its message, nothing saved', async (_, spoil, message) => {
    const content = clone(defaultContent)
    spoil(content)
    const r = await save(t, owner, 0, content)
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ status: 'error', message, field: 'content' })
    expect((await current(t, owner)).version).toBe(0)
  })

  test('an unknown or misused image id is refused with a clear message', async () => {
    const unknown = clone(defaultContent)
    unknown.hero.wideImage = '7f1c6a55-0f0e-4a57-9d55-2a0c5d0c7e11'
    const r1 = await save(t, owner, 0, unknown)
    expect(r1.status).toBe(400)
    expect(r1.json.message).toBe('This image is no longer available. Please upload it again.')
    const logoAsHero = clone(defaultContent)
    logoAsHero.hero.wideImage = 'builtin:logo-nike'
    expect((await save(t, owner, 0, logoAsHero)).status).toBe(400)
    expect((await current(t, owner)).version).toBe(0)
  })

  test('the same procedures over tRPC, with the same messages', async () => {
    const content = clone(defaultContent)
    content.contact.team[0]!.email = 'nope'
    const res = await t.fetch('/trpc/site.save', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ baseVersion: 0, content }),
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { message: string } }
    expect(body.error.message).toBe(msg.emailInvalid)
  })
})

describe('undo', () => {
  test('restores the previous version as a new one, and says when nothing is left', async () => {
    expect(
      (await t.call('POST', '/api/site/undo', { token: owner, body: { baseVersion: 0 } })).json,
    ).toEqual({ status: 'error', message: siteMsg.nothingToUndo })

    const edited = clone(defaultContent)
    edited.about.lead = 'A new headline.'
    const saved = await save(t, owner, 0, edited)
    const v1 = saved.json.data.version as number
    expect(saved.json.data.nextUndo).toMatchObject({ version: v1, changed: ['about'] })

    const undo = await t.call('POST', '/api/site/undo', { token: owner, body: { baseVersion: v1 } })
    expect(undo.status).toBe(200)
    expect(undo.json.data.version).toBeGreaterThan(v1)
    expect(undo.json.data.changed).toEqual(['about'])
    expect(undo.json.data.lastChange).toMatchObject({ kind: 'undo' })
    const pub = (await t.call('GET', '/api/public/site')).json.data.site
    expect(pub.about.lead).toBe(defaultContent.about.lead)

    // Back at the defaults: an undo does not re-apply the change it took back.
    expect(undo.json.data).toMatchObject({ canUndo: false, nextUndo: null })
    const again = await t.call('POST', '/api/site/undo', {
      token: owner,
      body: { baseVersion: undo.json.data.version },
    })
    expect([again.status, again.json.message]).toEqual([400, siteMsg.nothingToUndo])
    expect((await current(t, owner)).content.about.lead).toBe(defaultContent.about.lead)
  })

  test('walks back one save a click: v1→v2→v3→v4, undo ×3 gives v3, v2, v1', async () => {
    const lines = ['Line one.', 'Line two.', 'Line three.', 'Line four.']
    let version = 0
    for (const line of lines) {
      const content = clone(defaultContent)
      content.hero.line = line
      version = (await save(t, owner, version, content)).json.data.version
    }
    const seen: string[] = []
    for (let i = 0; i < 3; i++) {
      const r = await t.call('POST', '/api/site/undo', {
        token: owner,
        body: { baseVersion: version },
      })
      expect(r.status).toBe(200)
      version = r.json.data.version
      seen.push((await t.call('GET', '/api/public/site')).json.data.site.hero.line)
      expect(r.json.data.canUndo).toBe(true)
    }
    expect(seen).toEqual(['Line three.', 'Line two.', 'Line one.'])
    // What is left is the first save, back to the defaults; then nothing.
    const state = await current(t, owner)
    expect(state.nextUndo).toMatchObject({ changed: ['heroLine'] })
    const last = await t.call('POST', '/api/site/undo', {
      token: owner,
      body: { baseVersion: version },
    })
    expect(last.status).toBe(200)
    expect(last.json.data.content.hero.line).toBe(defaultContent.hero.line)
    expect(last.json.data).toMatchObject({ canUndo: false, nextUndo: null })
    const none = await t.call('POST', '/api/site/undo', {
      token: owner,
      body: { baseVersion: last.json.data.version },
    })
    expect([none.status, none.json.message]).toEqual([400, siteMsg.nothingToUndo])

    // A save after undos is undone first; the walk then goes on from where the undos left it.
    const two = clone(defaultContent)
    two.hero.line = 'Line two, again.'
    version = (await save(t, owner, last.json.data.version, two)).json.data.version
    const three = clone(defaultContent)
    three.hero.line = 'Line three, again.'
    version = (await save(t, owner, version, three)).json.data.version
    const back: string[] = []
    for (;;) {
      const r = await t.call('POST', '/api/site/undo', {
        token: owner,
        body: { baseVersion: version },
      })
      if (r.status !== 200) break
      version = r.json.data.version
      back.push(r.json.data.content.hero.line)
    }
    expect(back).toEqual(['Line two, again.', defaultContent.hero.line])
  })

  test('an undo from an older version is refused (409)', async () => {
    const edited = clone(defaultContent)
    edited.about.mission = ''
    await save(t, owner, 0, edited)
    const r = await t.call('POST', '/api/site/undo', { token: owner, body: { baseVersion: 0 } })
    expect(r.status).toBe(409)
  })
})
