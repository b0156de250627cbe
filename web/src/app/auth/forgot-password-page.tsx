// Forgot password (docs/dashboard.md): the same answer whether or not the account exists.

import { forgotPasswordSchema, msg } from '@contract/index.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { notify } from '../lib/notify.ts'
import { trpc } from '../trpc.ts'
import { AuthShell, AuthSubmit, BackToSignIn, EmailField } from './auth-shell.tsx'

const REDIRECT_DELAY_MS = 2000

export function ForgotPasswordPage() {
  const navigate = useNavigate()
  const request = trpc.auth.requestPasswordReset.useMutation()
  const [sent, setSent] = useState(false)
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } })

  useEffect(() => {
    if (!sent) return
    const timer = setTimeout(() => navigate({ to: '/auth/signin' }), REDIRECT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [sent, navigate])

  const onSubmit = handleSubmit(async (values) => {
    const toastId = notify.loading('Sending reset instructions to your email...')
    try {
      await request.mutateAsync(values)
      notify.success(msg.resetRequested, toastId)
      setSent(true)
    } catch {
      notify.error('Unable to process your request. Please try again later.', toastId)
    }
  })

  return (
    <AuthShell title="Forgot Password">
      {sent ? (
        <p
          role="status"
          className="mb-5 rounded-2xl bg-emerald-50 p-4 text-emerald-800 text-sm dark:bg-emerald-950 dark:text-emerald-200"
        >
          {msg.resetRequested}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <EmailField error={errors.email?.message} {...register('email')} />
        <AuthSubmit
          label="Send Reset Link"
          busyLabel="Sending Reset Instructions..."
          busy={isSubmitting}
          disabled={isSubmitting || sent}
        />
        <BackToSignIn />
      </form>
    </AuthShell>
  )
}
