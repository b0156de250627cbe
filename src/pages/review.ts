// /r/<token>: a private review link's page (docs/public-site.md,
// docs/decisions/063-review-links-hmac-tokens-hashed-path-scoped-cookie.md). The work's title,
// description and player with the studio's name and mark, nothing else of the site; never indexed,
// never cached by anyone but the one browser. A password comes first when the link has one: a right
// one sets a cookie for this link's path only. The page's media is under the link's path too
// (/r/<token>/media/…), so every playlist and segment asks the link again: a revoked or expired
// link stops the next segment of a player already playing
// (docs/decisions/064-a-hidden-works-media-by-set-lookup-signed-prefixes-and-link-paths.md). The
// page offers every ready version of the work (docs/review.md#versions), the current one first
// in its player; an earlier version's streams answer under the same media path. An
// expired or revoked link answers 410 with a plain page; an unknown token 404, padded so both take
// as long as a known one. The master is never named or served here: until the work's streams exist
// the page says it is being prepared (and reloads itself), and a failed work's page says it cannot
// be played.
import type { ReviewLinkRow } from '../../db/schema.ts'
import { BRAND } from '../contract/brand.ts'
import { escapeHtml } from '../contract/html.ts'
import { reviewLinkGoneMessage } from '../contract/review-link.ts'
import { readCapped } from '../http/body.ts'
import { firstSegment, methodNotAllowed, servePrivate } from '../media/serve.ts'
import { type PlayableVideo, playable, type ReviewLinksService } from '../review-links/links.ts'
import type { ReviewNotesService } from '../review-notes/notes.ts'
import type { MediaStore } from '../storage/store.ts'
import type { CaptionsLookup } from '../videos/captions.ts'
import { moveMediaUrls, type PublicVideoView } from '../videos/index.ts'
import type { PublicPages } from './public.ts'
import { createReviewNotePaths, NOTES_PATH } from './review-notes.ts'

const REVIEW_PATH = /^\/r\/([^/]+)(?:\/(media\/.+|state|wait\.js|notes(?:\/[^/]+)?))?\/?$/
export const PASS_COOKIE = 'review_pass'
/** Every refusal and every page takes at least this long: a known token's work hides in it. */
export const ANSWER_FLOOR_MS = 40
const FORM_LIMIT = 4096
const NOT_FOUND_MESSAGE = 'This link does not exist. Check the address, or ask the studio for it.'

type Deps = {
  links: ReviewLinksService
  notes: ReviewNotesService
  /** The caption tracks of a stream folder (its master's SUBTITLES group). */
  captions: CaptionsLookup
  pages: Pick<PublicPages, 'review'>
  store: MediaStore
  /** https in production: the cookie is then Secure. */
  publicUrl: string
}

const PRIVATE = 'private, no-store'

function html(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': PRIVATE,
      'X-Robots-Tag': 'noindex, nofollow',
      'Referrer-Policy': 'no-referrer',
      ...headers,
    },
  })
}

/** A small page of its own: the studio's name and a message (or the password form). */
function plainPage(title: string, content: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${escapeHtml(title)} — ${escapeHtml(BRAND.name)}</title>${head}
    <style>
      body{margin:0;min-height:100vh;display:grid;place-items:center;background:#09090a;color:#f4f1ea;font:16px/1.5 system-ui,sans-serif}
      main{max-width:26rem;padding:2rem 1.5rem}
      .brand{font-size:.8rem;letter-spacing:.2em;text-transform:uppercase;color:#b9b4aa}
      h1{font-size:1.5rem;margin:.5rem 0 1rem}
      label{display:block;margin:1rem 0 .25rem}
      input{box-sizing:border-box;width:100%;padding:.6rem .75rem;border-radius:.375rem;border:1px solid #6b665e;background:#17171a;color:inherit;font:inherit}
      button{margin-top:1rem;padding:.6rem 1.25rem;border:0;border-radius:999px;background:#f2c14e;color:#09090a;font:inherit;font-weight:600;cursor:pointer}
      a{color:#f2c14e}
      input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #f2c14e;outline-offset:2px}
      .error{color:#ffb4a8}
    </style>
  </head>
  <body>
    <main>
      <p class="brand">${escapeHtml(BRAND.name)}</p>
      ${content}
    </main>
  </body>
</html>
`
}

const message = (title: string, text: string, head = '') =>
  plainPage(title, `<h1>${escapeHtml(title)}</h1>\n      <p>${escapeHtml(text)}</p>`, head)

/** How often the page of a work still being prepared asks whether it can play yet. */
export const PREPARING_POLL_SECONDS = 15

/**
 * The script of that page (our own origin's, as the policy wants; no inline script): it asks the
 * link's state now and then, and reloads the page once the work is no longer being prepared.
 * A reload rather than a `<meta http-equiv="refresh">`, which would pull the page from under a
 * reader every time, not only once there is something new.
 */
const WAIT_SCRIPT = `(() => {
  const state = location.pathname.replace(/\\/+$/, '') + '/state'
  const ask = () =>
    fetch(state, { cache: 'no-store', credentials: 'same-origin' })
      // Gone, or no longer this browser's to see: the reload shows why. A fault: ask again.
      .then((res) => (res.ok ? res.json() : res.status < 500 ? { state: res.status } : null))
      .then((answer) => {
        if (answer && answer.state !== 'preparing') location.reload()
        else setTimeout(ask, ${PREPARING_POLL_SECONDS * 1000})
      })
      .catch(() => setTimeout(ask, ${PREPARING_POLL_SECONDS * 1000}))
  setTimeout(ask, ${PREPARING_POLL_SECONDS * 1000})
})()
`

/**
 * The page of a link whose work cannot play yet (no streams) or at all (failed): it says so and
 * names no file of the work. While it is being prepared the page asks by itself (WAIT_SCRIPT),
 * so it turns into the player once the streams exist without the client having to guess.
 */
function notPlayable(video: PublicVideoView, token: string): Response {
  if (video.status === 'failed') {
    return html(
      message(
        'Cannot be played',
        `“${video.title}” cannot be played. Please let the studio know; this link will show it once it is fixed.`,
      ),
      200,
    )
  }
  const title = 'Still being prepared'
  return html(
    plainPage(
      title,
      `<h1>${title}</h1>
      <p>“${escapeHtml(video.title)}” is still being prepared for playback. Try again in a few minutes: this page shows the player by itself once it is ready.</p>
      <p><a href="/r/${escapeHtml(token)}">Check again</a></p>`,
      `\n    <script src="/r/${escapeHtml(token)}/wait.js" defer></script>`,
    ),
    200,
    { 'Retry-After': String(PREPARING_POLL_SECONDS) },
  )
}

/** Where the work of a link stands, for the waiting page's script. */
const stateOfWork = (video: PublicVideoView) =>
  playable(video) ? 'ready' : video.status === 'failed' ? 'failed' : 'preparing'

function passwordForm(token: string, error?: string): string {
  const errorLine = error
    ? `<p class="error" id="password-error" role="alert">${escapeHtml(error)}</p>`
    : ''
  return plainPage(
    'Password needed',
    `<h1>Password needed</h1>
      <p>The studio protected this preview with a password.</p>
      <form method="post" action="/r/${escapeHtml(token)}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required${error ? ' aria-invalid="true" aria-describedby="password-error"' : ''} />
        ${errorLine}
        <button type="submit">Open</button>
      </form>`,
  )
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** The page's data: its media under the link's own path, and no public address of the work. */
function underLink(video: PlayableVideo, token: string): PublicVideoView {
  const move = (url: string) => (url.startsWith('/media/') ? `/r/${token}${url}` : url)
  // The MP4 the streams made, never the master.
  return { ...moveMediaUrls(video, move), videoUrl: move(video.mp4Url), slug: '' }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function createReviewPages(deps: Deps) {
  const secure = deps.publicUrl.startsWith('https:')
  const notePaths = createReviewNotePaths({ links: deps.links, notes: deps.notes })

  function passCookie(token: string, link: ReviewLinkRow, value: string): string {
    const parts = [
      `${PASS_COOKIE}=${value}`,
      `Path=/r/${token}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(secure ? ['Secure'] : []),
    ]
    // Valid as long as the link; a link that never expires keeps it for the browser's session.
    if (link.expiresAt) parts.push(`Expires=${link.expiresAt.toUTCString()}`)
    return parts.join('; ')
  }

  async function page(
    req: Request,
    token: string,
    link: ReviewLinkRow,
    address: () => string,
  ): Promise<Response> {
    const work = await deps.links.work(link)
    if (!work) return gone()
    if (!deps.links.hasPass(link, cookieOf(req, PASS_COOKIE))) {
      return html(passwordForm(token), 200)
    }
    const video = work.video
    // Not an open: the client has not seen the work yet (and the page reloads while waiting).
    if (!playable(video)) return notPlayable(video, token)
    await deps.links.opened(link, address()).catch((error: unknown) => {
      // The page still opens: an uncounted open is better than a preview refused.
      console.error(`[review] recording an open failed: ${(error as Error).message}`)
    })
    const own = [
      `<title>${escapeHtml(`${video.title} — ${BRAND.name}`)}</title>`,
      '<meta name="robots" content="noindex, nofollow" />',
    ].join('\n    ')
    // Every version it offers, each with its media under the link's path as the current one.
    const versions = (await deps.links.versions(link, video)).flatMap((version) =>
      playable(version.video) ? [{ ...version, video: underLink(version.video, token) }] : [],
    )
    const body = await deps.pages.review(
      { kind: 'review', video: underLink(video, token), versions },
      own,
    )
    if (body === null) {
      return html(message('Not available', 'This page cannot be shown right now.'), 503)
    }
    return html(body, 200)
  }

  async function submit(
    req: Request,
    token: string,
    link: ReviewLinkRow,
    address: () => string,
  ): Promise<Response> {
    const back = { Location: `/r/${token}` }
    if (!link.passwordHash) return new Response(null, { status: 303, headers: back })
    let password = ''
    try {
      password = new URLSearchParams(await readCapped(req, FORM_LIMIT)).get('password') ?? ''
    } catch {
      return html(passwordForm(token, 'That could not be read. Please try again.'), 400)
    }
    const checked = await deps.links.checkPassword(link, password, address())
    if (checked.ok) {
      return new Response(null, {
        status: 303,
        headers: {
          ...back,
          'Set-Cookie': passCookie(token, link, checked.cookie),
          'Cache-Control': PRIVATE,
        },
      })
    }
    if (checked.busy) {
      return html(passwordForm(token, 'Too many tries at once. Try again in a moment.'), 429, {
        'Retry-After': String(Math.ceil((checked.retryMs ?? 1000) / 1000)),
      })
    }
    if (checked.retryMs !== undefined) {
      const minutes = Math.max(1, Math.ceil(checked.retryMs / 60_000))
      return html(
        passwordForm(
          token,
          `Too many tries. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        ),
        429,
        { 'Retry-After': String(Math.ceil(checked.retryMs / 1000)) },
      )
    }
    return html(passwordForm(token, 'That password is not right.'), 401)
  }

  async function media(req: Request, rest: string, link: ReviewLinkRow): Promise<Response> {
    const may = await deps.links.mayFetch(link, firstSegment(rest.slice('media/'.length)))
    if (may === null) return gone()
    const allowed = may && deps.links.hasPass(link, cookieOf(req, PASS_COOKIE))
    const res = allowed
      ? await servePrivate(req, rest.slice('media/'.length), deps.store, deps.captions)
      : undefined
    return res ?? new Response('Not found', { status: 404, headers: { 'Cache-Control': PRIVATE } })
  }

  /** `{ state }` of the link's work, to a holder who may see its page; not an open. */
  async function state(req: Request, link: ReviewLinkRow): Promise<Response> {
    const work = await deps.links.work(link)
    if (!work) return gone()
    if (!(await deps.links.hasPass(link, cookieOf(req, PASS_COOKIE)))) {
      return new Response('Not found', { status: 404, headers: { 'Cache-Control': PRIVATE } })
    }
    return Response.json(
      { state: stateOfWork(work.video) },
      { headers: { 'Cache-Control': PRIVATE } },
    )
  }

  const gone = () => html(message('Link expired', reviewLinkGoneMessage), 410)
  const unknown = () => html(message('Link not found', NOT_FOUND_MESSAGE), 404)

  /** The answer for `pathname`, or null when it is not under /r/. */
  return async function handleReviewPaths(
    req: Request,
    pathname: string,
    address: () => string,
  ): Promise<Response | null> {
    const match = REVIEW_PATH.exec(pathname)
    if (!match) return null
    const started = performance.now()
    const padded = async (res: Response) => {
      // A timer may fire a little early: wait again until the floor has really passed.
      for (let left = ANSWER_FLOOR_MS; left > 0; ) {
        left = ANSWER_FLOOR_MS - (performance.now() - started)
        if (left > 0) await sleep(Math.ceil(left))
      }
      return res
    }
    const [, token = '', rest] = match
    const notes = rest ? NOTES_PATH.exec(rest) : null
    if (notes) {
      // Refusals padded as the page's: a known token's notes hide in the same floor.
      const found = await deps.links.resolve(token)
      const res = await notePaths.handle(req, found, notes[1], cookieOf(req, PASS_COOKIE), address)
      return found.state === 'active' ? res : padded(res)
    }
    const isRead = req.method === 'GET' || req.method === 'HEAD'
    if (!isRead && !(req.method === 'POST' && !rest)) return methodNotAllowed()
    const found = await deps.links.resolve(token)
    if (found.state === 'unknown') return padded(unknown())
    if (found.state === 'gone') return padded(gone())
    if (rest === 'wait.js') {
      return new Response(WAIT_SCRIPT, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': PRIVATE },
      })
    }
    if (rest === 'state') return state(req, found.link)
    if (rest) return media(req, rest, found.link)
    return padded(
      req.method === 'POST'
        ? await submit(req, token, found.link, address)
        : await page(req, token, found.link, address),
    )
  }
}
