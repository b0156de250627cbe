// Client logo wall: 15 logos, 3 across on phones and 5 across from tablets up.
import { clients } from './content.ts'

export function Clients() {
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
          {clients.map((client) => (
            <li
              key={client.name}
              className="grid place-items-center bg-ink-950 px-3 py-6 md:px-6 md:py-10"
            >
              <img
                src={client.logo}
                alt={client.name}
                width={client.width}
                height={client.height}
                loading="lazy"
                decoding="async"
                className="h-auto w-full max-w-40 opacity-55 transition-opacity duration-300 hover:opacity-100"
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
