// How many uploads one session may send at once. The dashboard sends a video's three files in
// parallel; more than that from one session is a runaway client, and each upload holds a
// socket and disk bandwidth the other admins need.
import { AppError } from '../errors.ts'

export const MAX_UPLOADS_PER_SESSION = 4
export const TOO_MANY_UPLOADS = 'Too many uploads at once. Please wait for one to finish.'

export class UploadSlots {
  private inUse = new Map<string, number>()
  constructor(private readonly max = MAX_UPLOADS_PER_SESSION) {}

  /** Takes a slot for the session, or throws 429. Call the returned function when done. */
  acquire(sessionId: string): () => void {
    const used = this.inUse.get(sessionId) ?? 0
    if (used >= this.max) throw new AppError('TOO_MANY_REQUESTS', TOO_MANY_UPLOADS)
    this.inUse.set(sessionId, used + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.inUse.get(sessionId) ?? 1) - 1
      if (left > 0) this.inUse.set(sessionId, left)
      else this.inUse.delete(sessionId)
    }
  }
}
