// Set a new password from an e-mailed link (docs/dashboard.md).

import { msg, resetPasswordFormSchema } from '@contract/index.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { NewPasswordFields } from '../components/new-password-fields.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { trpc } from '../trpc.ts'
import { AuthShell, AuthSubmit, BackToSignIn } from './auth-shell.tsx'

/** No token in the link: say so and go to the forgot-password screen. */
export function MissingResetToken() {
  const navigate = useNavigate()
  useEffect(() => {
    notify.error('Invalid reset link', 'invalid-reset-link')
    void navigate({ to: '/auth/forgot-password', replace: true })
  }, [navigate])
  return null
}

const resetRoute = getRouteApi('/auth/reset-password/$token')

export function ResetPasswordPage() {
  const { token } = resetRoute.useParams()
  if (!token.trim()) return <MissingResetToken />
  return <ResetPasswordForm token={token} />
}

function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate()
  const reset = trpc.auth.resetPassword.useMutation()
  const form = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  })
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await reset.mutateAsync({ token, password })
      notify.success('Password reset successful! Please sign in with your new password.')
      await navigate({ to: '/auth/signin', replace: true })
    } catch (err) {
      const e = toClientError(err)
      notify.error(
        e.kind === 'invalid' ? msg.invalidResetLink : e.message || 'Failed to reset password',
      )
    }
  })

  return (
    <AuthShell title="Set New Password">
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <NewPasswordFields
          form={form}
          labels={{ password: 'New Password', confirm: 'Confirm Password' }}
        />
        <AuthSubmit label="Reset Password" busyLabel="Resetting..." busy={isSubmitting} />
        {/* The same way back as on Forgot Password, for a visitor who remembered it. */}
        <BackToSignIn />
      </form>
    </AuthShell>
  )
}
