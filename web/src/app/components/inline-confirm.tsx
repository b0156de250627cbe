// A destructive action asked once, inline, in the place of its button (a caption track's Remove, a
// review link's Revoke): the question, Keep (focused first) and the action itself.
import type { RefObject } from 'react'
import { Button } from './ui.tsx'

export function InlineConfirm({
  question,
  action,
  busyLabel,
  busy,
  onKeep,
  onConfirm,
}: {
  question: string
  /** The confirming button's label ("Remove captions"); `busyLabel` while it runs. */
  action: string
  busyLabel: string
  busy: boolean
  onKeep: () => void
  onConfirm: () => void
}) {
  return (
    <div className="flex shrink-0 flex-wrap items-center gap-2">
      <span className="text-sm">{question}</span>
      <Button data-keep variant="secondary" className="min-h-11" disabled={busy} onClick={onKeep}>
        Keep
      </Button>
      <Button variant="danger" className="min-h-11" disabled={busy} onClick={onConfirm}>
        {busy ? busyLabel : action}
      </Button>
    </div>
  )
}

/** Focuses the element `selector` finds in `within` once the change just made has been drawn. */
export function focusWhenDrawn(within: RefObject<HTMLElement | null>, selector: string) {
  requestAnimationFrame(() => within.current?.querySelector<HTMLElement>(selector)?.focus())
}
