// The sign-in and reset limits on their own, on a real database (the store every server shares):
// growing locks, in-flight caps, bounded state, two servers counting as one, and who the client
// is behind a proxy. tests/accounts/sign-in.test.ts and tests/security.test.ts check the same rules through
// the real app; tests/cluster/rate-limits.test.ts through two real server processes.
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  setSystemTime,
  test,
} from 'bun:test'
import { rateLimits } from '../../db/schema.ts'
import { LimitStore, SWEEP_EVERY_MS } from '../../src/accounts/limit-store.ts'
import { type Attempt, AttemptLimits, type LimitOptions } from '../../src/accounts/rate-limit.ts'
import { SIGN_IN_LIMITS } from '../../src/accounts/sign-in.ts'
import { parseProxyList } from '../../src/config.ts'
import { type Database, openDatabase, runMigrations } from '../../src/db/database.ts'
import { addressGroup, clientAddressResolver } from '../../src/http/client-ip.ts'
import { createTestDatabase, type TestDatabase } from '../../testkit/database.ts'

let testDb: TestDatabase
let database: Database
beforeAll(async () => {
  testDb = await createTestDatabase()
  database = await openDatabase(testDb)
  await runMigrations(database)
}, 120_000)
afterAll(async () => {
  await database?.close()
  await testDb?.drop()
}, 60_000)
beforeEach(async () => {
  await database.db.delete(rateLimits)
})
afterEach(() => {
  setSystemTime()
})

/** The limits as one server holds them: its own store object on the shared database. */
const serverLimits = (options: LimitOptions = SIGN_IN_LIMITS) =>
  new AttemptLimits(new LimitStore(database.db), 'signin', options)

const MIN = 60_000

async function fail(limits: AttemptLimits, email: string, ip: string) {
  const a = await limits.reserve(email, ip)
  if (a.denied) return a
  a.done()
  return undefined
}

describe('sign-in limits', () => {
  test('a pair is locked after 10 failures, for 15 min, then 30, then 60: locks grow', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    setSystemTime(now)
    const limits = serverLimits()
    for (const lockMinutes of [15, 30, 60, 120]) {
      for (let i = 0; i < 10; i++) expect(await fail(limits, 'a@b.co', '10.0.0.1')).toBeUndefined()
      const denied = await limits.reserve('a@b.co', '10.0.0.1')
      // The refusal that starts a lock says so (the activity log records it once).
      expect(denied).toEqual({ denied: 'locked', retryMs: lockMinutes * MIN, started: 'pair' })
      // Still locked just before the end, whatever is tried meanwhile.
      now += lockMinutes * MIN - 1000
      setSystemTime(now)
      const again = await limits.reserve('a@b.co', '10.0.0.1')
      expect(again.denied).toBe('locked')
      expect('started' in again && again.started).toBeFalsy()
      now += 2000
      setSystemTime(now)
    }
  })

  test('the longest lock is 24 h', async () => {
    setSystemTime(Date.parse('2026-01-01T00:00:00Z'))
    const limits = serverLimits({ ...SIGN_IN_LIMITS, maxLockSeconds: 24 * 3600 })
    let now = Date.now()
    let last = 0
    for (let round = 0; round < 9; round++) {
      for (let i = 0; i < 10; i++) await fail(limits, 'a@b.co', '10.0.0.1')
      const denied = await limits.reserve('a@b.co', '10.0.0.1')
      last = denied.denied ? denied.retryMs : 0
      now += last + 1000
      setSystemTime(now)
    }
    expect(last).toBe(24 * 60 * MIN)
  })

  test('a success forgets the pair: failures and the lock history', async () => {
    setSystemTime(Date.parse('2026-01-01T00:00:00Z'))
    const limits = serverLimits()
    for (let i = 0; i < 10; i++) await fail(limits, 'a@b.co', '10.0.0.1')
    expect((await limits.reserve('a@b.co', '10.0.0.1')).denied).toBe('locked')
    setSystemTime(Date.now() + 15 * MIN + 1000)
    const ok = (await limits.reserve('a@b.co', '10.0.0.1')) as Attempt
    await ok.succeeded()
    ok.done()
    for (let i = 0; i < 10; i++) expect(await fail(limits, 'a@b.co', '10.0.0.1')).toBeUndefined()
    // The next lock is the first one again, not a doubled one.
    expect(await limits.reserve('a@b.co', '10.0.0.1')).toEqual({
      denied: 'locked',
      retryMs: 15 * MIN,
      started: 'pair',
    })
  })

  test("a lifted e-mail starts afresh from every address; the address's own count stays", async () => {
    const limits = serverLimits()
    for (let i = 0; i < 10; i++) await fail(limits, 'a@b.co', '10.0.0.1')
    for (let i = 0; i < 10; i++) await fail(limits, 'a@b.co', '10.0.0.2')
    await limits.liftEmail('a@b.co')
    expect((await limits.reserve('a@b.co', '10.0.0.1')).denied).toBeUndefined()
    expect((await limits.reserve('a@b.co', '10.0.0.2')).denied).toBeUndefined()
    // 10.0.0.1 has 11 of its 20 now; 9 more failures on other e-mails lock the address.
    for (let i = 0; i < 9; i++) await fail(limits, `x${i}@b.co`, '10.0.0.1')
    expect((await limits.reserve('other@b.co', '10.0.0.1')).denied).toBe('locked')
  })

  test('checks in flight are capped per address, per e-mail and in all; a finished one frees its place', async () => {
    const limits = serverLimits({
      ...SIGN_IN_LIMITS,
      inFlight: { perAddress: 2, perEmail: 3, total: 5 },
    })
    const a1 = (await limits.reserve('a@b.co', '10.0.0.1')) as Attempt
    const a2 = (await limits.reserve('b@b.co', '10.0.0.1')) as Attempt
    expect(await limits.reserve('c@b.co', '10.0.0.1')).toEqual({ denied: 'busy', retryMs: 1000 })
    a1.done()
    expect((await limits.reserve('c@b.co', '10.0.0.1')).denied).toBeUndefined()
    // Per e-mail, from three other addresses.
    for (const ip of ['10.0.1.1', '10.0.1.2', '10.0.1.3'])
      expect((await limits.reserve('z@b.co', ip)).denied).toBeUndefined()
    expect((await limits.reserve('z@b.co', '10.0.1.4')).denied).toBe('busy')
    // In all: five are running (a2, c, three for z).
    expect((await limits.reserve('y@b.co', '10.0.2.1')).denied).toBe('busy')
    a2.done()
    expect((await limits.reserve('y@b.co', '10.0.2.1')).denied).toBeUndefined()
  })

  test("an attempt knows its address's earlier failures; a withdrawn one counts nothing", async () => {
    const limits = serverLimits()
    const first = (await limits.reserve('a@b.co', '10.0.3.1')) as Attempt
    // Its own reservation, and another running beside it, are not failures.
    const beside = (await limits.reserve('b@b.co', '10.0.3.1')) as Attempt
    expect([first.failures, beside.failures]).toEqual([0, 0])
    first.done()
    beside.done()
    const third = (await limits.reserve('c@b.co', '10.0.3.1')) as Attempt
    expect(third.failures).toBe(2)
    third.done()
    // Withdrawn twelve times over: the pair never reaches its 10 failures.
    for (let i = 0; i < 12; i++) {
      const a = (await limits.reserve('d@b.co', '10.0.3.2')) as Attempt
      expect(a.failures).toBe(0)
      await a.withdrawn()
      a.done()
    }
  })

  test('an IPv6 client is counted by its /64', async () => {
    const limits = serverLimits()
    for (let i = 0; i < 20; i++) await fail(limits, `e${i}@b.co`, `2001:db8:1:2::${i.toString(16)}`)
    expect((await limits.reserve('a@b.co', '2001:db8:1:2:ffff::1')).denied).toBe('locked')
    expect((await limits.reserve('a@b.co', '2001:db8:1:3::1')).denied).toBeUndefined()
  })

  test('state is bounded: a spray of keys is deleted once its window has passed', async () => {
    const short: LimitOptions = {
      ...SIGN_IN_LIMITS,
      windowSeconds: 1,
      lockSeconds: 1,
      lockMemorySeconds: 1,
    }
    let now = Date.parse('2026-01-01T00:00:00Z')
    setSystemTime(now)
    const limits = serverLimits(short)
    for (let i = 0; i < 200; i++) await fail(limits, `spray${i}@b.co`, `10.${i >> 8}.${i & 255}.9`)
    // A pair and an address row each; in-flight places are all given back.
    expect(await limits.stored()).toBe(400)
    // Expired rows stay until the next sweep is due, then the next attempt deletes them.
    now += 2000
    setSystemTime(now)
    await fail(limits, 'late@b.co', '10.9.9.9')
    expect(await limits.stored()).toBe(402)
    now += SWEEP_EVERY_MS
    setSystemTime(now)
    await fail(limits, 'later@b.co', '10.9.9.8')
    expect(await limits.stored()).toBe(2)
  }, 30_000)

  test('two servers on one database count as one: failures, locks and a lift', async () => {
    const a = serverLimits()
    const b = serverLimits()
    for (let i = 0; i < 5; i++) await fail(a, 'a@b.co', '10.0.0.1')
    for (let i = 0; i < 5; i++) await fail(b, 'a@b.co', '10.0.0.1')
    // The 11th, on either server, meets the lock the 10 failures earned.
    expect(await a.reserve('a@b.co', '10.0.0.1')).toEqual({
      denied: 'locked',
      retryMs: 15 * MIN,
      started: 'pair',
    })
    expect((await b.reserve('a@b.co', '10.0.0.1')).denied).toBe('locked')
    // A reset handled by one server lifts the lock for the other.
    await b.liftEmail('a@b.co')
    expect((await a.reserve('a@b.co', '10.0.0.1')).denied).toBeUndefined()
  })
})

describe('client address', () => {
  test('TRUSTED_PROXIES entries are addresses or ranges', () => {
    expect(parseProxyList('10.0.0.0/8, ::1 172.17.0.1')).toEqual({
      ok: ['10.0.0.0/8', '::1', '172.17.0.1'],
    })
    expect(parseProxyList('')).toEqual({ ok: [] })
    expect(parseProxyList('10.0.0.0/33')).toEqual({ bad: '10.0.0.0/33' })
    expect(parseProxyList('proxy.local')).toEqual({ bad: 'proxy.local' })
  })

  test('X-Forwarded-For is read from the right, only behind a named proxy', () => {
    const none = clientAddressResolver([])
    expect(none('10.5.5.5', '198.51.100.7')).toBe('10.5.5.5')
    expect(none('::ffff:10.5.5.5', null)).toBe('10.5.5.5')
    const behind = clientAddressResolver(['10.5.5.0/24', '::1'])
    expect(behind('10.5.5.5', '198.51.100.7')).toBe('198.51.100.7')
    expect(behind('10.5.5.5', '192.0.2.1, 198.51.100.7')).toBe('198.51.100.7')
    expect(behind('::1', '192.0.2.1, 203.0.113.1, 10.5.5.3')).toBe('203.0.113.1')
    expect(behind('10.6.6.6', '198.51.100.7')).toBe('10.6.6.6')
    expect(behind('10.5.5.5', 'not-an-address')).toBe('10.5.5.5')
    expect(behind('10.5.5.5', null)).toBe('10.5.5.5')
  })

  test('addresses group as IPv4 or IPv6 /64', () => {
    expect(addressGroup('192.0.2.1')).toBe('192.0.2.1')
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(addressGroup('2001:DB8:0:12:aa::1')).toBe('2001:db8:0:12::/64')
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })
})
