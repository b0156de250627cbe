// The app's routes, code-based. Each page's path comes from APP_PATHS (src/contract/public-page.ts),
// the one list the server and the first script also read to know which paths are the app's: a
// page added here with a path of its own would answer 404 from the server. The router's context
// carries the query cache, the tRPC query utilities and the auth state (mount.tsx). Dashboard pages sit under a pathless layout whose
// beforeLoad sends signed-out visitors to /auth/signin with the place they wanted in `redirect`;
// super admins' pages show 'Not allowed' to anyone else from their own beforeLoad.

import { ACTIVITY_PAGE_SIZE } from '@contract/activity.ts'
import { documentTitle } from '@contract/brand.ts'
import { APP_PATHS } from '@contract/public-page.ts'
import type { QueryClient } from '@tanstack/react-query'
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  notFound,
  Outlet,
  redirect,
} from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { ActivityNotAllowed, ActivityPage } from './activity/activity-page.tsx'
import { ADMINS_STALE_MS, AdminsPage } from './admins/admins-page.tsx'
import { ForgotPasswordPage } from './auth/forgot-password-page.tsx'
import { signInSearchSchema } from './auth/redirect.ts'
import { MissingResetToken, ResetPasswordPage } from './auth/reset-password-page.tsx'
import { SignInPage } from './auth/sign-in-page.tsx'
import { NotAllowed } from './components/not-allowed.tsx'
import { DashboardLayout } from './layout/dashboard-layout.tsx'
import { OverviewPage, STATS_STALE_MS } from './pages/overview-page.tsx'
import { ReviewPage } from './review/review-page.tsx'
import { SitePage } from './site/site-page.tsx'
import { currentListInput } from './stores/video-store.ts'
import type { TrpcUtils } from './trpc.ts'
import { LIST_CACHE_MS, LIST_STALE_MS, ManagePage } from './videos/manage-page.tsx'
import { UploadPage } from './videos/upload-page.tsx'

const PublicPage = lazy(() =>
  import('../public/public-page.tsx').then((m) => ({ default: m.PublicPage })),
)

function LazyPublicPage() {
  return (
    <Suspense fallback={null}>
      <PublicPage />
    </Suspense>
  )
}

/** The stored auth as the guards read it, at each navigation (it changes between them). */
export interface RouterAuth {
  /** A user and a token are stored (docs/dashboard.md). */
  isAuthenticated(): boolean
  isSuperAdmin(): boolean
}

export interface RouterContext {
  queryClient: QueryClient
  trpc: TrpcUtils
  auth: RouterAuth
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: LazyPublicPage,
})

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: LazyPublicPage,
})
const unknownRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  component: LazyPublicPage,
})

// Both sign-in paths (docs/dashboard.md) under one pathless route: one search schema, one guard.
const signInLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'sign-in',
  validateSearch: signInSearchSchema,
  beforeLoad: ({ context }) => {
    if (context.auth.isAuthenticated()) throw redirect({ to: '/dashboard', replace: true })
  },
})

const loginRoute = createRoute({
  getParentRoute: () => signInLayout,
  path: APP_PATHS.login,
  staticData: { title: 'Sign In' },
  component: SignInPage,
})

const signInRoute = createRoute({
  getParentRoute: () => signInLayout,
  path: APP_PATHS.signIn,
  staticData: { title: 'Sign In' },
  component: SignInPage,
})

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: APP_PATHS.forgotPassword,
  staticData: { title: 'Forgot Password' },
  component: ForgotPasswordPage,
})

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: APP_PATHS.resetPassword,
  staticData: { title: 'Set New Password' },
  component: ResetPasswordPage,
})

const resetNoTokenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: APP_PATHS.resetNoToken,
  component: MissingResetToken,
})

const legacyResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: APP_PATHS.legacyReset,
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/auth/reset-password/$token', params, replace: true })
  },
})

const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'authed',
  beforeLoad: ({ context, location }) => {
    if (!context.auth.isAuthenticated()) {
      throw redirect({ to: '/auth/signin', search: { redirect: location.href } })
    }
  },
  component: DashboardLayout,
})

// Super admins' pages. Anyone else who types the URL sees the route's 'Not allowed' in place:
// notFound() renders the route's notFoundComponent inside the layout, where a thrown error
// would go through an error boundary, which React reports as a console error. The server
// refuses them too (superAdminProcedure), and the pages show the same on a 403.
const superAdminOnly = ({ context }: { context: RouterContext }) => {
  if (!context.auth.isSuperAdmin()) throw notFound()
}

// Loaders start the page's queries, with the page's own options, and do not wait for them: a hover
// preload (defaultPreload: 'intent') fetches the data before the click, and the page still shows
// its own loading and error states (docs/dashboard.md: skeleton, spinner, 'Error'), which a loader
// that awaited would replace with the router's.

const overviewRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.overview,
  staticData: { title: 'Dashboard' },
  loader: ({ context }) => {
    void context.trpc.videos.stats.prefetch(undefined, { staleTime: STATS_STALE_MS })
  },
  component: OverviewPage,
})
const uploadRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.upload,
  staticData: { title: 'Upload Video' },
  component: UploadPage,
})
const manageRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.manage,
  staticData: { title: 'Manage Videos' },
  loader: ({ context }) => {
    // The page shown is kept in 'video-store' (docs/dashboard.md), not in the URL.
    void context.trpc.videos.list.prefetch(currentListInput(), {
      staleTime: LIST_STALE_MS,
      gcTime: LIST_CACHE_MS,
    })
  },
  component: ManagePage,
})
const adminsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.admins,
  staticData: { title: 'Admin Management' },
  beforeLoad: superAdminOnly,
  loader: ({ context }) => {
    void context.trpc.admins.list.prefetch(undefined, { staleTime: ADMINS_STALE_MS })
  },
  component: AdminsPage,
  notFoundComponent: () => <NotAllowed />,
})

const siteRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.site,
  staticData: { title: 'Site' },
  loader: ({ context }) => {
    void context.trpc.site.get.prefetch()
  },
  component: SitePage,
})
const activityRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.activity,
  staticData: { title: 'Activity' },
  beforeLoad: superAdminOnly,
  loader: ({ context }) => {
    // The first page, unfiltered: what the page opens with.
    void context.trpc.activity.list.prefetch({ page: 1, limit: ACTIVITY_PAGE_SIZE })
    void context.trpc.activity.people.prefetch()
  },
  component: ActivityPage,
  notFoundComponent: ActivityNotAllowed,
})

const reviewRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: APP_PATHS.review,
  staticData: { title: 'Review' },
  loader: ({ context, params }) => {
    void context.trpc.videos.get.prefetch({ id: params.id })
    void context.trpc.reviewNotes.list.prefetch({ videoId: params.id })
    void context.trpc.versions.list.prefetch({ id: params.id })
  },
  component: ReviewPage,
})

const routeTree = rootRoute.addChildren([
  indexRoute,
  signInLayout.addChildren([loginRoute, signInRoute]),
  forgotRoute,
  resetRoute,
  resetNoTokenRoute,
  legacyResetRoute,
  authedRoute.addChildren([
    overviewRoute,
    uploadRoute,
    manageRoute,
    adminsRoute,
    siteRoute,
    activityRoute,
    reviewRoute,
  ]),
  unknownRoute,
])

export function createAppRouter(context: RouterContext) {
  const router = createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders only start queries; React Query decides what is fresh, so the router keeps no
    // preloaded result of its own (TanStack Router's advice for an external cache).
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  })
  // The tab names the page and the studio (src/contract/brand.ts); a route without a title is the
  // landing page.
  router.subscribe('onResolved', () => {
    const titled = router.state.matches.findLast((match) => match.staticData.title)
    document.title = documentTitle(titled?.staticData.title)
  })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
  interface StaticDataRouteOption {
    /** The page's name in the document title. */
    title?: string
  }
}
