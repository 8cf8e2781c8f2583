// What the benchmarks send: command-line options, a browser user agent, and request bodies that are
// a new person each time (so no duplicate rule is hit unless a bench means to).

const args = process.argv.slice(2);
/** `--name value` from the command line, else the fallback. */
export const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

export const benchAdminUrl = () =>
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

let seq = 0;
/** A value no other request of this process has sent. */
export const next = () => `${process.pid}x${(seq++).toString(36)}`;

let phoneSeq = 0;
const nextPhone = () => {
  const n = phoneSeq++;
  return `(212) ${String(200 + (n % 800)).padStart(3, '0')}-${String(Math.floor(n / 800) % 10_000).padStart(4, '0')}`;
};

/** POST /api/submit-search: a new e-mail address each time unless one is given. */
export const websiteLead = (email = `bench.${next()}@example.com`) => ({
  firstName: 'Bench',
  lastName: 'Visitor',
  streetAddress: '1 Load Ave',
  zipCode: '12207',
  email,
  phone: '(518) 555-0100',
  birthMonth: '4',
  birthDay: '12',
  birthYear: '1971',
  consentGiven: 'true',
  pageUrl: 'https://unclaimedfundsfinder.example/?utm_source=bench',
});

/** POST /api/partner/leads: a new phone and last name each time. */
export const apiLead = () => ({
  firstName: 'Bench',
  lastName: `Partner${next()}`,
  streetAddress: '1 Load Ave',
  city: 'Albany',
  state: 'NY',
  phone: nextPhone(),
  birthMonth: 4,
  birthDay: 12,
  birthYear: 1971,
});

/** POST /api/analytics/track: a page view of a new session. */
let eventSeq = 0;
const EVENT_TYPES = ['page_view', 'survey_started', 'form_submit', 'button_click'];
/**
 * POST /api/analytics/track: four events per visit, as a landing visit sends them, each visit from a
 * Google Ads click of one of 20 campaigns (issue 15: every event carries its session's attribution).
 */
export const trackEvent = () => {
  const n = eventSeq++;
  const visit = Math.floor(n / 4);
  return {
    eventType: EVENT_TYPES[n % 4],
    page: 'home',
    referrer: 'https://www.google.com/',
    sessionId: `bench-${process.pid}x${visit.toString(36)}`,
    attribution: {
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: `search-${visit % 20}`,
      gclid: `g${visit}`,
    },
  };
};
