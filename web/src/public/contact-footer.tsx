// Contact footer: the two people to call or write to, with real tel:/mailto: links.
import { BRAND, BrandMark } from '../brand/brand.tsx'
import { contact, telHref } from './content.ts'
import { MailIcon, PhoneIcon } from './icons.tsx'
import { keyed } from './keys.ts'
import type { PublicSite } from './site-content.ts'

const linkClass =
  'inline-flex items-center gap-3 rounded-sm text-paper/90 transition-colors hover:text-accent focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent'

export function ContactFooter({ content }: { content: PublicSite['contact'] | null }) {
  return (
    <footer
      id="contact"
      tabIndex={-1}
      className="scroll-mt-16 bg-ink-950 outline-none md:scroll-mt-20"
    >
      <div className="mx-auto max-w-7xl px-5 pt-24 pb-10 sm:px-8 md:pt-32">
        <div className="grid gap-14 md:grid-cols-12">
          <div className="md:col-span-5">
            <h2
              id="contact-heading"
              className="font-display text-6xl tracking-tight text-paper md:text-8xl"
            >
              {contact.heading}
            </h2>
            {content?.intro ? <p className="mt-6 max-w-sm text-mist">{content.intro}</p> : null}
          </div>
          <ul className="grid gap-10 sm:grid-cols-2 md:col-span-7 md:pt-4">
            {keyed(content?.team ?? [], (m) => `${m.name}|${m.email}`).map(([key, person]) => (
              <li key={key} className="border-t border-accent/60 pt-6">
                <p className="text-[0.6875rem] font-medium tracking-[0.28em] text-accent uppercase">
                  {person.title}
                </p>
                <p className="mt-3 font-display text-3xl text-paper">{person.name}</p>
                <address className="mt-6 flex flex-col gap-3 not-italic">
                  <a href={telHref(person.phone)} className={linkClass}>
                    <PhoneIcon className="text-accent" />
                    <span>
                      <span className="sr-only">Phone: </span>
                      {person.phone}
                    </span>
                  </a>
                  <a href={`mailto:${person.email}`} className={linkClass}>
                    <MailIcon className="text-accent" />
                    <span>
                      <span className="sr-only">E-mail: </span>
                      {person.email}
                    </span>
                  </a>
                </address>
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-24 flex flex-col gap-4 border-t border-white/10 pt-8 text-xs tracking-wide text-mist sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2">
            <BrandMark width={18} height={18} className="text-accent" />
            {BRAND.name}
            {content?.address ? ` · ${content.address}` : ''}
          </p>
          <p>
            © {new Date().getFullYear()} {BRAND.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  )
}
