// Dashboard navigation. Wide screens: a column that can be collapsed to icons ('sidebar-expanded').
// Small screens: a drawer that closes on outside click, Escape or choosing a page.
import { Link } from '@tanstack/react-router'
import { type RefObject, useRef } from 'react'
import { BrandName, BrandTile } from '../../brand/brand.tsx'
import { useIsMobile } from '../../ui/breakpoint.ts'
import { SiteIcons } from '../components/icons.tsx'
import { Icons } from '../components/ui.tsx'
import { useDismiss } from '../lib/use-dismiss.ts'
import { useAuthStore } from '../stores/auth.ts'
import { useSidebarStore } from '../stores/ui.ts'

const links = [
  { to: '/dashboard', label: 'Dashboard', icon: Icons.home, exact: true },
  { to: '/dashboard/upload', label: 'Upload Video', icon: Icons.upload, exact: false },
  { to: '/dashboard/manage', label: 'Manage Videos', icon: Icons.film, exact: false },
  { to: '/dashboard/site', label: 'Site', icon: SiteIcons.globe, exact: false },
] as const

// super_admin only (docs/dashboard.md for Admin Management; the activity log likewise).
const superAdminLinks = [
  { to: '/dashboard/admins', label: 'Admin Management', icon: Icons.users, exact: false },
  { to: '/dashboard/activity', label: 'Activity', icon: SiteIcons.activity, exact: false },
] as const

export function Sidebar({ toggleRef }: { toggleRef: RefObject<HTMLButtonElement | null> }) {
  const role = useAuthStore((s) => s.user?.role)
  const expanded = useSidebarStore((s) => s.expanded)
  const mobileOpen = useSidebarStore((s) => s.mobileOpen)
  const panel = useRef<HTMLElement>(null)
  const small = useIsMobile()
  const close = () => useSidebarStore.setState({ mobileOpen: false })

  useDismiss(mobileOpen, [panel, toggleRef], (reason) => {
    close()
    if (reason === 'escape') toggleRef.current?.focus()
  })

  const items = role === 'super_admin' ? [...links, ...superAdminLinks] : links
  // Labels show when expanded on wide screens, and always inside the small-screen drawer.
  const labelClass = expanded ? '' : 'md:sr-only'

  return (
    <>
      {mobileOpen ? (
        <div aria-hidden="true" className="fixed inset-0 z-30 bg-black/50 md:hidden" />
      ) : null}
      <nav
        ref={panel}
        id="dashboard-sidebar"
        aria-label="Dashboard"
        inert={small && !mobileOpen}
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-zinc-200 border-r bg-white transition-[translate,visibility] duration-200 md:sticky md:top-0 md:h-dvh md:translate-x-0 md:transition-[width] dark:border-ink-700 dark:bg-ink-900 ${
          mobileOpen ? 'translate-x-0' : 'invisible -translate-x-full md:visible'
        } ${expanded ? 'md:w-64' : 'md:w-18'}`}
      >
        <div className="flex h-16 shrink-0 items-center gap-2 border-zinc-200 border-b px-4 dark:border-ink-700">
          {/* Collapsed, the mark alone; the name stays for screen readers. */}
          <Link
            to="/dashboard"
            data-brand=""
            className="flex min-w-0 items-center gap-3 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
            onClick={close}
          >
            <BrandTile className="size-9" />
            <BrandName className={`text-[1.375rem] ${labelClass}`} />
          </Link>
          <button
            type="button"
            className="ml-auto inline-flex size-9 items-center justify-center rounded-lg hover:bg-zinc-100 md:hidden dark:hover:bg-ink-800"
            aria-label="Close navigation"
            onClick={() => {
              close()
              toggleRef.current?.focus()
            }}
          >
            <Icons.close />
          </button>
        </div>
        <ul className="flex-1 space-y-1 overflow-y-auto p-3">
          {items.map(({ to, label, icon: Icon, exact }) => (
            <li key={to}>
              <Link
                to={to}
                activeOptions={{ exact }}
                onClick={close}
                title={expanded ? undefined : label}
                className="flex items-center gap-3 rounded-lg px-3 py-2.5 font-medium text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 data-[status=active]:bg-amber-100 data-[status=active]:text-zinc-900 dark:text-zinc-300 dark:data-[status=active]:bg-ink-700 dark:data-[status=active]:text-accent dark:hover:bg-ink-800"
              >
                <Icon className="size-5 shrink-0" />
                <span className={labelClass}>{label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  )
}
