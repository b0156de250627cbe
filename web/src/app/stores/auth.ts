// Auth state persisted as 'auth-storage' (SPEC §3): authenticated means both user and token exist.
import type { User } from '../../api.ts'
import { createStore } from '../lib/store.ts'

interface AuthState {
  user: User | null
  token: string | null
}

export const authStore = createStore<AuthState>(
  { user: null, token: null },
  { key: 'auth-storage' },
)

export const isAuthenticated = (s: AuthState = authStore.get()) => Boolean(s.user && s.token)

export function signIn(user: User, token: string) {
  authStore.set({ user, token })
}

export function clearAuth() {
  authStore.set({ user: null, token: null })
}
