import { z } from 'zod'
import { emailSchema, newPasswordSchema, passwordsMatch } from './auth.ts'
import { uuidSchema } from './id.ts'
import { limits } from './limits.ts'
import { msg } from './messages.ts'
import { plainText } from './text.ts'

export const roles = ['super_admin', 'admin'] as const
export type Role = (typeof roles)[number]

export const usernameSchema = plainText(
  z.string({ error: msg.usernameRequired }).trim(),
  'Username',
)
  .min(1, msg.usernameRequired)
  .min(limits.usernameMin, msg.usernameMin)
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9_]+$/, msg.usernameChars)

const adminEmailSchema = z
  .string({ error: msg.emailRequired })
  .trim()
  .min(1, msg.emailRequired)
  .pipe(emailSchema)

export const createAdminSchema = z.object({
  username: usernameSchema,
  email: adminEmailSchema,
  password: newPasswordSchema,
})
export type CreateAdminInput = z.input<typeof createAdminSchema>

export const createAdminFormSchema = createAdminSchema
  .extend({
    confirmPassword: z.string({ error: msg.confirmAdminRequired }).min(1, msg.confirmAdminRequired),
  })
  .refine(...passwordsMatch())

/** Empty strings mean "leave unchanged" (docs/dashboard.md: only non-empty fields are sent). */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

export const updateAdminSchema = z.object({
  username: z.preprocess(blankToUndefined, usernameSchema.optional()),
  email: z.preprocess(blankToUndefined, adminEmailSchema.optional()),
  password: z.preprocess((v) => (v === '' ? undefined : v), newPasswordSchema.optional()),
})
export type UpdateAdminInput = z.input<typeof updateAdminSchema>

export const updateAdminFormSchema = updateAdminSchema
  .extend({ confirmPassword: z.string().optional() })
  .refine(...passwordsMatch({ onlyWhenGiven: true }))

export const idSchema = uuidSchema('Invalid id')
