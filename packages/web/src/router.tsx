import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { LandingPage } from './features/lead-form/landing-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { PublicLayout } from './features/site-shell/public-layout';
import { ToastRegion } from './features/site-shell/toast-region';

// Every route of spec §2. The landing page is in the entry chunk; everything else loads on demand.

const rootRoute = createRootRoute({
  component: () => (
    <>
      <Outlet />
      <ToastRegion />
    </>
  ),
  notFoundComponent: NotFoundPage,
});

const publicLayout = createRoute({ getParentRoute: () => rootRoute, id: 'public', component: PublicLayout });

const page = (path: string, component: Parameters<typeof createRoute>[0]['component']) =>
  createRoute({ getParentRoute: () => publicLayout, path, component });

const landingRoute = page('/', LandingPage);
const termsRoute = page(
  '/terms',
  lazyRouteComponent(() => import('./features/legal/terms-page'), 'TermsPage'),
);
const privacyRoute = page(
  '/privacy',
  lazyRouteComponent(() => import('./features/legal/privacy-page'), 'PrivacyPage'),
);
const privacyNoticeRoute = page(
  '/privacy-notice',
  lazyRouteComponent(() => import('./features/legal/privacy-notice-page'), 'PrivacyNoticePage'),
);
const caPrivacyRoute = page(
  '/ca-privacy',
  lazyRouteComponent(() => import('./features/legal/ca-privacy-page'), 'CaPrivacyPage'),
);
const contactRoute = page(
  '/contact',
  lazyRouteComponent(() => import('./features/legal/contact-page'), 'ContactPage'),
);
const thankYouRoute = page(
  '/thank-you',
  lazyRouteComponent(() => import('./features/legal/thank-you-page'), 'ThankYouPage'),
);
const unsubscribeRoute = page(
  '/unsubscribe',
  lazyRouteComponent(() => import('./features/unsubscribe/unsubscribe-page'), 'UnsubscribePage'),
);
const notFoundRoute = page('/$', NotFoundPage);

// Every /admin page renders inside this layout, which brings React Query and the typed tRPC hooks.
const adminLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'admin',
  component: lazyRouteComponent(() => import('./features/admin-shell/admin-providers'), 'AdminProviders'),
});

const adminLoginRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: '/admin/login',
  component: lazyRouteComponent(() => import('./features/admin-login/admin-login-page'), 'AdminLoginPage'),
});
const adminLeadsRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: '/admin/leads',
  component: lazyRouteComponent(
    () => import('./features/admin-leads/leads-dashboard-page'),
    'LeadsDashboardPage',
  ),
});
const adminAnalyticsRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: '/admin/analytics',
  // Its own chunk: the charts (@mantine/charts, recharts) load only with this page.
  component: lazyRouteComponent(() => import('./features/admin-analytics/analytics-page'), 'AnalyticsPage'),
});

const routeTree = rootRoute.addChildren([
  publicLayout.addChildren([
    landingRoute,
    termsRoute,
    privacyRoute,
    privacyNoticeRoute,
    caPrivacyRoute,
    contactRoute,
    thankYouRoute,
    unsubscribeRoute,
    notFoundRoute,
  ]),
  adminLayout.addChildren([adminLoginRoute, adminLeadsRoute, adminAnalyticsRoute]),
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
