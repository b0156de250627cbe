import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../testkit/browser.ts'
import { type E2EServer, startServer } from '../testkit/server.ts'
import { openPage } from './support/browser.ts'

let server: E2EServer
let browser: Browser
beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
}, 60_000)

test('the built server answers in Chromium with its security headers', async () => {
  const { page } = await openPage(browser)
  const res = await page.goto(`${server.url}/`)
  expect(res?.status()).toBe(200)
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(await page.title()).not.toBe('')
})

test('the configured admin signs in through the API', async () => {
  const { user, token } = await server.apiLogin()
  expect(user.role).toBe('super_admin')
  expect(token.length).toBeGreaterThan(30)
})

test('the built app serves /favicon.ico as the committed icon, not its HTML', async () => {
  const res = await fetch(`${server.url}/favicon.ico`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/x-icon')
  const committed = await Bun.file(`${import.meta.dir}/../web/public/favicon.ico`).bytes()
  expect(new Uint8Array(await res.arrayBuffer())).toEqual(committed)
})
