// One rule for every text field a person types: no control characters. NUL is refused by
// PostgreSQL (a query error, not a validation error), and no form can type the others, so they
// only arrive from scripts probing for a crash. Multi-line fields keep tab, line feed and return.
import type { z } from 'zod'

const ANY_CONTROL = /\p{Cc}/u
const CONTROL_BUT_LAYOUT = /[^\P{Cc}\t\n\r]/u

export const controlCharsMessage = (label: string) => `${label} must not contain control characters`

/** Adds the rule to a string schema, as its next check (place it first for its message to win). */
export function plainText<T extends z.ZodString>(
  schema: T,
  label: string,
  opts: { multiline?: boolean } = {},
): T {
  const pattern = opts.multiline ? CONTROL_BUT_LAYOUT : ANY_CONTROL
  return schema.refine((v) => !pattern.test(v), controlCharsMessage(label))
}
