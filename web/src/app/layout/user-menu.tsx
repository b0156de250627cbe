// The top bar's user menu: username and role, Home and Log Out (docs/dashboard.md#layout).
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useId, useRef, useState } from 'react'
import { Icons } from '../components/ui.tsx'
import { endSession } from '../lib/session.ts'
import { useDismiss } from '../lib/use-dismiss.ts'
import { clearAuth, useAuthStore } from '../stores/auth.ts'
import { trpc } from '../trpc.ts'

export function UserMenu() {
  const user = useAuthStore((s) => s.user)
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const utils = trpc.useUtils()

  useDismiss(open, [button, menu], (reason) => {
    setOpen(false)
    if (reason === 'escape') button.current?.focus()
  })

  // docs/dashboard.md: clear stored auth and return to /. In this order: once the dashboard's pages
  // are gone and the cache with them, nothing asks the server again for this session; the server
  // ends it after the calls already on their way have answered, so none of them meets a 401.
  const onLogOut = async () => {
    setOpen(false)
    const { token } = useAuthStore.getState()
    await navigate({ to: '/' })
    await queryClient.cancelQueries()
    queryClient.clear()
    clearAuth()
    if (token) {
      void endSession(token, (t) =>
        utils.client.auth.logout.mutate(undefined, { context: { token: t } }),
      )
    }
  }

  if (!user) return null
  const initial = user.username.slice(0, 1).toUpperCase()

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
        className="flex items-center gap-2 rounded-lg px-2 py-1.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-ink-800"
      >
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-accent font-semibold text-ink-950 text-sm"
        >
          {initial}
        </span>
        {/* Named by what it shows first (WCAG 2.5.3): the username, then what the button is. On
            small screens the name is not shown but still read. */}
        <span className="max-w-40 truncate font-medium text-sm max-sm:sr-only">
          {user.username}
        </span>
        <span className="sr-only">, User menu</span>
        <Icons.chevronDown className="size-4" />
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="User menu"
          className="absolute right-0 z-40 mt-2 w-56 overflow-hidden rounded-xl border border-zinc-200 bg-white py-1 shadow-lg dark:border-ink-700 dark:bg-ink-900"
        >
          <div className="border-zinc-200 border-b px-4 py-3 dark:border-ink-700">
            <p className="truncate font-medium text-sm">{user.username}</p>
            <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{user.role}</p>
          </div>
          <Link
            to="/"
            role="menuitem"
            className="flex items-center gap-2 px-4 py-2 text-sm hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none dark:hover:bg-ink-800 dark:focus-visible:bg-ink-800"
            onClick={() => setOpen(false)}
          >
            <Icons.home className="size-4" /> Home
          </Link>
          <button
            type="button"
            role="menuitem"
            onClick={onLogOut}
            className="flex w-full items-center gap-2 px-4 py-2 text-left text-red-600 text-sm hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none dark:text-red-400 dark:hover:bg-ink-800 dark:focus-visible:bg-ink-800"
          >
            <Icons.logout className="size-4" /> Log Out
          </button>
        </div>
      ) : null}
    </div>
  )
}
