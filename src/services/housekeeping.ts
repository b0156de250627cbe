// What the database keeps bounded without anyone asking: site images uploaded but never saved
// (after a day), the activity log's retention (a year, 100,000 entries), and the bucket's public
// copies checked against the bucket itself (docs/decisions/087). Run before the
// first request and then hourly, beside the uploads' own clean-up (src/uploads/expiry.ts).
import type { Services } from './index.ts'

const EVERY_MS = 60 * 60 * 1000

/** One round; a failure of one task is logged and does not stop the other. */
export async function housekeep(
  services: Pick<Services, 'site' | 'activity' | 'publicCopies'>,
): Promise<void> {
  const tasks: [string, () => Promise<unknown>][] = [
    ['site images', () => services.site.cleanUp()],
    ['activity retention', () => services.activity.prune()],
    ['public copies', () => services.publicCopies.reconcile({ copy: false })],
  ]
  for (const [name, run] of tasks) {
    await run().catch((error) => console.error(`[housekeeping] ${name} failed`, error))
  }
}

/** Runs a round now, then every `everyMs` (hourly) without keeping the process alive; returns the stop. */
export async function startHousekeeping(
  services: Pick<Services, 'site' | 'activity' | 'publicCopies'>,
  everyMs = EVERY_MS,
): Promise<() => void> {
  await housekeep(services)
  const timer = setInterval(() => void housekeep(services), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
