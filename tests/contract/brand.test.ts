// One name (docs/decisions/017-one-brand-module.md): the server's mail comes from the studio by
// name, and the page the server shows before the web app is built names it too.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createStaticHandler } from '../../src/pages/static.ts'
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

test("the reset mail is from 'Halftone Studio <no-reply@…>' on the site's host", async () => {
  const r = await t.call('POST', '/api/auth/reset-password/request', {
    body: { email: ADMIN_EMAIL },
  })
  expect(r.status).toBe(200)
  await t.app.services.auth.settle()
  const dir = join(t.dataDir, 'outbox')
  const mails = readdirSync(dir).map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')))
  expect(mails.length).toBe(1)
  // PUBLIC_URL of the test app is https://studio.test.
  expect(mails[0].from).toBe('Halftone Studio <no-reply@studio.test>')
})

test('the page shown before the web app is built names the studio', async () => {
  const serve = createStaticHandler('/nonexistent-web-dist')
  const html = await (await serve(new Request('http://localhost/'))).text()
  expect(html).toContain('<title>Halftone Studio</title>')
  expect(html).toContain('<h1>Halftone Studio</h1>')
})
