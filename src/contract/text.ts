// One rule for every text field a person types: no control characters, and no invisible
// formatting characters that change how the text around them reads. NUL is refused by
// PostgreSQL (a query error, not a validation error), and no form can type the other controls,
// so they only arrive from scripts probing for a crash. Multi-line fields keep tab, line feed and
// return.
// Format characters (\p{Cf}) and the line and paragraph separators draw nothing, yet a
// right-to-left override (U+202E) shows "Doc‮fdp.exe" as "Docexe.pdf", and U+2028 breaks a line
// where none is seen. Refused: the direction overrides, embeddings and isolates, and every other
// format character but the few real text needs: the zero-width joiner and non-joiner (emoji
// sequences, Indic and Persian scripts), the direction marks (mixed Hebrew or Arabic and Latin),
// the soft hyphen, and the tag characters of subdivision flags (🏴 England). Variation selectors
// (emoji presentation) are combining marks, not format characters, and pass.
import type { z } from 'zod'

const ANY_CONTROL = /\p{Cc}/u
const CONTROL_BUT_LAYOUT = /[^\P{Cc}\t\n\r]/u
const REFUSED_FORMAT = String.raw`(?![\u00AD\u061C\u200C-\u200F\u{E0020}-\u{E007F}])\p{Cf}`
const INVISIBLE_FORMAT = new RegExp(String.raw`[\p{Zl}\p{Zp}]|${REFUSED_FORMAT}`, 'u')

export const controlCharsMessage = (label: string) => `${label} must not contain control characters`
export const formatCharsMessage = (label: string) =>
  `${label} must not contain invisible formatting characters (such as direction overrides or line separators)`

/** Whether `value` holds a character the invisible-format rule refuses. */
export const hasInvisibleFormat = (value: string) => INVISIBLE_FORMAT.test(value)

/** `value` without the format characters the rule refuses (text that never met the rule). */
export const withoutRefusedFormat = (value: string) =>
  value.replace(new RegExp(REFUSED_FORMAT, 'gu'), () => '')

/** Adds the rules to a string schema, as its next checks (place them first for their messages to win). */
export function plainText<T extends z.ZodString>(
  schema: T,
  label: string,
  opts: { multiline?: boolean } = {},
): T {
  const pattern = opts.multiline ? CONTROL_BUT_LAYOUT : ANY_CONTROL
  return schema
    .refine((v) => !pattern.test(v), controlCharsMessage(label))
    .refine((v) => !INVISIBLE_FORMAT.test(v), formatCharsMessage(label)) as T
}
