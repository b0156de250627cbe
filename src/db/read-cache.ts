// Answers of read queries kept until the next write. One process serves the site and every write
// goes through its services, so `invalidate()` after each commit keeps the cache exact. A read
// that began before a write finished is not stored: its answer may predate that write.
export class ReadCache {
  private answers = new Map<string, unknown>()
  private generation = 0
  constructor(
    private readonly maxEntries = 200,
    /** Told of every invalidation, after the answers are gone. */
    private readonly onInvalidate?: () => void,
  ) {}

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.answers.has(key)) return this.answers.get(key) as T
    const started = this.generation
    const value = await load()
    if (started === this.generation) {
      // Keys come from request input (page, limit): bounded so no client can grow it at will.
      if (this.answers.size >= this.maxEntries) this.answers.clear()
      this.answers.set(key, value)
    }
    return value
  }

  /** Changes with every invalidation: lets callers keep derived copies (e.g. encoded answers). */
  get version(): number {
    return this.generation
  }

  invalidate(): void {
    this.generation++
    this.answers.clear()
    this.onInvalidate?.()
  }
}
