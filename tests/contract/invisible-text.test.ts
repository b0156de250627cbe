// Text that reads differently from what it holds: a right-to-left override (U+202E) turns
// "Doc‮fdp.exe" into "Docexe.pdf" on screen, a line separator (U+2028) breaks a one-line field
// where no break is seen. Every text field refuses them with its label in the message; what real
// text needs (joiners in emoji and in Persian, direction marks, flags' tag characters, variation
// selectors) still passes and comes back unchanged.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { formatCharsMessage } from '../../src/contract/text.ts'
import { defaultContent } from '../../src/site/defaults.ts'
import { resetSite, save } from '../../testkit/site.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'
import { type Fixtures, fixtures, form } from '../../testkit/videos.ts'

let t: TestApp
let owner: string
let f: Fixtures
beforeAll(async () => {
  t = await startTestApp()
  f = await fixtures()
}, 120_000)
afterAll(() => t?.stop(), 60_000)
beforeEach(async () => {
  await t.reset()
  await resetSite(t)
  owner = await t.login()
})

const RLO = '\u202E'
const FAMILY = '👨‍👩‍👧‍👦'
const ENGLAND = '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'
const HEART = '❤️'
const PERSIAN = 'می‌خواهم' // a zero-width non-joiner inside
const HEBREW_MIXED = 'שלום\u200F 2024' // a right-to-left mark

async function upload(title: string) {
  const res = await t.fetch('/api/videos/upload', {
    method: 'POST',
    headers: { authorization: `Bearer ${owner}` },
    body: form({ title, description: 'd' }, { video: f.mp4, thumbnail: f.jpg, brandLogo: f.png }),
  })
  return { status: res.status, json: (await res.json()) as { data: { video: { _id: string } } } }
}

describe('refused with the field’s label', () => {
  test('video titles and descriptions, admin names and addresses, sign-in', async () => {
    const created = await upload('Plain title')
    expect(created.status).toBe(201)
    const id = created.json.data.video._id
    const cases: [string, string, Record<string, unknown>, string, string][] = [
      ['POST', '/api/videos/check-title', { title: `Invoice${RLO}fdp.exe` }, 'title', 'Title'],
      ['PATCH', `/api/videos/${id}`, { title: `Two\u2028lines` }, 'title', 'Title'],
      ['PATCH', `/api/videos/${id}`, { description: `One\u2029Two` }, 'description', 'Description'],
      [
        'PATCH',
        `/api/videos/${id}`,
        { description: `Hidden\u2066isolate` },
        'description',
        'Description',
      ],
      [
        'POST',
        '/api/admins',
        { username: `ad${RLO}min`, email: 'n@studio.test', password: 'secret-12' },
        'username',
        'Username',
      ],
      [
        'POST',
        '/api/admins',
        { username: 'new_one', email: `n${RLO}@studio.test`, password: 'secret-12' },
        'email',
        'Email',
      ],
      [
        'POST',
        '/api/auth/login',
        { email: `owner@studio.test\u200B`, password: 'x' },
        'email',
        'Email',
      ],
    ]
    for (const [method, path, body, field, label] of cases) {
      const r = await t.call(method, path, { token: owner, body })
      expect([path, r.status, r.json.field, r.json.message]).toEqual([
        path,
        400,
        field,
        formatCharsMessage(label),
      ])
    }
    // A multipart creation goes through the same schema, and nothing is made.
    const refused = await upload(`Clip${RLO}4pm.exe`)
    expect(refused.status).toBe(400)
    const list = await t.call('GET', '/api/videos', { token: owner })
    expect(list.json.data.videos.map((v: { title: string }) => v.title)).toEqual(['Plain title'])
  }, 60_000)

  test('every text field of the site, one line or many', async () => {
    const cases: [string, (c: typeof defaultContent) => void][] = [
      [
        'Hero line',
        (c) => {
          c.hero.line = `Sound${RLO}first`
        },
      ],
      [
        'Service',
        (c) => {
          c.hero.services[0] = `Mixing\u2028Mastering`
        },
      ],
      [
        'Client name',
        (c) => {
          c.clients[0]!.name = `Ni${RLO}ke`
        },
      ],
      [
        'About headline',
        (c) => {
          c.about.lead = `Lead\u2067`
        },
      ],
      [
        'Paragraph',
        (c) => {
          c.about.paragraphs[0] = `One\u2029Two`
        },
      ],
      [
        'Mission',
        (c) => {
          c.about.mission = `Ours${RLO}`
        },
      ],
      [
        'Contact intro',
        (c) => {
          c.contact.intro = `Call\uFEFFus`
        },
      ],
      [
        'Name',
        (c) => {
          c.contact.team[0]!.name = `Ana${RLO}`
        },
      ],
      [
        'Job title',
        (c) => {
          c.contact.team[0]!.title = `Producer\u202A`
        },
      ],
    ]
    for (const [label, spoil] of cases) {
      const content = structuredClone(defaultContent)
      spoil(content)
      const r = await save(t, owner, 0, content)
      expect([label, r.status, r.json.message]).toEqual([label, 400, formatCharsMessage(label)])
    }
    expect((await t.call('GET', '/api/site', { token: owner })).json.data.version).toBe(0)
  })
})

describe('what real text needs still passes', () => {
  test('emoji sequences, flags, joiners and direction marks, kept as typed', async () => {
    const content = structuredClone(defaultContent)
    content.hero.line = `Sound ${FAMILY} ${HEART} ${ENGLAND}`
    content.clients[0]!.name = PERSIAN
    content.about.paragraphs[0] = `${HEBREW_MIXED}\nSecond line`
    const r = await save(t, owner, 0, content)
    expect(r.status).toBe(200)
    const site = (await t.call('GET', '/api/public/site')).json.data.site
    expect(site.hero.line).toBe(`Sound ${FAMILY} ${HEART} ${ENGLAND}`)
    expect(site.clients[0].name).toBe(PERSIAN)
    expect(site.about.paragraphs[0]).toBe(`${HEBREW_MIXED}\nSecond line`)

    const title = `Family ${FAMILY} ${HEART}`
    const check = await t.call('POST', '/api/videos/check-title', { token: owner, body: { title } })
    expect(check.status).toBe(200)
    const created = await upload(title)
    expect(created.status).toBe(201)
    const list = await t.call('GET', '/api/videos', { token: owner })
    expect(list.json.data.videos[0].title).toBe(title)
  }, 60_000)
})
