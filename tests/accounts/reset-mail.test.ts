// The reset mail takes stored text (the admin's address) and the link as they are: an address
// holding a string replacement's patterns (`$&`, `` $` ``, `$'`, `$$`, all allowed in an e-mail's
// local part) reaches the outbox exactly as stored, and the mail's text is the template around
// the link, nothing copied or dropped. Real app and database, the outbox as the mailer writes it.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { resetPasswordMail } from '../../src/accounts/reset-mail.ts'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

const ADDRESS = "o$&w$`n$'e$$r@studio.test"

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

const expectedText = (link: string) =>
  [
    'Someone asked to reset the password of your studio dashboard account.',
    '',
    `Open this link within 60 minutes to choose a new password: ${link}`,
    '',
    'If it was not you, ignore this mail: your password stays as it is.',
  ].join('\n')

test('the mail carries the address and the link exactly, whatever they hold', () => {
  const link = "https://studio.test/auth/reset-password/a$&b$`c$'d$$e"
  const mail = resetPasswordMail(ADDRESS, link)
  expect(mail).toEqual({
    to: ADDRESS,
    link,
    subject: 'Reset your password',
    text: expectedText(link),
  })
})

test('a reset for a stored address with those patterns reaches the outbox unchanged', async () => {
  const owner = await t.login()
  const made = await t.call('POST', '/api/admins', {
    token: owner,
    body: { username: 'pattern_person', email: ADDRESS, password: 'secret-12' },
  })
  expect(made.status).toBe(201)
  expect(made.json.data.admin.email).toBe(ADDRESS)
  const asked = await t.call('POST', '/api/auth/reset-password/request', {
    body: { email: ADDRESS },
  })
  expect(asked.status).toBe(200)
  await t.app.services.auth.settle()
  const dir = join(t.dataDir, 'outbox')
  const mails = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
  expect(mails).toHaveLength(1)
  const [mail] = mails
  expect(mail.to).toBe(ADDRESS)
  expect(mail.link).toMatch(/^https:\/\/studio\.test\/auth\/reset-password\/[A-Za-z0-9_-]+$/)
  expect(mail.text).toBe(expectedText(mail.link))
})
