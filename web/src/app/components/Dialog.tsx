// An accessible modal: focus moves in and is trapped, Escape and backdrop clicks ask to close
// (the owner may refuse, e.g. while busy), focus returns to the opener, the page stops scrolling.
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), video[controls], [tabindex]:not([tabindex="-1"])'

interface DialogProps {
  title: ReactNode
  /** Asked to close (Escape, backdrop, close button). */
  onClose: () => void
  children: ReactNode
  description?: ReactNode
  /** 'alert' for confirmations (role="alertdialog"). */
  role?: 'dialog' | 'alertdialog'
  size?: 'sm' | 'md' | 'lg' | 'full'
  /** Hide the visible title bar (the title still names the dialog). */
  hideTitle?: boolean
  className?: string
}

const sizes = {
  sm: 'max-w-md',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  full: 'max-w-none h-full rounded-none!',
}

export function Dialog({
  title,
  onClose,
  children,
  description,
  role = 'dialog',
  size = 'md',
  hideTitle = false,
  className = '',
}: DialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const node = panel.current
    const first =
      node?.querySelector<HTMLElement>('[data-autofocus]') ??
      node?.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? node)?.focus()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'

    const onKey = (event: KeyboardEvent) => {
      if (!node) return
      if (event.key === 'Escape') {
        event.stopPropagation()
        closeRef.current()
        return
      }
      if (event.key !== 'Tab') return
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      )
      if (items.length === 0) {
        event.preventDefault()
        node.focus()
        return
      }
      const firstItem = items[0]!
      const lastItem = items[items.length - 1]!
      const active = document.activeElement
      if (event.shiftKey && (active === firstItem || !node.contains(active))) {
        event.preventDefault()
        lastItem.focus()
      } else if (!event.shiftKey && (active === lastItem || !node.contains(active))) {
        event.preventDefault()
        firstItem.focus()
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      document.body.style.overflow = overflow
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  return createPortal(
    <div
      className={`fixed inset-0 z-50 flex items-center justify-center ${size === 'full' ? '' : 'p-4'}`}
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-black/60 backdrop-blur-[2px]"
        onClick={() => closeRef.current()}
      />
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is dialog or alertdialog */}
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`relative flex max-h-full w-full flex-col overflow-hidden rounded-xl bg-white text-zinc-900 shadow-2xl outline-none dark:bg-ink-900 dark:text-zinc-100 ${sizes[size]} ${className}`}
      >
        <h2
          id={titleId}
          className={
            hideTitle
              ? 'sr-only'
              : 'border-zinc-200 border-b px-5 py-4 font-semibold text-lg dark:border-ink-700'
          }
        >
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} className="px-5 pt-4 text-sm text-zinc-600 dark:text-zinc-300">
            {description}
          </p>
        ) : null}
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      </div>
    </div>,
    document.body,
  )
}
