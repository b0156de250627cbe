// hls.js's loader with the files prefetch.ts fetched before the click: those are handed over
// from memory (a playlist whose cache says revalidate, a review link's private files, a segment
// still arriving), everything else goes to hls.js's own loader. A handed-over file reports the
// timing of its real fetch, so hls.js's bandwidth estimate sees the line as it was.
import type {
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderContext,
  LoaderStats,
} from 'hls.js'
import { type Fetched, prefetched } from './prefetch.ts'

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>

const made = new WeakMap<LoaderClass, LoaderClass>()

/** `Base` (hls.js's default loader) answering from what was prefetched first. */
export function prefetchingLoader(Base: LoaderClass): LoaderClass {
  const known = made.get(Base)
  if (known) return known
  class PrefetchingLoader implements Loader<LoaderContext> {
    private readonly inner: Loader<LoaderContext>
    private callbacks: LoaderCallbacks<LoaderContext> | null = null
    private done = false

    constructor(config: HlsConfig) {
      this.inner = new Base(config)
    }

    get context(): LoaderContext | null {
      return this.inner.context
    }
    set context(context: LoaderContext | null) {
      this.inner.context = context
    }
    get stats(): LoaderStats {
      return this.inner.stats
    }
    set stats(stats: LoaderStats) {
      this.inner.stats = stats
    }

    load(
      context: LoaderContext,
      config: LoaderConfiguration,
      callbacks: LoaderCallbacks<LoaderContext>,
    ): void {
      // A byte range is not what was fetched: only whole files are handed over.
      const kept = context.rangeEnd ? undefined : prefetched(context.url)
      if (!kept) {
        this.inner.load(context, config, callbacks)
        return
      }
      this.callbacks = callbacks
      this.inner.context = context
      void kept.then((file) => {
        if (this.done) return
        if (!file) {
          this.callbacks = null
          this.inner.load(context, config, callbacks)
          return
        }
        this.done = true
        this.handOver(file, context, callbacks)
      })
    }

    private handOver(
      file: Fetched,
      context: LoaderContext,
      callbacks: LoaderCallbacks<LoaderContext>,
    ) {
      const stats = this.inner.stats
      const bytes = file.data.byteLength
      stats.loading.start = file.start
      stats.loading.first = file.first
      stats.loading.end = file.end
      stats.loaded = bytes
      stats.total = bytes
      stats.chunkCount = 1
      // A copy: the kept bytes may be handed over again (a replay), whatever hls.js does with these.
      const data =
        context.responseType === 'arraybuffer'
          ? file.data.slice(0)
          : new TextDecoder().decode(file.data)
      callbacks.onSuccess({ url: file.url, data, code: 200 }, stats, context, null)
    }

    abort(): void {
      if (this.callbacks && !this.done) {
        this.done = true
        this.inner.stats.aborted = true
        this.callbacks.onAbort?.(this.inner.stats, this.inner.context as LoaderContext, null)
        return
      }
      this.inner.abort()
    }

    destroy(): void {
      this.done = true
      this.callbacks = null
      this.inner.destroy()
    }

    getCacheAge(): number | null {
      return this.inner.getCacheAge?.() ?? null
    }

    getResponseHeader(name: string): string | null {
      return this.inner.getResponseHeader?.(name) ?? null
    }
  }
  made.set(Base, PrefetchingLoader)
  return PrefetchingLoader
}
