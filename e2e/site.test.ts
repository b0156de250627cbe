// The Site and Activity pages in Chromium against the real built server
// (docs/decisions/037-site-content-as-versions.md,
// docs/decisions/042-activity-log-one-middleware-one-table.md): edit the hero line and a contact
// and see them on the public page, reorder clients by mouse and by keyboard, undo, add a client
// with an uploaded logo, read and filter the activity log; axe on both pages, screenshots at 1280
// and 375 px in light and dark.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { launchBrowser } from '../testkit/browser.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { axeViolations, describeViolations } from './support/axe.ts'
import { openPage, openSignedInPage } from './support/browser.ts'
import { saveScreenshot, type Theme } from './support/screenshots.ts'
import { storeTheme } from './support/theme.ts'

let server: E2EServer
let browser: Browser
let session: { token: string; user: Record<string, string> }

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  session = await server.apiLogin()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

const TIMEOUT = 120_000
const signedIn = (width: number, who = session) =>
  openSignedInPage(browser, server.url, who, { width, height: width < 768 ? 800 : 900 })

async function openSite(page: Page) {
  await page.goto('/dashboard/site')
  await page.getByRole('heading', { level: 1, name: 'Site' }).waitFor()
  await page.getByLabel('Hero line').waitFor()
}

async function saveSite(page: Page) {
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.getByText('All changes saved').waitFor()
}

/** The client names in the editor, in order. */
const editorClients = (page: Page) =>
  page
    .getByRole('list', { name: /^Clients/ })
    .getByLabel(/^Client \d+ name$/)
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))

/** The client logos' alt texts on the public page, in order. */
async function publicClients(page: Page) {
  await page.goto('/')
  await page.locator('#clients-heading + ul img').first().waitFor()
  return page
    .locator('#clients-heading + ul img')
    .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))
}

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  // biome-ignore lint/suspicious/noExplicitAny: the site's content, read and sent back as is
  return ((await res.json()) as { data: any }).data
}

/** A change of the hero line and a contact through the API, then its undo: what the log shows. */
async function changeAndUndo(tag: string) {
  const state = await api('GET', '/api/site')
  const content = structuredClone(state.content)
  content.hero.line = `Logged change ${tag}.`
  content.contact.team[0].email = `logged-${tag}@studio.example`
  const saved = await api('PUT', '/api/site', { baseVersion: state.version, content })
  await api('POST', '/api/site/undo', { baseVersion: saved.version })
}

async function expectNoAxeViolations(page: Page) {
  expect(describeViolations(await axeViolations(page))).toBe('')
}

async function centre(page: Page, name: string) {
  const box = await page.getByRole('button', { name, exact: true }).boundingBox()
  if (!box) throw new Error(`no ${name}`)
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

for (const width of [1280, 375]) {
  describe(`at ${width} px`, () => {
    test(
      'edit the hero line and a contact; the public page shows them with tel:/mailto: links',
      async () => {
        const { page, context } = await signedIn(width)
        await openSite(page)
        const line = `Sound leads, pictures follow at ${width}.`
        await page.getByLabel('Hero line').fill(line)
        await page
          .getByLabel('Phone (member 1)')
          .fill(`+1 (212) 555-0${width === 1280 ? '128' : '375'}`)
        await page.getByLabel('Email (member 1)').fill(`producer${width}@studio.example`)
        // A bad e-mail is caught with its message before anything is sent.
        await page.getByLabel('Email (member 2)').fill('jonah@')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await page.getByText('Invalid email address').waitFor()
        await page.getByLabel('Email (member 2)').fill('jonah@halftone.example')
        await saveSite(page)
        await page.getByText(/^Last change: hero line, contacts — by owner/).waitFor()

        await page.goto('/')
        await expect(page.locator('#hero-heading').textContent()).resolves.toBe(line)
        const footer = page.locator('footer#contact')
        const digits = width === 1280 ? '128' : '375'
        await footer.locator(`a[href="tel:+12125550${digits}"]`).waitFor()
        await footer.locator(`a[href="mailto:producer${width}@studio.example"]`).waitFor()
        // A reload reads the new content again (the cached answer changed with the save).
        await page.reload()
        await expect(page.locator('#hero-heading').textContent()).resolves.toBe(line)
        await context.close()
      },
      TIMEOUT,
    )

    test(
      'reorder clients by mouse and by keyboard, save, then undo',
      async () => {
        const { page, context } = await signedIn(width)
        await openSite(page)
        const before = await editorClients(page)
        const [first = '', second = '', third = ''] = before
        // Mouse: drag the first client's handle onto the second's (both in mid-screen, away from
        // the edges where dnd-kit scrolls the page).
        await page
          .getByRole('button', { name: `Move ${first}`, exact: true })
          .evaluate((el) => el.scrollIntoView({ block: 'center' }))
        const from = await centre(page, `Move ${first}`)
        const to = await centre(page, `Move ${second}`)
        await page.mouse.move(from.x, from.y)
        await page.mouse.down()
        await page.mouse.move(from.x, from.y + 10, { steps: 4 })
        await page.mouse.move(to.x, to.y + 8, { steps: 12 })
        await page.waitForTimeout(100)
        await page.mouse.up()
        await expect(editorClients(page)).resolves.toEqual([
          second,
          first,
          third,
          ...before.slice(3),
        ])
        // Keyboard: lift the sixth with Space, two places up, drop with Space.
        const afterMouse = await editorClients(page)
        // Let the drop's animation end: the keyboard moves by the rows' measured places.
        await page.waitForTimeout(500)
        const sixth = afterMouse[5]!
        await page.getByRole('button', { name: `Move ${sixth}`, exact: true }).focus()
        // dnd-kit measures between steps: a person's pace, not a script's.
        for (const key of ['Space', 'ArrowUp', 'ArrowUp', 'Space']) {
          await page.keyboard.press(key)
          await page.waitForTimeout(300)
        }
        const expected = [...afterMouse]
        expected.splice(5, 1)
        expected.splice(3, 0, sixth)
        await expect(editorClients(page)).resolves.toEqual(expected)
        await saveSite(page)

        const publicPage = await context.newPage()
        expect(await publicClients(publicPage)).toEqual(expected)

        // Undo brings the order back, as a new version; the next undo would go one change further.
        await page.getByRole('button', { name: 'Undo last change' }).click()
        const dialog = page.getByRole('alertdialog', { name: 'Undo last change' })
        await dialog.getByRole('button', { name: 'Undo', exact: true }).click()
        await page.getByText('Last change undone').waitFor()
        await expect(editorClients(page)).resolves.toEqual(before)
        await page.getByText(/^Last change: undo of clients/).waitFor()
        expect(await publicClients(publicPage)).toEqual(before)
        await context.close()
      },
      TIMEOUT,
    )

    test(
      'the Activity page lists what was just done and filters it; axe and screenshots, light and dark',
      async () => {
        await changeAndUndo(`activity-${width}`)
        for (const theme of ['light', 'dark'] as Theme[]) {
          const { page, context } = await signedIn(width)
          await storeTheme(context, theme)
          await openSite(page)
          await expectNoAxeViolations(page)
          await saveScreenshot(page, 'site', { theme, fullPage: true })

          await page.goto('/dashboard/activity')
          await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor()
          const entries = width >= 1024 ? page.getByRole('row') : page.getByRole('listitem')
          const shown = (text: string | RegExp) =>
            page.getByText(text).filter({ visible: true }).first()
          await shown('Changed the site: hero line, contacts').waitFor()
          await shown(/^Signed in$/).waitFor()
          await expectNoAxeViolations(page)
          await saveScreenshot(page, 'activity', { theme })

          // Filter by kind: only the undo entries remain.
          await page.getByLabel('Kind').selectOption({ label: 'Site change undone' })
          await entries
            .filter({ hasText: 'Changed the site' })
            .first()
            .waitFor({ state: 'detached' })
          await shown(/^Undid the last site change/).waitFor()
          await expect(
            entries.filter({ hasText: 'Undid the last site change' }).count(),
          ).resolves.toBeGreaterThan(0)
          // Filter by person too: the owner did them all.
          await page.getByLabel('Person').selectOption({ label: 'owner' })
          await expect(
            entries.filter({ hasText: 'Undid the last site change' }).count(),
          ).resolves.toBeGreaterThan(0)
          await page.getByLabel('Person').selectOption({ label: 'Not signed in' })
          await page.getByText('Nothing matches these filters.').waitFor()
          await context.close()
        }
      },
      TIMEOUT,
    )
  })
}

test(
  'add a client with an uploaded logo; the public page shows it with its name as alt text',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-e2e-'))
    const logo = join(dir, 'studio-logo.png')
    await sharp({ create: { width: 600, height: 240, channels: 4, background: '#f3f0e8' } })
      .png()
      .toFile(logo)
    const { page, context } = await signedIn(1280)
    await openSite(page)
    const count = (await editorClients(page)).length
    await page.getByRole('button', { name: 'Add client' }).click()
    const name = page.getByLabel(`Client ${count + 1} name`)
    await name.fill('Studio Test')
    await page.getByLabel('Studio Test logo').setInputFiles(logo)
    await page
      .getByRole('list', { name: /^Clients/ })
      .getByRole('listitem')
      .last()
      .locator('img')
      .waitFor()
    await saveSite(page)
    const alts = await publicClients(page)
    expect(alts.at(-1)).toBe('Studio Test')
    expect(alts).toHaveLength(count + 1)
    await context.close()
  },
  TIMEOUT,
)

test('a plain admin edits the site but gets “Not allowed” on Activity, with no link to it', async () => {
  const created = await fetch(`${server.url}/api/admins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'editor',
      email: 'editor@studio.test',
      password: 'editor-pass',
    }),
  })
  expect(created.status).toBe(201)
  const editor = await server.apiLogin('editor@studio.test', 'editor-pass')
  const { page, context } = await openSignedInPage(browser, server.url, editor, {
    width: 1280,
    // The page asks the server, which answers 403 for a plain admin.
    allow: [/status of 403/],
  })
  await page.goto('/dashboard')
  const nav = page.getByRole('navigation', { name: 'Dashboard' })
  await nav.getByRole('link', { name: 'Site' }).waitFor()
  expect(await nav.getByRole('link', { name: 'Activity' }).count()).toBe(0)
  await page.goto('/dashboard/activity')
  await page.getByRole('heading', { name: 'Not allowed' }).waitFor()
  await page.getByText('Only a super admin can see the activity log.').waitFor()
  await context.close()
})

test('the public page still draws when the content cannot be loaded', async () => {
  const { page, context } = await openPage(browser, {
    baseURL: server.url,
    allow: [/site content|status of 503/],
  })
  await page.route('**/api/public/site', (route) => route.fulfill({ status: 503, body: '' }))
  await page.goto('/')
  await page.getByRole('heading', { name: 'Selected Work' }).waitFor({ timeout: 15_000 })
  await context.close()
})
