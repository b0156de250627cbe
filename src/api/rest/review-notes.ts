// REST paths for the notes on a work's review links (docs/review.md): the same procedures as the
// dashboard's, answers in the REST envelope with `_id` beside `id`.
import type { AdminNoteView } from '../../contract/review-note.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { route } from './route.ts'

const withId = (note: AdminNoteView) => ({ _id: note.id, ...note })

export const reviewNoteRoutes = [
  route('GET', '/api/videos/:id/notes', async ({ req, caller, params }) => {
    const search = new URL(req.url).searchParams
    const notes = await caller.reviewNotes.list({
      videoId: params.id!,
      state: (search.get('state') || undefined) as 'open' | 'resolved' | undefined,
      version: search.get('version') || undefined,
    })
    return ok({ notes: notes.map(withId) })
  }),
  route('POST', '/api/videos/:id/notes/:noteId/replies', async ({ req, caller, params }) => {
    const { text } = await readJson(req)
    const { note } = await caller.reviewNotes.reply({
      videoId: params.id!,
      noteId: params.noteId!,
      text: text as string,
    })
    return ok({ note: withId(note) }, 201)
  }),
  route('PUT', '/api/videos/:id/notes/:noteId/resolved', async ({ req, caller, params }) => {
    const { resolved } = await readJson(req)
    const { note } = await caller.reviewNotes.setResolved({
      videoId: params.id!,
      noteId: params.noteId!,
      resolved: resolved as boolean,
    })
    return ok({ note: withId(note) })
  }),
]
