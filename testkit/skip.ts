// A test this machine cannot run is skipped, never passed by returning early, and says why: the
// reason ends its name, so bun's `(skip)` line carries it and `bun run test` lists it at the end.
import { describe, test } from 'bun:test'
import { SKIPPED } from '../scripts/skip-marker.ts'

const named = (name: string, reason: string | false | null | undefined) =>
  // The reason's end is its first ']'.
  reason ? `${name}${SKIPPED}${reason.replaceAll(']', ')')}]` : name

/**
 * `test.skipIf`, from the reason instead of a flag: a non-empty reason skips the test and is
 * appended to its name; `undefined`, `null`, `false` or `''` run it as usual.
 */
export function testSkipIf(reason: string | false | null | undefined) {
  const base = test.skipIf(Boolean(reason))
  return (
    name: string,
    ...rest: Parameters<typeof base> extends [string, ...infer R] ? R : never
  ) => base(named(name, reason), ...rest)
}

/** `describe.skipIf` with a reason, as `testSkipIf`. */
export function describeSkipIf(reason: string | false | null | undefined) {
  const base = describe.skipIf(Boolean(reason))
  return (name: string, fn: () => void) => base(named(name, reason), fn)
}
