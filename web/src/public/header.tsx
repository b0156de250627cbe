// Fixed header: section nav, translucent after 50 px of scroll, slide-in menu below 768 px.
import { useEffect, useRef, useState } from 'react'
import { BRAND, BrandMark, BrandName } from '../brand/brand.tsx'
import { MOBILE_QUERY } from '../ui/breakpoint.ts'
import { useScrollLock } from '../ui/use-scroll-lock.ts'
import { nav } from './content.ts'
import { SectionLink } from './section-link.tsx'

const SCROLLED_AFTER_PX = 50 // docs/limits.md

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false)
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [threshold])
  return scrolled
}

/** `away`: on a page other than the landing page, the section links lead back to it. */
export function Header({ away = false }: { away?: boolean }) {
  const scrolled = useScrolledPast(SCROLLED_AFTER_PX)
  const [menuOpen, setMenuOpen] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)

  // docs/public-site.md: the open menu locks page scroll (released before the section scroll that
  // follows choosing an item starts).
  useScrollLock(menuOpen)

  useEffect(() => {
    if (!menuOpen) return
    panelRef.current?.querySelector<HTMLAnchorElement>('nav a')?.focus()
    // A tap or a Tab that lands outside the panel (and its toggle) closes the menu.
    const onOutside = (event: Event) => {
      const target = event.target as Node
      if (panelRef.current?.contains(target) || toggleRef.current?.contains(target)) return
      setMenuOpen(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setMenuOpen(false)
      toggleRef.current?.focus()
    }
    // Widened past the breakpoint: the menu is gone, so is its state.
    const mobile = window.matchMedia(MOBILE_QUERY)
    const onBreakpoint = () => !mobile.matches && setMenuOpen(false)
    document.addEventListener('pointerdown', onOutside)
    document.addEventListener('focusin', onOutside)
    document.addEventListener('keydown', onKeyDown)
    mobile.addEventListener('change', onBreakpoint)
    return () => {
      document.removeEventListener('pointerdown', onOutside)
      document.removeEventListener('focusin', onOutside)
      document.removeEventListener('keydown', onKeyDown)
      mobile.removeEventListener('change', onBreakpoint)
    }
  }, [menuOpen])

  const closeMenu = () => setMenuOpen(false)

  const brandClass =
    'flex items-center gap-2.5 rounded-sm text-paper focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent'
  const linkClass =
    'rounded-sm text-[0.8125rem] font-medium tracking-[0.22em] text-paper/80 transition-colors hover:text-accent focus-visible:text-accent focus-visible:outline-2 focus-visible:outline-offset-8 focus-visible:outline-accent'

  return (
    <header className="fixed inset-x-0 top-0 z-50" data-scrolled={scrolled}>
      {/* The translucent layer is a sibling, not the header itself: a backdrop-filter on the
          header would trap the fixed mobile panel inside the header's box. */}
      <div
        aria-hidden="true"
        className={`absolute inset-0 border-b transition-[background-color,border-color,backdrop-filter] duration-500 ${
          scrolled
            ? 'border-white/10 bg-ink-950/75 backdrop-blur-md backdrop-saturate-150'
            : 'border-transparent bg-transparent'
        }`}
      />
      {/* Above the open panel, but only its own controls take clicks: the panel's link shows
          through the gap between them. */}
      <div className="pointer-events-none relative z-20 mx-auto flex h-16 max-w-7xl items-center justify-between px-5 *:pointer-events-auto sm:px-8 md:h-20">
        {/* While the menu is open the panel shows its own: this one would straddle its edge. */}
        <a
          href="/"
          data-brand=""
          className={`${brandClass} transition-opacity duration-300 ${menuOpen ? 'max-md:invisible max-md:opacity-0' : ''}`}
        >
          <BrandMark className="text-accent" />
          <BrandName className="text-2xl" />
        </a>

        <nav aria-label="Primary" className="hidden md:block">
          <ul className="flex items-center gap-10">
            {nav.map((item) => (
              <li key={item.target}>
                <SectionLink
                  target={item.target}
                  onChoose={closeMenu}
                  away={away}
                  className={linkClass}
                >
                  {item.label}
                </SectionLink>
              </li>
            ))}
          </ul>
        </nav>

        <button
          ref={toggleRef}
          type="button"
          className="group -mr-2 grid size-11 place-items-center rounded-full text-paper focus-visible:outline-2 focus-visible:outline-accent md:hidden"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true" className="relative block h-3 w-6">
            <span
              className={`absolute left-0 h-0.5 w-6 rounded bg-current transition-transform duration-300 ${
                menuOpen ? 'top-[5px] rotate-45' : 'top-0'
              }`}
            />
            <span
              className={`absolute left-0 h-0.5 w-6 rounded bg-current transition-transform duration-300 ${
                menuOpen ? 'top-[5px] -rotate-45' : 'top-2.5'
              }`}
            />
          </span>
        </button>
      </div>

      {/* Mobile menu: a backdrop that swallows the outside click, and the sliding panel. */}
      <div
        aria-hidden="true"
        className={`fixed inset-0 z-0 bg-black/60 transition-opacity duration-300 md:hidden ${
          menuOpen ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
      />
      <div
        ref={panelRef}
        id="mobile-menu"
        inert={!menuOpen}
        className={`fixed inset-y-0 right-0 z-10 flex w-[min(82vw,22rem)] flex-col border-l border-white/10 bg-ink-900 px-8 pt-28 pb-10 shadow-2xl duration-500 ease-out-expo motion-reduce:duration-0 md:hidden ${
          // Shown at once when opening (so its first item can take focus), hidden only once it
          // has slid out when closing.
          menuOpen
            ? 'visible translate-x-0 transition-transform'
            : 'invisible translate-x-full transition-[transform,visibility]'
        }`}
      >
        <a href="/" data-brand="" className={`${brandClass} absolute top-0 left-8 h-16 w-fit`}>
          <BrandMark className="text-accent" />
          <BrandName className="text-2xl" />
        </a>
        <nav aria-label="Mobile">
          <ul className="flex flex-col gap-7">
            {nav.map((item, index) => (
              <li key={item.target}>
                <SectionLink
                  target={item.target}
                  onChoose={closeMenu}
                  away={away}
                  className="group flex items-baseline gap-4 rounded-sm text-paper focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
                >
                  <span className="font-mono text-xs text-accent">0{index + 1}</span>
                  <span className="font-display text-4xl tracking-wide transition-colors group-hover:text-accent">
                    {item.label}
                  </span>
                </SectionLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="mt-auto text-xs tracking-[0.2em] text-mist uppercase">{BRAND.tagline}</p>
      </div>
    </header>
  )
}
