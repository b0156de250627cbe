// Create and edit forms for an admin account (docs/dashboard.md#admin-management).

import { createAdminFormSchema, updateAdminFormSchema } from '@contract/index.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import {
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
  type UseFormSetError,
  useForm,
} from 'react-hook-form'
import type { z } from 'zod'
import type { Admin } from '../../api.ts'
import { NewPasswordFields } from '../components/new-password-fields.tsx'
import { TextField } from '../components/text-field.tsx'
import { Button } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'

/** 409 and 400-with-field answers land on that field and in a toast (docs/dashboard.md). */
export function showAdminError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
  fallback: string,
) {
  const e = toClientError(err)
  const message = e.message || fallback
  if (e.field && fields.includes(e.field) && (e.kind === 'conflict' || e.kind === 'invalid')) {
    setError(e.field as FieldPath<T>, { message })
  }
  notify.error(message)
}

export interface CreateAdminValues {
  username: string
  email: string
  password: string
}

export type CreateFields = z.input<typeof createAdminFormSchema>
export type EditFields = z.input<typeof updateAdminFormSchema>

export interface EditAdminValues {
  username?: string
  email?: string
  password?: string
}

/** What both forms ask: username, email, a password and its confirmation, then the buttons. */
function AdminFields<T extends FieldValues>({
  form,
  passwordLabels,
  passwordHint,
  submitLabel,
  busyLabel,
  onCancel,
}: {
  form: Pick<UseFormReturn<T>, 'register' | 'getFieldState' | 'formState'>
  passwordLabels: { password: string; confirm: string }
  passwordHint?: string
  submitLabel: string
  busyLabel: string
  onCancel: () => void
}) {
  const { register, getFieldState, formState } = form
  const field = (name: 'username' | 'email') => ({
    error: getFieldState(name as FieldPath<T>, formState).error?.message,
    ...register(name as FieldPath<T>),
  })
  return (
    <>
      <TextField label="Username" autoComplete="off" data-autofocus {...field('username')} />
      <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
      <NewPasswordFields form={form} labels={passwordLabels} hint={passwordHint} />
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onCancel} disabled={formState.isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? busyLabel : submitLabel}
        </Button>
      </div>
    </>
  )
}

export function CreateAdminForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: CreateAdminValues, setError: UseFormSetError<CreateFields>) => Promise<void>
  onCancel: () => void
}) {
  const form = useForm({
    resolver: zodResolver(createAdminFormSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  })
  const submit = form.handleSubmit(({ username, email, password }) =>
    onSubmit({ username, email, password }, form.setError),
  )
  return (
    <form onSubmit={submit} noValidate className="space-y-4 p-5">
      <AdminFields
        form={form}
        passwordLabels={{ password: 'Password', confirm: 'Confirm Password' }}
        submitLabel="Create Admin"
        busyLabel="Creating..."
        onCancel={onCancel}
      />
    </form>
  )
}

export function EditAdminForm({
  admin,
  onSubmit,
  onCancel,
}: {
  admin: Admin
  onSubmit: (values: EditAdminValues, setError: UseFormSetError<EditFields>) => Promise<void>
  onCancel: () => void
}) {
  const form = useForm({
    resolver: zodResolver(updateAdminFormSchema),
    defaultValues: {
      username: admin.username,
      email: admin.email,
      password: '',
      confirmPassword: '',
    },
  })
  // Only non-empty fields are sent (the schema turns blanks into undefined).
  const submit = form.handleSubmit(({ username, email, password }) => {
    const values: EditAdminValues = {}
    if (username) values.username = username
    if (email) values.email = email
    if (password) values.password = password
    return onSubmit(values, form.setError)
  })
  return (
    <form onSubmit={submit} noValidate className="space-y-4 p-5">
      <AdminFields
        form={form}
        passwordLabels={{ password: 'New Password', confirm: 'Confirm New Password' }}
        passwordHint="Leave blank to keep the current password."
        submitLabel="Update Admin"
        busyLabel="Updating..."
        onCancel={onCancel}
      />
    </form>
  )
}
