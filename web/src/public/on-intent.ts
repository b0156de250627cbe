// Server-rendered public pages are complete without script: text, images, links to sections,
// tel: and mailto: all work. React (about 60 KB gzip) is fetched when the visitor first does
// something (a pointer over the page, a touch, a key, focus, a scroll), not before, so the first
// load carries only this file. What happened before React was live is told again once it is: the
// pointer's place (a tile's hover preview) and the focus (its prefetch) as the events React
// listens for, and a held button click, clicked again within the same user activation
// (fullscreen and sound still allowed).
// No React here: this is part of the page's first script.

const INTENT_EVENTS = [
  'pointerover',
  'pointerdown',
  'touchstart',
  'keydown',
  'focusin',
  'wheel',
  'scroll',
] as const
/** Where the pointer is, kept until React is live. */
const POINTER_EVENTS = ['pointerover', 'pointermove'] as const

/**
 * Makes the page live on the visitor's first intent, or at once with `now` (a review link's page,
 * whose client came to work on it); either way a button clicked before it is live is held and
 * clicked again once it is.
 */
export function liveOnIntent(
  root: HTMLElement,
  goLive: () => Promise<void>,
  opts: { now?: boolean } = {},
): void {
  let started = false
  let held: HTMLElement | null = null
  let pointer: { target: Element; pointerType: string } | null = null
  const listening = { capture: true, passive: true } as const

  const track = (event: PointerEvent) => {
    if (event.target instanceof Element)
      pointer = { target: event.target, pointerType: event.pointerType }
  }

  // Listening only until React is live (stopWatching), so every click it sees is held.
  const hold = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null
    const button = target?.closest('button')
    if (!button || !root.contains(button)) return
    event.preventDefault()
    event.stopImmediatePropagation()
    held = button
    start()
  }

  const start = () => {
    if (started) return
    started = true
    for (const name of INTENT_EVENTS) removeEventListener(name, start, listening)
    goLive()
      .then(() => {
        stopWatching()
        retell(root, pointer)
        const button = held
        held = null
        if (button?.isConnected) button.click()
      })
      .catch((error: unknown) => {
        // The page stays as the server drew it: readable, its links working.
        stopWatching()
        console.error('The page could not load its script', error)
      })
  }

  const stopWatching = () => {
    document.removeEventListener('click', hold, true)
    for (const name of POINTER_EVENTS) removeEventListener(name, track, listening)
  }

  document.addEventListener('click', hold, true)
  for (const name of POINTER_EVENTS) addEventListener(name, track, listening)
  for (const name of INTENT_EVENTS) addEventListener(name, start, listening)
  if (opts.now) start()
}

/**
 * React derives enter from `pointerover` and focus from `focusin`: a pointer already resting on an
 * element, or focus already in one, is told to it as those events, as if it had just arrived.
 */
function retell(root: HTMLElement, pointer: { target: Element; pointerType: string } | null) {
  const { target, pointerType } = pointer ?? {}
  if (target?.isConnected && root.contains(target) && target.matches(':hover')) {
    target.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType }))
  }
  const focused = document.activeElement
  if (focused instanceof HTMLElement && focused !== root && root.contains(focused)) {
    focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }))
  }
}
