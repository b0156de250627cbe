// A work's versions over tRPC (docs/review.md#versions); the REST adapter
// (src/api/rest/versions.ts) calls these same procedures. The list is read fresh each time: a
// version's progress is written by the pipeline, which moves no cached answer.
import { addVersionSchema, listVersionsSchema, versionRefSchema } from '../../contract/version.ts'
import { type Answer, quoted, recorded } from '../activity.ts'
import { authedProcedure, router } from '../trpc.ts'

export const versionsRouter = router({
  /** Every version of the work, oldest first: number, date, duration, uploader, state, current. */
  list: authedProcedure
    .input(listVersionsSchema)
    .query(({ ctx, input }) => ctx.services.videos.listVersions(input.id)),

  /**
   * One version with what plays it (the work's review page): `version` as the list has it,
   * `video` the work as an admin's answer, with that version's streams.
   */
  get: authedProcedure.input(versionRefSchema).query(async ({ ctx, input }) => {
    const { videos } = ctx.services
    const [version, video] = await Promise.all([
      videos.findVersion(input.id, input.versionId),
      videos.versionVideo(input.id, input.versionId),
    ])
    return { version, video }
  }),

  /** A new version from a finished upload of kind video; current once its processing is done. */
  add: authedProcedure
    .input(addVersionSchema)
    .meta(
      recorded<unknown, Answer<'videos', 'addVersion'>>({
        after: ({ output }) => ({
          kind: 'version.create',
          summary: `Uploaded version ${output.version.number} of ${quoted(output.title)}`,
          target: { id: output.version.videoId, title: output.title },
        }),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.videos.addVersion(ctx.session.user._id, input)),

  /** An older ready version current again; `changed` false when it already was. */
  makeCurrent: authedProcedure
    .input(versionRefSchema)
    .meta(
      recorded<unknown, Answer<'videos', 'makeCurrent'>>({
        after: ({ output }) =>
          output.changed
            ? {
                kind: 'version.current',
                summary: `Made version ${output.version.number} of ${quoted(output.title)} current`,
                target: { id: output.version.videoId, title: output.title },
              }
            : null,
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.videos.makeCurrent(input.id, input.versionId)),

  /** Deletes a version that is not current, with its media. */
  delete: authedProcedure
    .input(versionRefSchema)
    .meta(
      recorded<{ id: string }, Answer<'videos', 'removeVersion'>>({
        after: ({ input, output }) => ({
          kind: 'version.delete',
          summary: `Deleted version ${output.number} of ${quoted(output.title)}`,
          target: { id: input.id, title: output.title },
        }),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.videos.removeVersion(input.id, input.versionId)),
})
