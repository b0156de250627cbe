// Hero: the studio's line over an art-directed image (docs/public-site.md: a different image below
// 768 px).
import { MOBILE_QUERY } from '../ui/breakpoint.ts'
import { ArrowDownIcon } from './icons.tsx'
import { keyed } from './keys.ts'
import { SectionLink } from './section-link.tsx'
import type { PublicSite, SiteImage } from './site-content.ts'

const srcset = (image: SiteImage, type: 'image/avif' | 'image/webp') =>
  image.files
    .filter((file) => file.type === type)
    .map((file) => `${file.url} ${file.width}w`)
    .join(', ')

/**
 * The hero's <picture> sources in the order the browser tries them: the mobile image below the
 * breakpoint, then the wide one, AVIF before WebP. The server's render preloads the first of each.
 */
export function heroSources(images: PublicSite['hero']['images']) {
  return [
    { media: MOBILE_QUERY, type: 'image/avif', srcSet: srcset(images.mobile, 'image/avif') },
    { media: MOBILE_QUERY, type: 'image/webp', srcSet: srcset(images.mobile, 'image/webp') },
    { media: undefined, type: 'image/avif', srcSet: srcset(images.wide, 'image/avif') },
    { media: undefined, type: 'image/webp', srcSet: srcset(images.wide, 'image/webp') },
  ] as const
}

/** The hero's content from the server; null when it could not be loaded (the frame stays). */
export function Hero({ hero }: { hero: PublicSite['hero'] | null }) {
  const wide = hero?.images.wide
  const narrow = hero?.images.mobile
  // The smallest WebP of the wide image: what a browser without <picture> support draws.
  const fallback = wide?.files.find((file) => file.type === 'image/webp') ?? wide?.files[0]
  const words = hero?.line ? hero.line.split(', ') : []
  const services = hero?.services ?? []

  return (
    <section
      aria-labelledby="hero-heading"
      className="relative isolate flex min-h-[max(36rem,100svh)] items-end overflow-hidden bg-ink-950"
    >
      {/* Same sources, sizes and media as the server render's preloads, so the browser reuses
          them. Never lazy: this is the largest paint. */}
      {hero && wide && narrow && fallback ? (
        <picture>
          {heroSources(hero.images).map((source) => (
            <source key={`${source.media}${source.type}`} {...source} sizes="100vw" />
          ))}
          <img
            src={fallback.url}
            alt=""
            width={fallback.width}
            height={Math.round((fallback.width * wide.height) / wide.width)}
            fetchPriority="high"
            decoding="async"
            className="absolute inset-0 -z-10 size-full object-cover object-[70%_50%] md:object-center"
          />
        </picture>
      ) : null}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-t from-ink-950 via-ink-950/30 to-ink-950/10"
      />

      <div className="mx-auto w-full max-w-7xl px-5 pt-32 pb-16 sm:px-8 md:pb-24">
        <p className="mb-6 flex flex-wrap gap-x-3 gap-y-1 text-[0.6875rem] font-medium tracking-[0.28em] text-mist uppercase">
          {keyed(services, (s) => s).map(([key, service], index) => (
            <span key={key} className="flex items-center gap-3">
              {service}
              {index < services.length - 1 && (
                <span aria-hidden="true" className="size-1 rounded-full bg-accent" />
              )}
            </span>
          ))}
        </p>
        <h1
          id="hero-heading"
          className="max-w-[15ch] font-display text-[clamp(3rem,11vw,8.5rem)] leading-[0.95] tracking-[-0.02em] text-paper text-balance"
        >
          {keyed(words, (w) => w).map(([key, part], index) => (
            <span key={key} className={index === words.length - 1 ? 'text-accent italic' : ''}>
              {index < words.length - 1 ? `${part}, ` : part}
            </span>
          ))}
        </h1>
        <SectionLink
          target="work"
          className="group mt-12 inline-flex items-center gap-3 rounded-full border border-white/20 py-3 pr-6 pl-4 text-[0.8125rem] font-medium tracking-[0.2em] text-paper uppercase transition-colors hover:border-accent hover:text-accent focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
        >
          <span className="grid size-7 place-items-center rounded-full bg-accent text-ink-950 transition-transform group-hover:translate-y-0.5 motion-reduce:transition-none">
            <ArrowDownIcon width={16} height={16} />
          </span>
          See the work
        </SectionLink>
      </div>
    </section>
  )
}
