// Routes of SPEC §2, code-based. Dashboard pages sit under a pathless layout whose beforeLoad
// sends signed-out visitors to /auth/signin with the place they wanted in `redirect`.

import { documentTitle } from '@shared/brand.ts'
import type { QueryClient } from '@tanstack/react-query'
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
} from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { ActivityPage } from './activity/ActivityPage.tsx'
import { AdminsPage } from './admins/AdminsPage.tsx'
import { ForgotPasswordPage } from './auth/ForgotPasswordPage.tsx'
import { MissingResetToken, ResetPasswordPage } from './auth/ResetPasswordPage.tsx'
import { safeRedirect } from './auth/redirect.ts'
import { SignInPage } from './auth/SignInPage.tsx'
import { DashboardLayout } from './layout/DashboardLayout.tsx'
import { OverviewPage } from './pages/OverviewPage.tsx'
import { SitePage } from './site/SitePage.tsx'
import { isAuthenticated } from './stores/auth.ts'
import { ManagePage } from './videos/ManagePage.tsx'
import { UploadPage } from './videos/UploadPage.tsx'

const PublicPage = lazy(() =>
  import('../public/PublicPage.tsx').then((m) => ({ default: m.PublicPage })),
)

function LazyPublicPage() {
  return (
    <Suspense fallback={null}>
      <PublicPage />
    </Suspense>
  )
}

export interface RouterContext {
  queryClient: QueryClient
}

// `redirect` always set, to undefined when unsafe: the route's search is this object spread over
// the raw one, so leaving the key out would keep the raw value.
const signInSearch = (search: Record<string, unknown>): { redirect?: string } => ({
  redirect: safeRedirect(search.redirect),
})

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

const redirectIfSignedIn = () => {
  if (isAuthenticated()) throw redirect({ to: '/dashboard', replace: true })
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  staticData: { title: 'Sign In' },
  validateSearch: signInSearch,
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/signin',
  staticData: { title: 'Sign In' },
  validateSearch: signInSearch,
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/forgot-password',
  staticData: { title: 'Forgot Password' },
  component: ForgotPasswordPage,
})

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/reset-password/$token',
  staticData: { title: 'Set New Password' },
  component: ResetPasswordPage,
})

const resetNoTokenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/reset-password',
  component: MissingResetToken,
})

const legacyResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/auth/reset-password/$token', params, replace: true })
  },
})

const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'authed',
  beforeLoad: ({ location }) => {
    if (!isAuthenticated()) {
      throw redirect({ to: '/auth/signin', search: { redirect: location.href } })
    }
  },
  component: DashboardLayout,
})

const overviewRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard',
  staticData: { title: 'Dashboard' },
  component: OverviewPage,
})
const uploadRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/upload',
  staticData: { title: 'Upload Video' },
  component: UploadPage,
})
const manageRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/manage',
  staticData: { title: 'Manage Videos' },
  component: ManagePage,
})
const adminsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/admins',
  staticData: { title: 'Admin Management' },
  component: AdminsPage,
})

const siteRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/site',
  staticData: { title: 'Site' },
  component: SitePage,
})
const activityRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/activity',
  staticData: { title: 'Activity' },
  component: ActivityPage,
})

const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  signInRoute,
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
  ]),
  unknownRoute,
])

export function createAppRouter(context: RouterContext) {
  const router = createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    scrollRestoration: true,
  })
  // The tab names the page and the studio (src/schemas/brand.ts); a route without a title is the
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
