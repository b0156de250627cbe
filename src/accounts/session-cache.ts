// Validated sessions kept in memory for a short while, so an authenticated read does not cost two
// database queries. Safe because one process serves the site: every change that ends or alters a
// session (logout, password reset, admin edit or delete) goes through this process and forgets
// the entries it affects; the short life bounds anything else (e.g. a manual database edit).
export type CachedSession<S> = { value: S; userId: string; expiresAt: number; checkedAt: number }

export class SessionCache<S> {
  private entries = new Map<string, CachedSession<S>>()
  private forgets = 0
  constructor(
    private readonly freshMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(id: string, now = Date.now()): S | undefined {
    const e = this.entries.get(id)
    if (!e) return undefined
    if (now - e.checkedAt > this.freshMs || now >= e.expiresAt) {
      this.entries.delete(id)
      return undefined
    }
    return e.value
  }

  /** Changes whenever something is forgotten; see `set`. */
  get generation(): number {
    return this.forgets
  }

  /**
   * Keeps a checked session. `checkedIn`, the generation read before the database check began,
   * drops the entry if anything was forgotten meanwhile: a logout racing a check must not be
   * undone by the check's older answer.
   */
  set(
    id: string,
    entry: Omit<CachedSession<S>, 'checkedAt'>,
    now = Date.now(),
    checkedIn = this.forgets,
  ): void {
    if (checkedIn !== this.forgets) return
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest.
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(id, { ...entry, checkedAt: now })
  }

  forget(id: string): void {
    this.forgets++
    this.entries.delete(id)
  }

  forgetUser(userId: string): void {
    this.forgets++
    for (const [id, e] of this.entries) if (e.userId === userId) this.entries.delete(id)
  }
}
