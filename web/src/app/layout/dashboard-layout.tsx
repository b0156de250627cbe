// The signed-in frame: sidebar, top bar and the page. Both bars hide while the edit-video modal
// is open (docs/dashboard.md#layout). The stored user is refreshed from the server once per visit.
import { Outlet } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { buttonStyles, Icons } from '../components/ui.tsx'
import { useAuthStore } from '../stores/auth.ts'
import { setSidebarExpanded, useChromeStore, useSidebarStore } from '../stores/ui.ts'
import { trpc } from '../trpc.ts'
import { Sidebar } from './sidebar.tsx'
import { ThemeToggle } from './theme-toggle.tsx'
import { UserMenu } from './user-menu.tsx'

export function DashboardLayout() {
  const editing = useChromeStore((s) => s.editModalOpen)
  const expanded = useSidebarStore((s) => s.expanded)
  const mobileOpen = useSidebarStore((s) => s.mobileOpen)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 5 * 60 * 1000, retry: false })

  useEffect(() => {
    const fresh = me.data
    const { user, token } = useAuthStore.getState()
    if (!fresh || !token) return
    if (JSON.stringify(fresh) !== JSON.stringify(user)) useAuthStore.setState({ user: fresh })
  }, [me.data])

  return (
    <div className="flex min-h-dvh bg-zinc-50 text-zinc-900 dark:bg-ink-950 dark:text-zinc-100">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-accent px-3 py-2 text-ink-950 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {editing ? null : <Sidebar toggleRef={toggleRef} />}
      <div className="flex min-w-0 flex-1 flex-col">
        {editing ? null : (
          <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-2 border-zinc-200 border-b bg-white/90 px-3 backdrop-blur sm:px-6 dark:border-ink-700 dark:bg-ink-900/90">
            <button
              ref={toggleRef}
              type="button"
              className={`${buttonStyles.icon} md:hidden`}
              aria-label="Open navigation"
              aria-controls="dashboard-sidebar"
              aria-expanded={mobileOpen}
              onClick={() => useSidebarStore.setState({ mobileOpen: !mobileOpen })}
            >
              <Icons.menu />
            </button>
            <button
              type="button"
              className={`${buttonStyles.icon} max-md:hidden`}
              aria-label={expanded ? 'Collapse sidebar' : 'Expand sidebar'}
              aria-controls="dashboard-sidebar"
              aria-expanded={expanded}
              onClick={() => setSidebarExpanded(!expanded)}
            >
              {expanded ? <Icons.collapse /> : <Icons.expand />}
            </button>
            <div className="ml-auto flex items-center gap-1 sm:gap-2">
              <ThemeToggle />
              <UserMenu />
            </div>
          </header>
        )}
        <main id="main" className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  )
}
