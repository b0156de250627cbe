// Property: parallel writes that collide on a unique e-mail or username never answer 5xx; one
// wins and every other gets 409 naming the field, whatever the case and the number of writers.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { startTestApp, type TestApp } from '../../testkit/test-app.ts'

let t: TestApp
let token: string
beforeAll(async () => {
  t = await startTestApp()
  token = await t.login()
}, 120_000)
afterAll(() => t?.stop(), 60_000)

const name = fc.stringMatching(/^[a-z][a-z0-9_]{2,14}$/)
const caseOf = (text: string, upper: boolean[]) =>
  [...text].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('')
const clash = fc.constantFrom('email', 'username') as fc.Arbitrary<'email' | 'username'>
const runs = Number(process.env.RACE_RUNS ?? 12)

async function clear() {
  await t.app.database.sql`delete from admins where role = 'admin'`
}

test('parallel creates on one e-mail or username: one 201, the rest 409 with the field', async () => {
  await fc.assert(
    fc.asyncProperty(
      name,
      clash,
      fc.integer({ min: 2, max: 6 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
      async (base, field, writers, upper) => {
        await clear()
        const answers = await Promise.all(
          Array.from({ length: writers }, (_, i) => {
            const shared = caseOf(
              base,
              upper.map((u, j) => u !== (j === i)),
            )
            const body =
              field === 'email'
                ? { username: `${base.slice(0, 10)}_${i}`, email: `${shared}@race.test` }
                : { username: shared, email: `${base}${i}@race.test` }
            return t.call('POST', '/api/admins', {
              token,
              body: { ...body, password: 'secret-12' },
            })
          }),
        )
        const statuses = answers.map((a) => a.status).sort()
        expect(statuses).toEqual([201, ...Array(writers - 1).fill(409)])
        for (const a of answers.filter((x) => x.status === 409)) expect(a.json.field).toBe(field)
      },
    ),
    { numRuns: runs },
  )
}, 300_000)

test('parallel edits of two admins onto one e-mail or username: one 200, one 409', async () => {
  await fc.assert(
    fc.asyncProperty(name, clash, async (base, field) => {
      await clear()
      const ids: string[] = []
      for (const n of [1, 2]) {
        const r = await t.call('POST', '/api/admins', {
          token,
          body: {
            username: `${base.slice(0, 10)}_${n}`,
            email: `e${n}${base}@race.test`,
            password: 'secret-12',
          },
        })
        ids.push(r.json.data.admin._id)
      }
      const target =
        field === 'email'
          ? { email: `both${base}@race.test` }
          : { username: `both_${base.slice(0, 10)}` }
      const answers = await Promise.all(
        ids.map((id) => t.call('PATCH', `/api/admins/${id}`, { token, body: target })),
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      expect(answers.find((a) => a.status === 409)?.json.field).toBe(field)
    }),
    { numRuns: runs },
  )
}, 300_000)
