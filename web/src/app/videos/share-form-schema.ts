// The "Share privately…" form: the expiry choice (and its day), a password and a note, checked
// with the shared review-link rules; `toCreateInput` turns a checked form into what the server
// takes (createReviewLinkSchema's input), so the dialog holds no rule of its own.
import {
  type CreateReviewLinkInput,
  expiryFor,
  reviewLinkExpiries,
  reviewLinkLimits,
  reviewLinkNoteSchema,
  reviewLinkPasswordSchema,
} from '@contract/review-link.ts'
import { z } from 'zod'
import { endOfDay } from './review-link-text.ts'

export const expiryLabels = {
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
  date: 'Until a date',
  never: 'Never',
} as const satisfies Record<(typeof reviewLinkExpiries)[number], string>

export const chooseDayMessage = 'Choose the last day the link works'
export const dayInPastMessage = 'Choose today or a later day'
export const dayTooFarMessage = `Choose a day at most ${reviewLinkLimits.maxDays} days ahead`

/** `now` is read when the form is checked, so a dialog left open a day still judges today. */
export function shareFormSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      expiry: z.enum(reviewLinkExpiries),
      /** The date input's value ('' until a day is chosen); read only when `expiry` is 'date'. */
      day: z.string(),
      password: z.literal('').or(reviewLinkPasswordSchema),
      note: reviewLinkNoteSchema,
    })
    .superRefine((form, ctx) => {
      if (form.expiry !== 'date') return
      const end = endOfDay(form.day)
      const at = now().getTime()
      const message = !end
        ? chooseDayMessage
        : end.getTime() <= at
          ? dayInPastMessage
          : end.getTime() > at + reviewLinkLimits.maxDays * 86_400_000
            ? dayTooFarMessage
            : null
      if (message) ctx.addIssue({ code: 'custom', path: ['day'], message })
    })
}

export type ShareFormInput = z.input<ReturnType<typeof shareFormSchema>>
export type ShareFormOutput = z.output<ReturnType<typeof shareFormSchema>>

export const shareFormDefaults: ShareFormInput = {
  expiry: '7d',
  day: '',
  password: '',
  note: '',
}

export function toCreateInput(
  videoId: string,
  form: ShareFormOutput,
  now: Date,
): CreateReviewLinkInput {
  const expires = expiryFor(form.expiry, now, endOfDay(form.day) ?? undefined)
  return {
    videoId,
    expiresAt: expires ? expires.toISOString() : null,
    password: form.password || null,
    note: form.note || null,
  }
}
