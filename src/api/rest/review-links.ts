// REST paths for a work's private review links (docs/api.md): the same procedures as the
// dashboard's, answers in the REST shape with `_id` beside `id`.

import type { ReviewLinkView } from '../../contract/review-link.ts'
import { readJson } from '../../http/body.ts'
import { ok } from '../../http/respond.ts'
import { route } from './route.ts'

const withId = (link: ReviewLinkView) => ({ _id: link.id, ...link })

export const reviewLinkRoutes = [
  route('GET', '/api/videos/:id/links', async ({ caller, params }) =>
    ok({ links: (await caller.reviewLinks.list({ videoId: params.id! })).map(withId) }),
  ),
  route('POST', '/api/videos/:id/links', async ({ req, caller, params }) => {
    const { expiresAt, password, note } = await readJson(req)
    const link = await caller.reviewLinks.create({
      videoId: params.id!,
      expiresAt: expiresAt as string | null | undefined,
      password: password as string | null | undefined,
      note: note as string | null | undefined,
    })
    return ok({ link: withId(link) }, 201)
  }),
  route('DELETE', '/api/videos/:id/links/:linkId', async ({ caller, params }) => {
    const { revoked } = await caller.reviewLinks.revoke({
      videoId: params.id!,
      linkId: params.linkId!,
    })
    return ok({ revoked })
  }),
]
