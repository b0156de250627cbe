// Auth state persisted as 'auth-storage' (docs/dashboard.md): authenticated means both user and
// token exist.
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { User } from '../../api.ts'
import { browserStorage, followOtherTabs } from '../lib/store.ts'

interface AuthState {
  user: User | null
  token: string | null
}

export const useAuthStore = create<AuthState>()(
  persist((): AuthState => ({ user: null, token: null }), {
    name: 'auth-storage',
    storage: browserStorage(),
  }),
)
followOtherTabs(useAuthStore)

export const isAuthenticated = (s: AuthState = useAuthStore.getState()) =>
  Boolean(s.user && s.token)

export function signIn(user: User, token: string) {
  useAuthStore.setState({ user, token })
}

export function clearAuth() {
  useAuthStore.setState({ user: null, token: null })
}
