// A new password and its confirmation, as the reset and admin forms ask for them. Their rules
// (and the one "Passwords do not match" refinement) live in the form's shared schema.
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { TextField } from './text-field.tsx'

interface Labels {
  password: string
  confirm: string
}

export function NewPasswordFields<T extends FieldValues>({
  form: { register, getFieldState, formState },
  labels,
  hint,
}: {
  /** A form with `password` and `confirmPassword` fields. */
  form: Pick<UseFormReturn<T>, 'register' | 'getFieldState' | 'formState'>
  labels: Labels
  /** Under the password, e.g. that blank keeps the current one. */
  hint?: string
}) {
  const password = 'password' as Path<T>
  const confirm = 'confirmPassword' as Path<T>
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        hint={hint}
        error={getFieldState(password, formState).error?.message}
        {...register(password)}
      />
      <TextField
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        error={getFieldState(confirm, formState).error?.message}
        {...register(confirm)}
      />
    </>
  )
}
