// Clients' notes on a work's review links, for admins (docs/review.md): every note of every link,
// replies, and resolving or reopening. The REST adapter (src/api/rest/review-notes.ts) calls these
// same procedures. Resolutions are recorded in the activity log; clients' notes and replies are
// the conversation itself, not admin actions on the site, and are not.
import type { z } from 'zod'
import { noteTime } from '../../contract/review-note.ts'
import {
  listNotesSchema,
  replyNoteSchema,
  resolveNoteSchema,
} from '../../contract/review-note-input.ts'
import { type Answer, quoted, recorded, titleOf, unrecorded } from '../activity.ts'
import { authedProcedure, router } from '../trpc.ts'

export const reviewNotesRouter = router({
  /** In time order; `state` open or resolved, `version` a version's number. */
  list: authedProcedure
    .input(listNotesSchema)
    .query(({ ctx, input }) => ctx.services.reviewNotes.list(input)),

  reply: authedProcedure
    .input(replyNoteSchema)
    .meta(unrecorded('a reply is part of the conversation with the client, kept with the note'))
    .mutation(async ({ ctx, input }) => ({
      note: await ctx.services.reviewNotes.reply(input, ctx.session.user.username),
    })),

  /** `changed`: false when the note already was so (nothing done, nothing recorded). */
  setResolved: authedProcedure
    .input(resolveNoteSchema)
    .meta(
      recorded<z.infer<typeof resolveNoteSchema>, Answer<'reviewNotes', 'setResolved'>>({
        before: async (ctx, input) => (await ctx.services.videos.get(input.videoId)).title,
        after: ({ input, output, before }) =>
          output.changed
            ? {
                kind: input.resolved ? 'reviewNote.resolve' : 'reviewNote.reopen',
                summary: `${input.resolved ? 'Resolved' : 'Reopened'} a note by ${output.note.name} at ${noteTime(output.note)} on ${quoted(titleOf(before))}`,
                target: { id: input.videoId, title: titleOf(before) },
              }
            : null,
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.services.reviewNotes.setResolved(input, ctx.session.user.username),
    ),
})
