import { z } from 'zod'
import { limits } from './limits.ts'
import { msg } from './messages.ts'
import { plainText } from './text.ts'

// A practical address check: something@something.tld, no spaces.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const emailSchema = plainText(z.string({ error: msg.emailRequired }).trim(), 'Email')
  .min(1, msg.emailRequired)
  .max(254, msg.emailInvalid)
  .regex(EMAIL_RE, msg.emailInvalid)
  .transform((v) => v.toLowerCase())

export const newPasswordSchema = z
  .string({ error: msg.passwordRequired })
  .min(1, msg.passwordRequired)
  .min(limits.passwordMin, msg.passwordMin)
  .max(1024, 'Password is too long')

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: msg.fieldRequired }).min(1, msg.fieldRequired).max(1024),
})
export type LoginInput = z.input<typeof loginSchema>

export const forgotPasswordSchema = z.object({ email: emailSchema })

/** What the server needs to reset a password. */
export const resetPasswordSchema = z.object({ password: newPasswordSchema })

type WithConfirmation = { password?: string | undefined; confirmPassword?: string | undefined }

/**
 * The forms' "Passwords do not match", at the confirmation field, for every form that asks for a
 * password twice. `onlyWhenGiven`: an edit form, where an empty password means "unchanged".
 */
export const passwordsMatch = (
  opts: { onlyWhenGiven?: boolean } = {},
): [(v: WithConfirmation) => boolean, { message: string; path: string[] }] => [
  (v) => (opts.onlyWhenGiven === true && !v.password) || v.password === v.confirmPassword,
  { message: msg.passwordsMismatch, path: ['confirmPassword'] },
]

/** The reset form: the same rule plus a confirmation the server never sees. */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string({ error: msg.confirmRequired }).min(1, msg.confirmRequired),
  })
  .refine(...passwordsMatch())

export const resetTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, msg.invalidResetLink)
