// Captions and subtitles of a work: what an admin gives (a WebVTT or SRT file with a language and
// a label) and what the video answers carry. Shared by the server, the REST adapter and the web
// forms; no server imports.
import { z } from 'zod'
import { MB } from './limits.ts'
import { plainText } from './text.ts'

/** Largest caption file accepted, before SRT is converted (converting only shrinks it). */
export const CAPTIONS_MAX_BYTES = 1 * MB

/** How many caption tracks one work may carry: more than any real reel, few enough to list. */
export const CAPTIONS_PER_VIDEO_MAX = 20

export const captionsMessages = {
  languageRequired: 'Language is required',
  languageInvalid: 'Language must be a language tag such as en, fr or pt-BR',
  labelRequired: 'Label is required',
  labelMax: 'Label must be at most 60 characters',
  fileRequired: 'A WebVTT or SRT file is required',
  tooLarge: 'Captions must be at most 1 MB',
  wrongType: 'Captions must be a WebVTT (.vtt) or SRT (.srt) file',
  unreadable: 'The captions file could not be read as WebVTT or SRT',
  tooMany: `A work can have at most ${CAPTIONS_PER_VIDEO_MAX} caption tracks`,
  notFound: 'No captions in this language',
  duplicateLanguage: 'Each language may have only one caption track',
} as const

/** Primary language, optional script, optional region, as most players and browsers take them. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\d{3}))?$/

/** A BCP 47 language tag in its canonical case (`pt-br` → `pt-BR`), or the refusal. */
export const captionLanguageSchema = z
  .string({ error: captionsMessages.languageRequired })
  .trim()
  .min(1, captionsMessages.languageRequired)
  .max(16, captionsMessages.languageInvalid)
  .regex(LANGUAGE_TAG, captionsMessages.languageInvalid)
  .transform((tag, ctx) => {
    try {
      return Intl.getCanonicalLocales(tag)[0] ?? tag
    } catch {
      ctx.addIssue({ code: 'custom', message: captionsMessages.languageInvalid })
      return z.NEVER
    }
  })

/** What a viewer picks in the player's caption menu: "English", "English (SDH)". */
export const captionLabelSchema = plainText(
  z.string({ error: captionsMessages.labelRequired }).trim(),
  'Label',
)
  .min(1, captionsMessages.labelRequired)
  .max(60, captionsMessages.labelMax)

/** A caption track as video answers list it; `url` is served like the work's other media. */
export type CaptionTrack = { language: string; label: string; url: string }

/** The file extensions the forms offer; the server decides by the content, not the name. */
export const captionFileAccept = '.vtt,.srt,text/vtt'

/** The tus `kind` of a caption file's upload (text: checked as captions, not sniffed as media). */
export const CAPTIONS_UPLOAD_KIND = 'captions'

/** One track given with a new work: a finished upload of kind `captions`. */
export const captionsUploadSchema = z.object({
  upload: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'Invalid upload id'),
  language: captionLanguageSchema,
  label: captionLabelSchema,
})

/** The tracks given with a new work: each language once, at most CAPTIONS_PER_VIDEO_MAX. */
export const captionsListSchema = z
  .array(captionsUploadSchema)
  .max(CAPTIONS_PER_VIDEO_MAX, captionsMessages.tooMany)
  .refine(
    (tracks) => new Set(tracks.map((track) => track.language)).size === tracks.length,
    captionsMessages.duplicateLanguage,
  )
