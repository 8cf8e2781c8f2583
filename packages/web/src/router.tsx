import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  type RouterHistory,
} from '@tanstack/react-router';
import { PAGES } from '@uf/shared/pages';
import { LandingPage } from './features/lead-form/landing-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { PublicLayout } from './features/site-shell/public-layout';

// Every route of spec §2. The landing page is in the entry chunk; everything else loads on demand.

const rootRoute = createRootRoute({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

const publicLayout = createRoute({ getParentRoute: () => rootRoute, id: 'public', component: PublicLayout });

const page = (path: string, component: Parameters<typeof createRoute>[0]['component']) =>
  createRoute({ getParentRoute: () => publicLayout, path, component });

const landingRoute = page(PAGES.landing, LandingPage);
const termsRoute = page(
  PAGES.terms,
  lazyRouteComponent(() => import('./features/legal/terms-page'), 'TermsPage'),
);
const privacyRoute = page(
  PAGES.privacy,
  lazyRouteComponent(() => import('./features/legal/privacy-page'), 'PrivacyPage'),
);
const privacyNoticeRoute = page(
  PAGES.privacyNotice,
  lazyRouteComponent(() => import('./features/legal/privacy-notice-page'), 'PrivacyNoticePage'),
);
const caPrivacyRoute = page(
  PAGES.caPrivacy,
  lazyRouteComponent(() => import('./features/legal/ca-privacy-page'), 'CaPrivacyPage'),
);
const contactRoute = page(
  PAGES.contact,
  lazyRouteComponent(() => import('./features/legal/contact-page'), 'ContactPage'),
);
const thankYouRoute = page(
  PAGES.thankYou,
  lazyRouteComponent(() => import('./features/legal/thank-you-page'), 'ThankYouPage'),
);
const unsubscribeRoute = page(
  PAGES.unsubscribe,
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
  path: PAGES.adminLogin,
  component: lazyRouteComponent(() => import('./features/admin-login/admin-login-page'), 'AdminLoginPage'),
});
/**
 * The dashboards keep their filters, page and sort in the URL (issue 15). The router keeps them as
 * plain strings; each page checks them with its shared schema (which would not belong in this entry
 * chunk) and falls back to the default for a value the schema refuses.
 */
function plainSearch(search: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(search)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[key] = String(value);
  }
  return out;
}

const adminLeadsRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: PAGES.adminLeads,
  validateSearch: plainSearch,
  component: lazyRouteComponent(
    () => import('./features/admin-leads/leads-dashboard-page'),
    'LeadsDashboardPage',
  ),
});
const adminAnalyticsRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: PAGES.adminAnalytics,
  validateSearch: plainSearch,
  // Its own chunk: the charts (@mantine/charts, recharts) load only with this page.
  component: lazyRouteComponent(() => import('./features/admin-analytics/analytics-page'), 'AnalyticsPage'),
});

// A page per lead (issue 26), deep-linkable: /admin/leads/{id} and /admin/api-leads/{id} as one route and
// one lazy component (it reads the table from the path, answers any other path as not found, and judges
// the id: unknown or malformed is its "not found"). One route, not two: ADR 053's landing budget. The
// lead-quality screens (issue 33), /admin/quality/review and /admin/quality/settings, come through it
// too, for the same reason; the review queue keeps its tab and page in the URL. So do the lead buyers'
// screens (issue 34): /admin/buyers (the id is optional for it), /admin/buyers/new and /admin/buyers/{id};
// and the ad costs screen (issue 35), /admin/costs.
const adminLeadRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: '/admin/$table/{-$id}',
  component: lazyRouteComponent(() => import('./features/admin-leads/lead-page'), 'LeadPage'),
});

// The admin's own account (issue 25); the QR code library loads with this page only.
const adminAccountRoute = createRoute({
  getParentRoute: () => adminLayout,
  path: PAGES.adminAccount,
  component: lazyRouteComponent(() => import('./features/admin-account/account-page'), 'AccountPage'),
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
  adminLayout.addChildren([
    adminLoginRoute,
    adminLeadsRoute,
    adminLeadRoute,
    adminAnalyticsRoute,
    adminAccountRoute,
  ]),
]);

/** The app's router; the prerender (entry-server.tsx) gives it a memory history at one path. */
export function createAppRouter(history?: RouterHistory) {
  // Scroll restoration is the browser's business: on the server it would write an inline script,
  // which the Content-Security-Policy forbids (ADR 052). In the browser it runs from the first navigation
  // on, never at the app's first render: a prerendered page is taken over where the visitor already is,
  // and scrolling it to the top under a tap made while the app started (the form is below the fold on a
  // phone) moved the page away from the finger and lost the tap (ADR 057).
  let firstRender = true;
  const restoreScroll = () => {
    if (!firstRender) return true;
    firstRender = false;
    return false;
  };
  return createRouter({
    routeTree,
    history,
    defaultPreload: 'intent',
    scrollRestoration: history ? false : restoreScroll,
  });
}

export const router = createAppRouter();

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
