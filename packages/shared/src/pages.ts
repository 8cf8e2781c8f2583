// Every page path of the web app, for the client router and for the server, which answers any other
// path with the not-found page and status 404 (issue 13): crawlers do not index it, monitors see it.
export const PAGES = {
  landing: '/',
  terms: '/terms',
  privacy: '/privacy',
  privacyNotice: '/privacy-notice',
  caPrivacy: '/ca-privacy',
  contact: '/contact',
  thankYou: '/thank-you',
  unsubscribe: '/unsubscribe',
  adminLogin: '/admin/login',
  adminLeads: '/admin/leads',
  adminAnalytics: '/admin/analytics',
  adminAccount: '/admin/account',
} as const;
