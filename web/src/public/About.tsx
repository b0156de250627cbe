// About: the studio's standard, range and mission (SPEC §2).
import { about } from './content.ts'

export function About() {
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
            {about.lead}
          </p>
          <div className="mt-12 grid gap-8 text-base leading-relaxed text-mist md:grid-cols-2 md:text-lg">
            {about.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          <p className="mt-14 border-l-2 border-accent pl-6 font-display text-2xl leading-snug text-paper italic md:text-3xl">
            {about.mission}
          </p>
        </div>
      </div>
    </section>
  )
}
