import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { BROWSER_UA, clearAnalytics } from './support/analytics';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 37 (findings 2 and 3): the Visitors card says "Unique visitors (counted once a day)", but added up
// each source's visitors, so a person who came twice the same day through two sources counted twice
// (1,055 shown for 901 distinct visitors). And the campaign filter's "(none)" was read as "no filter".

const person = (address: string) => ({
  remoteAddress: address,
  headers: { 'cf-ipcountry': 'US', 'user-agent': BROWSER_UA },
});
const ANN = person('203.0.113.31');
const BOB = person('203.0.113.32');
const CY = person('203.0.113.33');
const GOOGLE_SPRING = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring', gclid: 'G1' };
const FACEBOOK_SPRING = { utm_source: 'facebook', utm_medium: 'paid_social', utm_campaign: 'spring' };
const NEWSLETTER = { utm_source: 'newsletter', utm_medium: 'email' };

let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ ANALYTICS_COUNTRY_HEADER: 'cf-ipcountry' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAnalytics(t.app.db.pool);
});

async function pageView(sessionId: string, attribution: object, visitor: ReturnType<typeof person>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/analytics/track',
    ...visitor,
    payload: { eventType: 'page_view', page: 'home', referrer: 'direct', sessionId, attribution },
  });
  expect(res.statusCode).toBe(200);
}

async function summary(query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Ann comes twice today, through Google and through Facebook; Bob through Google; Cy from a newsletter. */
async function seedTwoSourcesOneDay() {
  await pageView('ann-google', GOOGLE_SPRING, ANN);
  await pageView('ann-facebook', FACEBOOK_SPRING, ANN);
  await pageView('bob-google', GOOGLE_SPRING, BOB);
  await pageView('cy-newsletter', NEWSLETTER, CY);
}

describe('unique visitors (issue 37)', () => {
  it('counts a visitor who came through two sources on one day once, on the card and in its comparison', async () => {
    await seedTwoSourcesOneDay();
    const s = await summary();
    expect(s.totalVisits).toBe(4);
    expect(s.totalVisitors).toBe(3);
    expect(s.comparison.current.visitors).toBe(3);
    // Each source's own figure stays what it was: Ann is a visitor of both.
    const visitorsOf = (source: string) =>
      s.sources.find((r: { source: string }) => r.source === source)?.visitors;
    expect([visitorsOf('google'), visitorsOf('facebook'), visitorsOf('newsletter')]).toEqual([2, 1, 1]);
  });

  it('counts once across the sources a filter keeps (one campaign on two networks, one country)', async () => {
    await seedTwoSourcesOneDay();
    expect((await summary({ campaign: 'spring' })).totalVisitors).toBe(2);
    expect((await summary({ country: 'US' })).totalVisitors).toBe(3);
    expect((await summary({ source: 'google' })).totalVisitors).toBe(2);
  });

  it('"(none)" filters to the traffic without a campaign', async () => {
    await seedTwoSourcesOneDay();
    const none = await summary({ campaign: '(none)' });
    expect(none).toMatchObject({ totalVisits: 1, totalVisitors: 1 });
    expect(none.sources).toMatchObject([{ source: 'newsletter', campaign: '' }]);
    expect(none.funnel[0]).toEqual({ step: 'page_view', count: 1 });
    // "all" and an empty value still mean no filter (spec §5).
    expect((await summary({ campaign: 'all' })).totalVisits).toBe(4);
    expect((await summary({ campaign: '' })).totalVisits).toBe(4);
  });
});
