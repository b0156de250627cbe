// About: the studio's standard, range and mission (docs/public-site.md).
import { about } from './content.ts'
import { keyed } from './keys.ts'
import type { PublicSite } from './site-content.ts'

export function About({ content }: { content: PublicSite['about'] | null }) {
  return (
    <section
      id="about"
      tabIndex={-1}
      aria-labelledby="about-heading"
      className="scroll-mt-16 border-t border-white/5 bg-ink-900 outline-none md:scroll-mt-20"
    >
      <div className="mx-auto grid max-w-7xl gap-12 px-5 py-24 sm:px-8 md:grid-cols-12 md:py-36">
        <h2
          id="about-heading"
          className="text-[0.6875rem] font-medium tracking-[0.32em] text-accent uppercase md:col-span-3 md:pt-4"
        >
          {about.heading}
        </h2>
        <div className="md:col-span-9">
          <p className="font-display text-4xl leading-[1.1] tracking-tight text-paper text-balance md:text-6xl">
            {content?.lead}
          </p>
          <div className="mt-12 grid gap-8 text-base leading-relaxed text-mist md:grid-cols-2 md:text-lg">
            {keyed(content?.paragraphs ?? [], (p) => p).map(([key, paragraph]) => (
              <p key={key} className="whitespace-pre-line">
                {paragraph}
              </p>
            ))}
          </div>
          {content?.mission ? (
            <p className="mt-14 border-l-2 border-accent pl-6 font-display text-2xl leading-snug text-paper italic md:text-3xl">
              {content.mission}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  )
}
