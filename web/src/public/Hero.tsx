// Hero: the studio's line over an art-directed image (SPEC §2: a different image below 768 px).
import { type HeroImage, hero } from './content.ts'
import { ArrowDownIcon } from './icons.tsx'
import { SectionLink } from './SectionLink.tsx'

const srcset = (images: HeroImage[], format: 'avif' | 'webp') =>
  images.map((image) => `${image[format]} ${image.width}w`).join(', ')

export function Hero() {
  const { narrow, wide } = hero.images
  const fallback = wide[0]!
  const words = hero.line.split(', ')

  return (
    <section
      aria-labelledby="hero-heading"
      className="relative isolate flex min-h-[max(36rem,100svh)] items-end overflow-hidden bg-ink-950"
    >
      {/* Same sources, sizes and media as the preloads in index.html, so the browser reuses them.
          Never lazy: this is the largest paint. */}
      <picture>
        <source
          media="(max-width: 767px)"
          type="image/avif"
          srcSet={srcset(narrow, 'avif')}
          sizes="100vw"
        />
        <source
          media="(max-width: 767px)"
          type="image/webp"
          srcSet={srcset(narrow, 'webp')}
          sizes="100vw"
        />
        <source type="image/avif" srcSet={srcset(wide, 'avif')} sizes="100vw" />
        <source type="image/webp" srcSet={srcset(wide, 'webp')} sizes="100vw" />
        <img
          src={fallback.webp}
          alt=""
          width={fallback.width}
          height={Math.round((fallback.width * 9) / 16)}
          fetchPriority="high"
          className="absolute inset-0 -z-10 size-full object-cover object-[70%_50%] md:object-center"
        />
      </picture>
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-t from-ink-950 via-ink-950/30 to-ink-950/10"
      />

      <div className="mx-auto w-full max-w-7xl px-5 pt-32 pb-16 sm:px-8 md:pb-24">
        <p className="mb-6 flex flex-wrap gap-x-3 gap-y-1 text-[0.6875rem] font-medium tracking-[0.28em] text-mist uppercase">
          {hero.services.map((service, index) => (
            <span key={service} className="flex items-center gap-3">
              {service}
              {index < hero.services.length - 1 && (
                <span aria-hidden="true" className="size-1 rounded-full bg-accent" />
              )}
            </span>
          ))}
        </p>
        <h1
          id="hero-heading"
          className="max-w-[15ch] font-display text-[clamp(3rem,11vw,8.5rem)] leading-[0.95] tracking-[-0.02em] text-paper text-balance"
        >
          {words.map((part, index) => (
            <span key={part} className={index === words.length - 1 ? 'text-accent italic' : ''}>
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
