// An in-page link that takes the animated scroll instead of the browser's jump.
import type { ComponentProps } from 'react'
import { scrollToSection } from './smooth-scroll.ts'

type Props = Omit<ComponentProps<'a'>, 'href'> & {
  target: string
  /** Runs before the scroll starts, e.g. to close the mobile menu. */
  onChoose?: () => void
  /** On a page without the sections (a work's page): a plain link to them on the landing page. */
  away?: boolean
}

export function SectionLink({ target, onChoose, away = false, children, ...props }: Props) {
  if (away) {
    return (
      <a {...props} href={`/#${target}`} onClick={onChoose}>
        {children}
      </a>
    )
  }
  return (
    <a
      {...props}
      href={`#${target}`}
      onClick={(event) => {
        // Let modified clicks (new tab, etc.) do what the visitor asked for.
        if (
          event.metaKey ||
          event.ctrlKey ||
          event.shiftKey ||
          event.altKey ||
          event.button !== 0
        ) {
          return
        }
        event.preventDefault()
        onChoose?.()
        scrollToSection(target)
      }}
    >
      {children}
    </a>
  )
}
