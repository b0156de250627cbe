// The review page's notes over /r/<token>/notes (docs/review.md), and what this browser keeps
// for the link: the secret the server gave with its first note (it alone edits or deletes them)
// and the client's name, asked once per link on this device.
import type { ClientNoteView } from '@contract/review-note.ts'

export type ClientNote = ClientNoteView

/** The link's own path (/r/<token>), from the page's address. */
const linkPath = () => window.location.pathname.replace(/\/+$/, '')
const storageKey = () => `review-notes:${linkPath()}`

export type Kept = { device?: string; name?: string }

export function kept(): Kept {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(storageKey()) ?? '{}')
    return value && typeof value === 'object' ? (value as Kept) : {}
  } catch {
    return {}
  }
}

export function keep(patch: Kept): void {
  try {
    window.localStorage.setItem(storageKey(), JSON.stringify({ ...kept(), ...patch }))
  } catch {
    // Private mode without storage: the name is asked again next time, and the device's notes
    // can no longer be edited from a new page; nothing else changes.
  }
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string; field?: string }

async function call<T>(method: string, rest: string, body?: unknown): Promise<Outcome<T>> {
  const headers: Record<string, string> = {}
  const device = kept().device
  if (device) headers['x-review-device'] = device
  if (body !== undefined) headers['content-type'] = 'application/json'
  try {
    const res = await fetch(`${linkPath()}/notes${rest}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    })
    const answer = (await res.json().catch(() => null)) as {
      status?: string
      data?: T
      message?: string
      field?: string
    } | null
    if (res.ok && answer?.data !== undefined) return { ok: true, data: answer.data }
    return {
      ok: false,
      message: answer?.message ?? 'The notes could not be reached. Please try again.',
      ...(answer?.field ? { field: answer.field } : {}),
    }
  } catch {
    return {
      ok: false,
      message: 'The notes could not be reached. Check the connection and try again.',
    }
  }
}

export const listNotes = () => call<{ notes: ClientNote[] }>('GET', '')

export async function addNote(input: {
  /** The version the note is on; absent: the work's current one. */
  versionId?: string
  at: number
  until: number | null
  text: string
  name: string
}): Promise<Outcome<{ note: ClientNote }>> {
  const made = await call<{ note: ClientNote; device: string | null }>('POST', '', input)
  // The first note of this device brings its secret: kept before anything else happens.
  if (made.ok && made.data.device) keep({ device: made.data.device })
  return made
}

export const editNote = (
  id: string,
  input: { at?: number; until?: number | null; text?: string },
) => call<{ note: ClientNote }>('PATCH', `/${encodeURIComponent(id)}`, input)

export const deleteNote = (id: string) =>
  call<{ deleted: true }>('DELETE', `/${encodeURIComponent(id)}`)
