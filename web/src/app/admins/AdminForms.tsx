// Create and edit forms for an admin account (SPEC §5 "Create admin", "Edit admin").
import { zodResolver } from '@hookform/resolvers/zod'
import { createAdminFormSchema, updateAdminFormSchema } from '@shared/index.ts'
import { type FieldPath, type FieldValues, type UseFormSetError, useForm } from 'react-hook-form'
import type { z } from 'zod'
import type { Admin } from '../../api.ts'
import { TextField } from '../components/TextField.tsx'
import { Button } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'

/** 409 and 400-with-field answers land on that field and in a toast (SPEC §8 Admins). */
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

export function CreateAdminForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: CreateAdminValues, setError: UseFormSetError<CreateFields>) => Promise<void>
  onCancel: () => void
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(createAdminFormSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  })
  const submit = handleSubmit(({ username, email, password }) =>
    onSubmit({ username, email, password }, setError),
  )
  return (
    <form onSubmit={submit} noValidate className="space-y-4 p-5">
      <TextField
        label="Username"
        autoComplete="off"
        data-autofocus
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Creating...' : 'Create Admin'}
        </Button>
      </div>
    </form>
  )
}
export type CreateFields = z.input<typeof createAdminFormSchema>
export type EditFields = z.input<typeof updateAdminFormSchema>

export interface EditAdminValues {
  username?: string
  email?: string
  password?: string
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
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(updateAdminFormSchema),
    defaultValues: {
      username: admin.username,
      email: admin.email,
      password: '',
      confirmPassword: '',
    },
  })
  // Only non-empty fields are sent (the schema turns blanks into undefined).
  const submit = handleSubmit(({ username, email, password }) => {
    const values: EditAdminValues = {}
    if (username) values.username = username
    if (email) values.email = email
    if (password) values.password = password
    return onSubmit(values, setError)
  })
  return (
    <form onSubmit={submit} noValidate className="space-y-4 p-5">
      <TextField
        label="Username"
        autoComplete="off"
        data-autofocus
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint="Leave blank to keep the current password."
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Admin'}
        </Button>
      </div>
    </form>
  )
}
