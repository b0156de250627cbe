// Admin Management in Chromium against the real built server: validation, 409 field errors,
// create, optimistic edit (and its roll-back), delete, accessible dialogs, small screens.
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { ADMIN_EMAIL, type E2EServer, startServer } from '../testkit/server.ts'
import { openSignedInPage } from './support/browser.ts'

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

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as { data: Record<string, unknown> }
}

// Each test starts with the owner as the only admin and makes the others it needs.
beforeEach(async () => {
  const { data } = await api('GET', '/api/admins')
  for (const admin of data.admins as { _id: string }[]) {
    if (admin._id !== session.user._id) await api('DELETE', `/api/admins/${admin._id}`)
  }
})

/** Chrome logs every 4xx answer as a console error; the 409 cases expect one. */
const expected409 = [/status of 409/]

const signedIn = (opts: { width?: number; height?: number; allow?: RegExp[] } = {}) =>
  openSignedInPage(browser, server.url, session, opts)

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

test('create: every validation message, a duplicate e-mail on its field, then success', async () => {
  const { page } = await signedIn({ allow: expected409 })
  await page.goto('/dashboard/admins')
  await page.getByRole('heading', { name: 'Admins List' }).waitFor()
  await page.getByText('Manage your admin users').waitFor()
  const add = page.getByRole('button', { name: 'Add New Admin' })
  await add.click()
  const dialog = page.getByRole('dialog', { name: 'Create New Admin' })
  await dialog.waitFor()
  expect(await dialog.getByLabel('Username').evaluate((el) => el === document.activeElement)).toBe(
    true,
  )

  // Focus stays inside the dialog.
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab')
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)

  const create = dialog.getByRole('button', { name: 'Create Admin' })
  await create.click()
  for (const message of [
    'Username is required',
    'Email is required',
    'Password is required',
    'Please confirm password',
  ]) {
    await dialog.getByText(message, { exact: true }).waitFor()
  }
  await dialog.getByLabel('Username').fill('ab')
  await dialog.getByLabel('Email').fill('nope')
  await dialog.getByLabel('Password', { exact: true }).fill('12345')
  await dialog.getByLabel('Confirm Password').fill('54321')
  await create.click()
  await dialog.getByText('Username must be at least 3 characters').waitFor()
  await dialog.getByText('Invalid email address').waitFor()
  await dialog.getByText('Password must be at least 6 characters').waitFor()
  await dialog.getByText('Passwords do not match').waitFor()
  await dialog.getByLabel('Username').fill('bad name!')
  await create.click()
  await dialog.getByText('Username can only contain letters, numbers and underscore').waitFor()

  // The owner's e-mail is taken: the message shows on the field and as a toast.
  await dialog.getByLabel('Username').fill('producer_1')
  await dialog.getByLabel('Email').fill(ADMIN_EMAIL.toUpperCase())
  await dialog.getByLabel('Password', { exact: true }).fill('producer-pass')
  await dialog.getByLabel('Confirm Password').fill('producer-pass')
  await create.click()
  await dialog.getByText('Email already exists').waitFor()
  await page
    .getByRole('status')
    .or(page.locator('[data-sonner-toast]'))
    .getByText('Email already exists')
    .first()
    .waitFor()
  expect(await dialog.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')

  await dialog.getByLabel('Email').fill('producer@studio.test')
  await create.click()
  await page.getByText('Admin created successfully').waitFor()
  await dialog.waitFor({ state: 'detached' })
  await row(page, 'producer@studio.test').waitFor()
  // Focus returns to the button that opened the dialog.
  expect(await add.evaluate((el) => el === document.activeElement)).toBe(true)
}, 60_000)

test('edit is optimistic and rolls back on error; delete asks first', async () => {
  await api('POST', '/api/admins', {
    username: 'producer_1',
    email: 'producer@studio.test',
    password: 'producer-pass',
  })
  const { page } = await signedIn({ allow: expected409 })
  await page.goto('/dashboard/admins')
  await row(page, 'producer@studio.test').waitFor()

  // A taken username: the row shows the new name at once, then goes back.
  await page.getByRole('button', { name: 'Edit producer_1' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit Admin' })
  expect(await dialog.getByLabel('Username').inputValue()).toBe('producer_1')
  let slow: () => void = () => {}
  await page.route('**/trpc/admins.update**', async (route) => {
    await new Promise<void>((resolve) => {
      slow = resolve
    })
    await route.continue()
  })
  await dialog.getByLabel('Username').fill(session.user.username ?? 'owner')
  await dialog.getByRole('button', { name: 'Update Admin' }).click()
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll('tr')].filter((tr) => tr.textContent?.includes(name)).length ===
      2,
    session.user.username ?? 'owner',
  )
  slow()
  await dialog.getByText('Username already exists').waitFor()
  await row(page, 'producer_1').waitFor()
  await page.unroute('**/trpc/admins.update**')

  // A good edit with only non-empty fields sent (the password stays blank).
  const sent: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('admins.update')) sent.push(r.postData() ?? '')
  })
  await dialog.getByLabel('Username').fill('producer_2')
  await dialog.getByRole('button', { name: 'Update Admin' }).click()
  await page.getByText('Admin updated successfully').waitFor()
  await dialog.waitFor({ state: 'detached' })
  await row(page, 'producer_2').waitFor()
  expect(sent.at(-1)).not.toContain('password')

  await page.getByRole('button', { name: 'Delete producer_2' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete Admin' })
  await confirm
    .getByText('Are you sure you want to delete this admin? This action cannot be undone.')
    .waitFor()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await confirm.waitFor({ state: 'detached' })
  await page.getByRole('button', { name: 'Delete producer_2' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await page.getByText('Admin deleted successfully').waitFor()
  await row(page, 'producer_2').waitFor({ state: 'detached' })
}, 60_000)

test('small screens: admins are cards, without sideways scrolling', async () => {
  const { page } = await signedIn({ width: 375, height: 740 })
  await page.goto('/dashboard/admins')
  await page.getByRole('heading', { name: 'Admins List' }).waitFor()
  expect(await page.getByRole('table').count()).toBe(0)
  await page.getByRole('listitem').filter({ hasText: ADMIN_EMAIL }).waitFor()
  await page.getByRole('button', { name: 'Add New Admin' }).waitFor()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
}, 30_000)
