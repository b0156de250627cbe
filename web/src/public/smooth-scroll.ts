// Section scrolling for the header nav: docs/public-site.md fix 800 ms with ease-in-out-quart.

export const SCROLL_DURATION_MS = 800

export function easeInOutQuart(t: number): number {
  return t < 0.5 ? 8 * t ** 4 : 1 - (-2 * t + 2) ** 4 / 2
}

let cancelRunning: (() => void) | null = null

/**
 * Scrolls so the element's top sits under the fixed header, then moves focus there for
 * keyboard and screen-reader users. With `prefers-reduced-motion: reduce` it jumps.
 */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id)
  if (!target) return
  cancelRunning?.()

  const margin = Number.parseFloat(getComputedStyle(target).scrollMarginTop) || 0
  const maxTop = document.documentElement.scrollHeight - window.innerHeight
  const to = Math.min(
    maxTop,
    Math.max(0, target.getBoundingClientRect().top + window.scrollY - margin),
  )
  const done = () => {
    cancelRunning = null
    history.replaceState(null, '', `#${id}`)
    target.focus({ preventScroll: true })
  }

  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    window.scrollTo({ top: to, behavior: 'instant' })
    done()
    return
  }

  const from = window.scrollY
  const start = performance.now()
  let frame = 0
  // A visitor who grabs the page mid-animation wins over the animation.
  const interrupt = () => cancelRunning?.()
  const stopListening = () => {
    window.removeEventListener('wheel', interrupt)
    window.removeEventListener('touchstart', interrupt)
    window.removeEventListener('keydown', interrupt)
  }
  cancelRunning = () => {
    cancelAnimationFrame(frame)
    stopListening()
    cancelRunning = null
  }
  window.addEventListener('wheel', interrupt, { passive: true })
  window.addEventListener('touchstart', interrupt, { passive: true })
  window.addEventListener('keydown', interrupt)

  const step = (now: number) => {
    // A frame's timestamp can predate the click that started us: clamp to [0, 1].
    const progress = Math.min(1, Math.max(0, (now - start) / SCROLL_DURATION_MS))
    window.scrollTo({ top: from + (to - from) * easeInOutQuart(progress), behavior: 'instant' })
    if (progress < 1) {
      frame = requestAnimationFrame(step)
    } else {
      stopListening()
      done()
    }
  }
  frame = requestAnimationFrame(step)
}
