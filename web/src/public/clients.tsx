// Client logo wall: 3 across on phones and 5 across from tablets up (15 by default,
// docs/public-site.md).
import { keyed } from './keys.ts'
import type { PublicSite } from './site-content.ts'

// Every logo is drawn in the same 5:2 box, whatever the shape of its artwork (object-contain),
// so the grid's size is known before any logo loads.
const BOX = { width: 240, height: 96 }

export function Clients({ clients }: { clients: PublicSite['clients'] }) {
  if (clients.length === 0) return null
  return (
    <section aria-labelledby="clients-heading" className="border-y border-white/5 bg-ink-950">
      <div className="mx-auto max-w-7xl px-5 py-20 sm:px-8 md:py-28">
        <h2
          id="clients-heading"
          className="mb-12 text-center text-[0.6875rem] font-medium tracking-[0.32em] text-mist uppercase md:mb-16"
        >
          Clients
        </h2>
        <ul className="grid grid-cols-3 gap-px overflow-hidden rounded-2xl bg-white/5 md:grid-cols-5">
          {keyed(clients, (c) => `${c.name}|${c.logo.id}`).map(([key, client]) => (
            <li key={key} className="grid place-items-center bg-ink-950 px-3 py-6 md:px-6 md:py-10">
              <img
                src={client.logo.files[0]?.url}
                alt={client.name}
                width={BOX.width}
                height={BOX.height}
                loading="lazy"
                decoding="async"
                className="aspect-[5/2] h-auto w-full max-w-40 object-contain opacity-55 transition-opacity duration-300 hover:opacity-100"
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
