// Routes of SPEC §2, code-based. Dashboard pages sit under a pathless layout whose beforeLoad
// sends signed-out visitors to /auth/signin with the place they wanted in `redirect`.
import type { QueryClient } from '@tanstack/react-query'
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
} from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { AdminsPage } from './admins/AdminsPage.tsx'
import { ForgotPasswordPage } from './auth/ForgotPasswordPage.tsx'
import { MissingResetToken, ResetPasswordPage } from './auth/ResetPasswordPage.tsx'
import { safeRedirect } from './auth/redirect.ts'
import { SignInPage } from './auth/SignInPage.tsx'
import { DashboardLayout } from './layout/DashboardLayout.tsx'
import { OverviewPage } from './pages/OverviewPage.tsx'
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
  validateSearch: signInSearch,
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/signin',
  validateSearch: signInSearch,
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/forgot-password',
  component: ForgotPasswordPage,
})

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/reset-password/$token',
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
  component: OverviewPage,
})
const uploadRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/upload',
  component: UploadPage,
})
const manageRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/manage',
  component: ManagePage,
})
const adminsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/dashboard/admins',
  component: AdminsPage,
})

const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  signInRoute,
  forgotRoute,
  resetRoute,
  resetNoTokenRoute,
  legacyResetRoute,
  authedRoute.addChildren([overviewRoute, uploadRoute, manageRoute, adminsRoute]),
  unknownRoute,
])

export function createAppRouter(context: RouterContext) {
  return createRouter({ routeTree, context, defaultPreload: 'intent', scrollRestoration: true })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
