// What the "Share privately…" dialog says about a review link, and the day its date choice
// means: pure, so the wording is tested without a browser (docs/dashboard.md, Share privately).
import type { ReviewLinkView } from '@contract/review-link.ts'
import { formatDate } from '../lib/format.ts'

type LinkDates = Pick<ReviewLinkView, 'expiresAt' | 'state'>

/** 'Revoked', 'Expired', 'Never expires' or 'Expires <date>'. */
export function expiryText(link: LinkDates, timeZone?: string): string {
  if (link.state === 'revoked') return 'Revoked'
  if (link.state === 'expired') return 'Expired'
  if (link.expiresAt === null) return 'Never expires'
  return `Expires ${formatDate(link.expiresAt, timeZone)}`
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * When the link was last opened, the way people say it while it is recent ('just now',
 * '5 min ago', '3 h ago'); from a day on the date itself, which is what one compares then.
 */
export function lastOpenedText(lastOpenedAt: string | null, now: Date, timeZone?: string): string {
  if (lastOpenedAt === null) return 'Never opened'
  const at = Date.parse(lastOpenedAt)
  if (Number.isNaN(at)) return 'Never opened'
  const ago = now.getTime() - at
  // A clock a little ahead of this one's reads as now, not as the future.
  if (ago < MINUTE) return 'Last opened just now'
  if (ago < HOUR) return `Last opened ${Math.floor(ago / MINUTE)} min ago`
  if (ago < DAY) return `Last opened ${Math.floor(ago / HOUR)} h ago`
  return `Last opened ${formatDate(at, timeZone)}`
}

/** 'Opened 1 time', 'Opened 3 times'. */
export const openCountText = (count: number) => `Opened ${count} ${count === 1 ? 'time' : 'times'}`

const pad = (n: number) => String(n).padStart(2, '0')

/** A day as a date input writes it ('2026-11-27'), in the browser's time zone. */
export const dayValue = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`

/**
 * A link given a day lasts until that day ends where the admin is: the last millisecond of the
 * day a date input names ('2026-12-24'), in the browser's time zone. Null for anything else.
 */
export function endOfDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const end = new Date(year, month - 1, day, 23, 59, 59, 999)
  // new Date rolls 2026-02-31 over into March: that is no day.
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day) {
    return null
  }
  return end
}

/** The days the date input offers: today through the last day whose end is still in reach. */
export function dayRange(now: Date, maxDays: number): { min: string; max: string } {
  const last = new Date(now.getFullYear(), now.getMonth(), now.getDate() + maxDays - 1)
  return { min: dayValue(now), max: dayValue(last) }
}
