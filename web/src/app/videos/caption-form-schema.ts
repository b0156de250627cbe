// A caption track as the dashboard's forms take it (a file, a language, a label), checked by the
// shared caption rules so the form says early what the server would refuse. Whether the file is
// well-formed WebVTT or SRT only the server can say (it names the line that is wrong); the last
// helpers find the form field such a refusal belongs to.
import {
  CAPTIONS_MAX_BYTES,
  CAPTIONS_PER_VIDEO_MAX,
  captionLabelSchema,
  captionLanguageSchema,
  captionsMessages,
} from '@contract/captions.ts'
import { z } from 'zod'

/** What a caption file field says it takes, before a file is chosen. */
export const captionRuleSummary = `WebVTT or SRT · up to ${CAPTIONS_MAX_BYTES / 1_000_000} MB`

/**
 * The message for a chosen caption file, or null when it may go. Only its size: whether it is
 * WebVTT or SRT the server reads from its content (a `.txt` of cues is taken), not its name.
 */
export function captionFileError(file: { size: number }) {
  return file.size > CAPTIONS_MAX_BYTES ? captionsMessages.tooLarge : null
}

const isFile = (value: unknown): value is File | undefined =>
  value === undefined || (typeof File !== 'undefined' && value instanceof File)

export const captionRowSchema = z.object({
  file: z.custom<File | undefined>(isFile).superRefine((file, ctx) => {
    const message = file ? captionFileError(file) : captionsMessages.fileRequired
    if (message) ctx.addIssue({ code: 'custom', message })
  }),
  language: captionLanguageSchema,
  label: captionLabelSchema,
})

/** The tracks added on the upload page: at most the per-work limit, each language once. */
export const captionRowsSchema = z
  .array(captionRowSchema)
  .max(CAPTIONS_PER_VIDEO_MAX, captionsMessages.tooMany)
  .superRefine((rows, ctx) => {
    const seen = new Set<string>()
    rows.forEach((row, index) => {
      const key = row.language.toLowerCase()
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          message: captionsMessages.duplicateLanguage,
          path: [index, 'language'],
        })
      }
      seen.add(key)
    })
  })

export type CaptionRowInput = z.input<typeof captionRowSchema>
export type CaptionRowOutput = z.output<typeof captionRowSchema>

/** A new, empty row. */
export const emptyCaptionRow = (): CaptionRowInput => ({ file: undefined, language: '', label: '' })

/** A few common languages offered while typing; any language tag is taken. */
export const suggestedLanguages = ['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'zh'] as const

/** The language's name in English ('fr' → 'French'), a label to start from; '' when unknown. */
export function languageName(tag: string): string {
  const parsed = captionLanguageSchema.safeParse(tag)
  if (!parsed.success) return ''
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(parsed.data)
    return name && name !== parsed.data ? name : ''
  } catch {
    return ''
  }
}

/**
 * The label to show once the language changes from `before` to `after`: the new language's name
 * while the label is empty or still the old language's name (filled in, not typed); null to
 * leave a label the admin typed alone.
 */
export function labelForLanguage(label: string, before: string, after: string): string | null {
  const trimmed = label.trim()
  if (trimmed && trimmed !== languageName(before)) return null
  const next = languageName(after)
  return next === trimmed ? null : next
}

/** The key a caption track's file goes up under, and the field its refusal names. */
export const captionUploadKey = (index: number) => `captions.${index}.file`

/**
 * The caption row and field a refusal names: an upload's key (`captions.2.file`), the create
 * call's path (`captions.2.upload`, `captions.2.language`), or `captions` alone, which is the one
 * track's file when there is one, and the section's when there are several (index null); null
 * for any other field.
 */
export function captionFieldOf(
  field: string | undefined,
  tracks: number,
): { index: number | null; field: 'file' | 'language' | 'label' } | null {
  if (field === 'captions') return { index: tracks === 1 ? 0 : null, field: 'file' }
  const match = /^captions\.(\d+)(?:\.(\w+))?/.exec(field ?? '')
  if (!match) return null
  const part = match[2]
  return {
    index: Number(match[1]),
    field: part === 'language' || part === 'label' ? part : 'file',
  }
}
