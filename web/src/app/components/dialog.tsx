// The dashboard's modal: a native <dialog> shown with showModal() (web/src/ui/use-modal-dialog.ts:
// focus kept inside by the browser, Escape and backdrop clicks ask to close and the owner may
// refuse, e.g. while busy; focus back to the opener; the page stops scrolling). Toasts stay
// visible above it (lib/toast-layer.ts).
import { type ReactNode, useId, useLayoutEffect, useRef } from 'react'
import { createPortal } from 'react-dom'
import { useModalDialog } from '../../ui/use-modal-dialog.ts'
import { cn } from '../lib/cn.ts'
import { isOverToast, raiseToasts } from '../lib/toast-layer.ts'

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
  /** Merged over the panel's own classes (a later class of the same property wins). */
  className?: string
}

const sizes = {
  sm: 'max-w-md',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  full: 'm-0 h-dvh max-h-none w-screen max-w-none rounded-none',
}

export function Dialog({
  title,
  onClose,
  children,
  description,
  role = 'dialog',
  size = 'md',
  hideTitle = false,
  className,
}: DialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const ref = useRef<HTMLDialogElement>(null)
  // Toasts go above the dialog each time it is shown, and a click on one is no backdrop click.
  useModalDialog(ref, onClose, { ignoreClickAt: isOverToast, onShown: raiseToasts })
  // The browser focuses the first focusable element; a marked one goes first.
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus()
  }, [])

  return createPortal(
    // The role is explicit: 'alertdialog' for confirmations, and selectors that look for
    // [role="dialog"] see every dashboard modal alike.
    <dialog
      ref={ref}
      role={role}
      // Focusable itself, for when nothing inside can take focus (useModalDialog).
      tabIndex={-1}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={cn(
        'm-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] flex-col overflow-hidden rounded-xl bg-white p-0 text-zinc-900 shadow-2xl outline-none backdrop:bg-black/60 backdrop:backdrop-blur-[2px] open:flex dark:bg-ink-900 dark:text-zinc-100',
        sizes[size],
        className,
      )}
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
    </dialog>,
    document.body,
  )
}
