// Sign-in (docs/dashboard.md): on success go back where the visitor came from, else /dashboard.
// The target is checked where it is followed, whatever the route's search let through.

import { loginSchema } from '@contract/index.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { getRouteApi, Link, useRouter } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import { TextField } from '../components/text-field.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { signIn } from '../stores/auth.ts'
import { trpc } from '../trpc.ts'
import { AuthShell, AuthSubmit, authLinkClass, EmailField } from './auth-shell.tsx'
import { safeRedirect } from './redirect.ts'

export function signInErrorMessage(err: unknown): string {
  const e = toClientError(err)
  if (e.kind === 'unauthorized') return 'Invalid credentials'
  if (e.kind === 'not-found') return 'Service not available'
  return e.message || 'Login failed'
}

// /login and /auth/signin share this pathless parent and its search schema (router.tsx).
const signInRoutes = getRouteApi('/sign-in')

export function SignInPage() {
  const router = useRouter()
  const search = signInRoutes.useSearch()
  const login = trpc.auth.login.useMutation()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } })

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await login.mutateAsync(values)
      if (!result?.user || !result.token) throw new Error('Invalid response format')
      signIn(result.user, result.token)
      router.history.push(safeRedirect(search.redirect) ?? '/dashboard')
    } catch (err) {
      notify.error(signInErrorMessage(err) || 'Failed to sign in')
    }
  })

  return (
    <AuthShell title="Sign In to Your Account">
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <EmailField error={errors.email?.message} {...register('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="flex justify-end">
          <Link to="/auth/forgot-password" className={`text-sm ${authLinkClass}`}>
            Forgot Password?
          </Link>
        </div>
        <AuthSubmit label="Sign In" busyLabel="Signing in..." busy={isSubmitting} />
      </form>
    </AuthShell>
  )
}
