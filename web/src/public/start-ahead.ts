// Players start within a round trip of the tap
// (docs/decisions/076-a-streams-start-fetched-ahead-and-on-the-press.md). Every play button of a
// stream carries its master playlist's URL (`data-stream`); from the page's first script, without
// React:
// - once the page is idle, each such button on screen has its stream's start fetched ahead
//   (playlists and init segments, a few KB; at most AHEAD_BUDGET_BYTES for what one screen shows);
// - once the visitor has done something (a scroll, a pointer, a key), a player coming within half
//   a viewport fetches hls.js, as the grid's approach did;
// - a finger or button pressed on it (≈100 ms before the click) fetches the first media segments,
//   then hls.js, while the page's own script is still arriving (the first second plays without
//   hls.js: player/first-segments.ts). The button also names
//   its stream's first files (`data-stream-start`), so a press that found nothing fetched ahead
//   asks for the master, playlists, inits and first segments at once, not one after another.
// Nothing of this runs for a visitor who asked to save data (Save-Data, prefers-reduced-data).
import { decodeStreamStart, encodeStreamStart, type StreamStart } from '@contract/stream-start.ts'
import { prefetchHls } from '../player/load-hls.ts'
import { aheadBudget, fetchAhead, fetchStart } from '../player/prefetch.ts'
import { needsHlsJs, playsHlsNatively } from '../player/streams.ts'
import { isMobileViewport } from '../ui/viewport.ts'
import { isLive } from './liveness.ts'

/** The attribute naming a play button's master playlist. */
export const STREAM_ATTRIBUTE = 'data-stream'
/** The attribute naming the files its player asks for first (relative to the master). */
const START_ATTRIBUTE = 'data-stream-start'

/** What a play button puts in `data-stream-start` for a work. */
export function startAttribute(video: { streamStart: StreamStart | null }): string | undefined {
  return video.streamStart ? encodeStreamStart(video.streamStart) : undefined
}
/** What the start of the streams one screen shows may cost before any intent. */
export const AHEAD_BUDGET_BYTES = 50_000

/**
 * How long after a player came near hls.js is fetched: a visitor who presses within it gets the
 * stream's first files before hls.js shares the line with them, one who looks a second still
 * finds hls.js in hand (146 KB: ~0.3 s on a 9 Mbps line).
 */
const HLS_AFTER_NEAR_MS = 250
let hlsSoon: ReturnType<typeof setTimeout> | undefined
/** A press has started a stream: hls.js comes after its first files. */
let pressedOnce = false

const SELECTOR = `[${STREAM_ATTRIBUTE}]`
const ENGAGING = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll'] as const
const listening = { capture: true, passive: true } as const

type Connection = { saveData?: boolean }

/** The visitor asked for less data: nothing is fetched before they ask for it. */
export function savesData(): boolean {
  const connection = (navigator as Navigator & { connection?: Connection }).connection
  return connection?.saveData === true || matchMedia('(prefers-reduced-data: reduce)').matches
}

const streamOf = (element: Element) => element.getAttribute(STREAM_ATTRIBUTE) || null
const playsStreams = (hlsUrl: string) => needsHlsJs({ hlsUrl, videoUrl: '' }) || playsHlsNatively()

/** Runs `task` once the page has loaded and the main thread is idle. */
function whenIdle(task: () => void) {
  const idle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(task, { timeout: 1000 })
      : setTimeout(task, 200)
  if (document.readyState === 'complete') idle()
  else addEventListener('load', idle, { once: true })
}

export function startAhead(root: HTMLElement): void {
  if (typeof IntersectionObserver === 'undefined' || savesData()) return

  // Ahead: the buttons on screen, fetched in passes once idle; each pass has its own budget.
  const visible = new Set<Element>()
  const done = new WeakSet<Element>()
  let idle = false
  let scheduled = false
  const pass = () => {
    scheduled = false
    const budget = aheadBudget(AHEAD_BUDGET_BYTES)
    const order = [...root.querySelectorAll(SELECTOR)].filter((element) => visible.has(element))
    for (const element of order) {
      const url = streamOf(element)
      if (done.has(element) || !url || !playsStreams(url)) continue
      done.add(element)
      void fetchAhead(url, budget)
    }
  }
  const schedule = () => {
    if (!idle || scheduled) return
    scheduled = true
    whenIdle(pass)
  }
  whenIdle(() => {
    idle = true
    schedule()
  })
  const onScreen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) visible.add(entry.target)
      else visible.delete(entry.target)
    }
    if (visible.size) schedule()
  })

  // hls.js: only after the visitor did something, as before (the first load stays the page's).
  let engaged = false
  const near = new IntersectionObserver(
    (entries) => {
      const url = entries.find((entry) => entry.isIntersecting)?.target
      const stream = url && streamOf(url)
      if (!engaged || !stream || !needsHlsJs({ hlsUrl: stream, videoUrl: '' })) return
      near.disconnect()
      // After a moment: a press that comes at once has its stream's first files fetched first
      // (and fetches hls.js after them itself).
      if (!pressedOnce) hlsSoon = setTimeout(prefetchHls, HLS_AFTER_NEAR_MS)
    },
    { rootMargin: '50% 0px' },
  )
  const engage = () => {
    if (engaged) return
    engaged = true
    for (const name of ENGAGING) removeEventListener(name, engage, listening)
    // Observing again reports what is near now.
    for (const element of root.querySelectorAll(SELECTOR)) {
      near.unobserve(element)
      near.observe(element)
    }
  }
  for (const name of ENGAGING) addEventListener(name, engage, listening)

  const watch = (element: Element) => {
    onScreen.observe(element)
    near.observe(element)
  }
  for (const element of root.querySelectorAll(SELECTOR)) watch(element)
  // Buttons drawn later (more works, a player closed again) are watched as they appear.
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue
        if (node.matches(SELECTOR)) watch(node)
        for (const inner of node.querySelectorAll(SELECTOR)) watch(inner)
      }
    }
  }).observe(root, { childList: true, subtree: true })

  listenForIntent(root)
}

/** A press on a play button starts its first segments and hls.js, together. */
function listenForIntent(root: HTMLElement) {
  const start = (target: EventTarget | null, signal?: AbortSignal, press?: PointerEvent) => {
    const button = target instanceof Element ? target.closest(SELECTOR) : null
    const url = button && root.contains(button) ? streamOf(button) : null
    if (!button || !url || !playsStreams(url)) return false
    const start = decodeStreamStart(button.getAttribute(START_ATTRIBUTE))
    const fetching = fetchStart(url, { start, signal })
    // The first second plays without hls.js (first-segments.ts): it is fetched once the stream's
    // first files are in, not beside them on the line they need.
    if (needsHlsJs({ hlsUrl: url, videoUrl: '' })) {
      pressedOnce = true
      clearTimeout(hlsSoon)
      void fetching.finally(prefetchHls)
    }
    if (press) startTileEarly(button, url, press)
    return true
  }
  if ('PointerEvent' in window) {
    const pressed = new Map<number, AbortController>()
    addEventListener(
      'pointerdown',
      (event: PointerEvent) => {
        const controller = new AbortController()
        if (start(event.target, controller.signal, event)) pressed.set(event.pointerId, controller)
      },
      listening,
    )
    // The touch became a scroll: the segments it started are not wanted.
    addEventListener(
      'pointercancel',
      (event: PointerEvent) => {
        pressed.get(event.pointerId)?.abort()
        pressed.delete(event.pointerId)
      },
      listening,
    )
    addEventListener(
      'pointerup',
      (event: PointerEvent) => pressed.delete(event.pointerId),
      listening,
    )
  } else {
    addEventListener('touchstart', (event) => start(event.target), listening)
  }
  addEventListener(
    'keydown',
    (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') start(event.target)
    },
    listening,
  )
}

/**
 * A primary press on a tile's button before React is live, on a desktop-sized screen (below it a
 * click opens a modal with a player of its own): the tile's element gets its stream now
 * (early-player.ts), aborted again if the press ends without a click.
 */
function startTileEarly(button: Element, url: string, press: PointerEvent) {
  if (isLive() || press.button !== 0 || isMobileViewport()) return
  if (!needsHlsJs({ hlsUrl: url, videoUrl: '' })) return
  const abandoned = new AbortController()
  const end = (event: PointerEvent) => {
    if (event.pointerId !== press.pointerId) return
    removeEventListener('pointerup', end, listening)
    removeEventListener('pointercancel', end, listening)
    const target = event.target instanceof Node ? event.target : null
    if (event.type === 'pointercancel' || !target || !button.contains(target)) abandoned.abort()
  }
  addEventListener('pointerup', end, listening)
  addEventListener('pointercancel', end, listening)
  import('./early-player.ts').then(
    (early) => early.pressBeforeLive(button, url, abandoned.signal),
    // Without it the held click attaches the stream itself, as before.
    (error: unknown) => console.warn('Could not start the stream at the press', error),
  )
}
