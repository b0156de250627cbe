// Entry of the dashboard chunk (loaded by web/src/main.tsx for dashboard and auth paths).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Toaster } from 'sonner'
import { TOAST_DURATION, TOAST_LIMIT } from './lib/notify.ts'
import { setUnauthorizedHandler } from './lib/session.ts'
import { createAppRouter } from './router.tsx'
import { clearAuth } from './stores/auth.ts'
import { applyTheme, useThemeStore } from './stores/ui.ts'
import { createTrpcClient, trpc } from './trpc.ts'

export function mountApp(el: HTMLElement): void {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false },
    },
  })
  const router = createAppRouter({ queryClient })

  // SPEC §4: a 401 on any call but login clears auth and goes to sign-in (not from /auth/).
  const onUnauthorized = () => {
    clearAuth()
    queryClient.clear()
    const { pathname, href } = router.state.location
    if (pathname.startsWith('/auth/')) return
    void router.navigate({ to: '/auth/signin', search: { redirect: href }, replace: true })
  }
  setUnauthorizedHandler(onUnauthorized)
  const trpcClient = createTrpcClient()

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

function AppToaster() {
  const isDarkMode = useThemeStore((s) => s.isDarkMode)
  return (
    <Toaster
      position="top-center"
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION}
      theme={isDarkMode ? 'dark' : 'light'}
      richColors
      closeButton
    />
  )
}
