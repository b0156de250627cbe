// What the server and the web app agree on about the public pages: which paths the dashboard's
// app draws, how many works the landing page shows first, and where the server puts a page's
// data. No imports: the public page's first script carries this file.

/**
 * Every path the dashboard's app has a page for (sign-in, password reset and the dashboard),
 * the one list: web/src/app/router.tsx builds its routes from these, the server answers them
 * with the app's shell (status 200) and the browser loads the app for them. `$name` is one
 * segment of any value. Any other path is the landing page, with status 404 unless it is `/`.
 */
export const APP_PATHS = {
  login: '/login',
  signIn: '/auth/signin',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password/$token',
  resetNoToken: '/auth/reset-password',
  legacyReset: '/reset-password/$token',
  overview: '/dashboard',
  upload: '/dashboard/upload',
  manage: '/dashboard/manage',
  admins: '/dashboard/admins',
  site: '/dashboard/site',
  activity: '/dashboard/activity',
  review: '/dashboard/videos/$id/review',
} as const

const APP_PATH = new RegExp(
  `^(${Object.values(APP_PATHS)
    .map((path) => path.replace(/\$\w+/g, '[^/]+'))
    .join('|')})/?$`,
)

/** Whether the dashboard's app draws `pathname` (decoded or not: a parameter is any segment). */
export const isAppPath = (pathname: string) => APP_PATH.test(pathname)

/** How many works the landing page shows first (server-rendered) and asks for at a time. */
export const LANDING_PAGE_SIZE = 12

/** The id of the `<script type="application/json">` holding a server-rendered page's data. */
export const PAGE_DATA_ID = 'page-data'

/**
 * What a public player says when neither the sources its page named nor the work's current ones
 * play (a work hidden, deleted or being replaced): the tiles, the phone modal, a work's page, the
 * embed (docs/public-site.md#when-a-video-cannot-play).
 */
export const CANNOT_PLAY = "This video can't be played right now."
