// Entry of the dashboard chunk (loaded by web/src/main.tsx for dashboard and auth paths).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createPortal } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { Toaster } from 'sonner'
import '../styles.css'
import { TOAST_DURATION, TOAST_LIMIT } from './lib/notify.ts'
import { setUnauthorizedHandler } from './lib/session.ts'
import { toastLayer } from './lib/toast-layer.ts'
import { createAppRouter, type RouterAuth } from './router.tsx'
import { clearAuth, isAuthenticated, useAuthStore } from './stores/auth.ts'
import { applyTheme, useThemeStore } from './stores/ui.ts'
import { createTrpcClient, createTrpcUtils, trpc } from './trpc.ts'

// What the router's guards ask of the stored auth, read when they run.
const auth: RouterAuth = {
  isAuthenticated: () => isAuthenticated(),
  isSuperAdmin: () => useAuthStore.getState().user?.role === 'super_admin',
}

export function mountApp(el: HTMLElement): void {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false },
    },
  })
  const trpcClient = createTrpcClient()
  const router = createAppRouter({
    queryClient,
    trpc: createTrpcUtils(queryClient, trpcClient),
    auth,
  })

  // docs/dashboard.md: a 401 on any call but login clears auth and goes to sign-in (not from
  // /auth/).
  const onUnauthorized = () => {
    clearAuth()
    queryClient.clear()
    const { pathname, href } = router.state.location
    if (pathname.startsWith('/auth/')) return
    void router.navigate({ to: '/auth/signin', search: { redirect: href }, replace: true })
  }
  setUnauthorizedHandler(onUnauthorized)

  applyTheme(useThemeStore.getState().isDarkMode)

  createRoot(el).render(
    <StrictMode>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <AppToaster />
        </QueryClientProvider>
      </trpc.Provider>
    </StrictMode>,
  )
}

// In the top layer, so that toasts show over a modal dialog too (lib/toast-layer.ts).
function AppToaster() {
  const isDarkMode = useThemeStore((s) => s.isDarkMode)
  return createPortal(
    <Toaster
      position="top-center"
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION}
      theme={isDarkMode ? 'dark' : 'light'}
      richColors
      closeButton
    />,
    toastLayer(),
  )
}
