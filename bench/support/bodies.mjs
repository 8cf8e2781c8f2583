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

const FIRST = ['Maria', 'James', 'Aisha', 'Wei', 'Carlos', 'Emily', 'Darnell', 'Priya'];
const LAST = ['Garcia', 'Johnson', "O'Neil", 'Nguyen', 'Okafor', 'Kowalski', 'Patel', 'Lee'];
let personSeq = Math.floor(Math.random() * 1_000_000);
/** A phone of one's own: a real area code, an ordinary exchange (no N11, no 555), unique per call. */
const visitorPhone = (n) => {
  let exchange = 201 + (n % 789);
  if (exchange % 100 === 11 || exchange === 555) exchange += 1;
  return `(312) ${exchange}-${String(1000 + ((n * 7919) % 8000) + 37).slice(-4)}`;
};

/**
 * POST /api/submit-search: a new person each time, as a visitor sends it (issue 33: a plausible name, a
 * mailbox at a common provider, a phone and ZIP that exist), unless an e-mail is given.
 */
export const websiteLead = (email) => {
  const n = personSeq++;
  const first = FIRST[n % FIRST.length];
  const last = LAST[Math.floor(n / 8) % LAST.length];
  return {
    firstName: first,
    lastName: last,
    streetAddress: `${100 + (n % 900)} Maple Ave`,
    zipCode: '12207',
    email: email ?? `${first}.${last.replace("'", '')}.${n}@gmail.com`.toLowerCase(),
    phone: visitorPhone(n),
    birthMonth: String(1 + (n % 12)),
    birthDay: String(1 + (n % 28)),
    birthYear: String(1945 + (n % 45)),
    consentGiven: 'true',
    pageUrl: 'https://unclaimedfundsfinder.example/?utm_source=bench',
  };
};

let addressSeq = 0;
/**
 * Headers of a visitor behind the site's proxy: a browser's user agent and an address of its own
 * (the server runs with TRUST_PROXY=127.0.0.1, as behind Caddy), so the velocity rule sees people.
 */
export const visitorHeaders = () => {
  const n = addressSeq++;
  return {
    'user-agent': BROWSER_UA,
    'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  };
};

/**
 * POST /api/submit-search as a visitor sends it (issue 33): a new person with the page's form token, from a
 * browser with an address of its own, so every lead-quality check and look-up runs.
 */
export const visitorLead = (formToken) => ({
  body: { ...websiteLead(), formToken },
  headers: visitorHeaders(),
});

/** Seconds a visitor spends on the page before submitting (the rules hold leads sent within 3 s). */
const SECONDS_ON_PAGE = 4;

/**
 * Form tokens as pages give them (issue 33), fetched before a measurement and handed out once they are
 * SECONDS_ON_PAGE old. A load longer than the pool reuses them in turn: those leads are held as
 * BOT_TOKEN_REUSED, which costs the server the same look-ups as a fresh token.
 */
export async function formTokens(app, count = 4000) {
  const tokens = [];
  for (let i = 0; i < count; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async () => {
        const res = await fetch(`${app}/api/form-token`);
        return (await res.json()).formToken;
      }),
    );
    tokens.push(...batch);
  }
  const readyAt = Date.now() + SECONDS_ON_PAGE * 1000;
  while (Date.now() < readyAt) await new Promise((r) => setTimeout(r, 100));
  let i = 0;
  return () => tokens[i++ % tokens.length];
}

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
