import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredEvents, rebuildRollups } from '../src/analytics/analytics-report.service';
import { seedAdmin, signIn } from './support/admin';
import { type FixtureEvent, insertRawEvents } from './support/analytics';
import { startTestApp, type TestApp } from './support/test-app';

// GET /api/admin/analytics against a fixture whose answers were worked out by hand. The day is the
// calendar day in TIME_ZONE (America/New_York here): event 5 happens on 2 March in UTC but late on
// 1 March in New York, and counts for 1 March.

const G = 'https://google.com/';
const B = 'https://bing.com/';
const N = 'https://news.example.com/story';
const FIXTURE: FixtureEvent[] = [
  { at: '2026-03-01T15:00:00Z', type: 'page_view', country: 'US', referrer: G }, // 1
  { at: '2026-03-01T16:00:00Z', type: 'page_view', country: 'US', referrer: G }, // 2
  { at: '2026-03-01T17:00:00Z', type: 'page_view', country: 'CA', referrer: 'direct' }, // 3
  { at: '2026-03-01T18:00:00Z', type: 'form_submit', country: 'US', referrer: 'direct' }, // 4
  { at: '2026-03-02T04:30:00Z', type: 'page_view', country: 'GB', referrer: B }, // 5: 23:30 on 1 March in NY
  { at: '2026-03-02T12:00:00Z', type: 'button_click', country: 'US', referrer: G }, // 6
  { at: '2026-03-02T13:00:00Z', type: 'survey_started', country: 'CA', referrer: G }, // 7
  { at: '2026-03-02T14:00:00Z', type: 'page_view', country: null, referrer: N }, // 8: country unknown
  { at: '2026-03-05T12:00:00Z', type: 'page_view', country: 'US', referrer: B }, // 9
  { at: '2026-03-05T12:05:00Z', type: 'survey_started', country: 'US', referrer: 'direct' }, // 10
];

// Outside March: a range from mid-January to early April reads both rollup granularities.
const EXTRA: FixtureEvent[] = [
  { at: '2026-01-20T15:00:00Z', type: 'page_view', country: 'US', referrer: G },
  { at: '2026-02-10T15:00:00Z', type: 'page_view', country: 'DE', referrer: 'direct' },
  { at: '2026-04-02T15:00:00Z', type: 'form_submit', country: 'US', referrer: B },
];

const EMPTY = {
  totalPageViews: 0,
  totalClicks: 0,
  totalSurveyStarts: 0,
  uniqueCountries: 0,
  topCountries: [],
  topReferrers: [],
  dailyViews: [],
};

const SPEC_FIELDS = Object.keys(EMPTY);
/** The response's fields of spec §3 (issue 15's additions are checked in analytics-attribution.test). */
const specPart = (json: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(json).filter(([key]) => SPEC_FIELDS.includes(key)));

let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: 'America/New_York' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function summary(query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
  return res;
}

describe('GET /api/admin/analytics', () => {
  it('answers all zeros and empty lists when there is no data', async () => {
    const res = await summary();
    expect(res.statusCode).toBe(200);
    expect(specPart(res.json())).toEqual(EMPTY);
  });

  it('is for signed-in admins only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });

  describe('with the fixture', () => {
    beforeAll(async () => {
      await insertRawEvents(t.app.db.pool, FIXTURE);
      await rebuildRollups(t.app.db.pool, { timeZone: 'America/New_York', retentionDays: 36_500 });
    });

    it('counts everything without filters (clicks = form_submit + button_click)', async () => {
      const res = await summary();
      expect(res.statusCode).toBe(200);
      expect(specPart(res.json())).toEqual({
        totalPageViews: 6,
        totalClicks: 2,
        totalSurveyStarts: 2,
        uniqueCountries: 3,
        topCountries: [
          { country: 'US', count: 6 },
          { country: 'CA', count: 2 },
          { country: 'GB', count: 1 },
        ],
        topReferrers: [
          { referrer: G, count: 4 },
          { referrer: 'direct', count: 3 },
          { referrer: B, count: 2 },
          { referrer: N, count: 1 },
        ],
        dailyViews: [
          { date: '2026-03-01', views: 4, clicks: 1, surveyStarts: 0 },
          { date: '2026-03-02', views: 1, clicks: 1, surveyStarts: 1 },
          { date: '2026-03-03', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-04', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-05', views: 1, clicks: 0, surveyStarts: 1 },
        ],
      });
    });

    it('ignores empty values and "all"', async () => {
      const all = await summary({ startDate: '', endDate: '', eventType: 'all', country: 'all' });
      const none = await summary();
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual(none.json());
      expect((await summary({ country: '' })).json()).toEqual(none.json());
    });

    it('filters by start date (inclusive, in TIME_ZONE)', async () => {
      expect(specPart((await summary({ startDate: '2026-03-02' })).json())).toEqual({
        totalPageViews: 2,
        totalClicks: 1,
        totalSurveyStarts: 2,
        uniqueCountries: 2,
        topCountries: [
          { country: 'US', count: 3 },
          { country: 'CA', count: 1 },
        ],
        topReferrers: [
          { referrer: G, count: 2 },
          { referrer: 'direct', count: 1 },
          { referrer: B, count: 1 },
          { referrer: N, count: 1 },
        ],
        dailyViews: [
          { date: '2026-03-02', views: 1, clicks: 1, surveyStarts: 1 },
          { date: '2026-03-03', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-04', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-05', views: 1, clicks: 0, surveyStarts: 1 },
        ],
      });
    });

    it('filters by end date (inclusive, in TIME_ZONE)', async () => {
      expect(specPart((await summary({ endDate: '2026-03-01' })).json())).toEqual({
        totalPageViews: 4,
        totalClicks: 1,
        totalSurveyStarts: 0,
        uniqueCountries: 3,
        topCountries: [
          { country: 'US', count: 3 },
          { country: 'CA', count: 1 },
          { country: 'GB', count: 1 },
        ],
        topReferrers: [
          { referrer: 'direct', count: 2 },
          { referrer: G, count: 2 },
          { referrer: B, count: 1 },
        ],
        dailyViews: [{ date: '2026-03-01', views: 4, clicks: 1, surveyStarts: 0 }],
      });
    });

    it('filters by event type', async () => {
      expect(specPart((await summary({ eventType: 'page_view' })).json())).toEqual({
        totalPageViews: 6,
        totalClicks: 0,
        totalSurveyStarts: 0,
        uniqueCountries: 3,
        topCountries: [
          { country: 'US', count: 3 },
          { country: 'CA', count: 1 },
          { country: 'GB', count: 1 },
        ],
        // Top Referrers counts visits, whatever the event type filter (issue 15).
        topReferrers: [
          { referrer: G, count: 4 },
          { referrer: 'direct', count: 3 },
          { referrer: B, count: 2 },
          { referrer: N, count: 1 },
        ],
        dailyViews: [
          { date: '2026-03-01', views: 4, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-02', views: 1, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-03', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-04', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-05', views: 1, clicks: 0, surveyStarts: 0 },
        ],
      });
      expect((await summary({ eventType: 'button_click' })).json()).toMatchObject({
        totalPageViews: 0,
        totalClicks: 1,
        topReferrers: [
          { referrer: G, count: 4 },
          { referrer: 'direct', count: 3 },
          { referrer: B, count: 2 },
          { referrer: N, count: 1 },
        ],
      });
    });

    it('filters by country (any letter case)', async () => {
      expect(specPart((await summary({ country: 'us' })).json())).toEqual({
        totalPageViews: 3,
        totalClicks: 2,
        totalSurveyStarts: 1,
        uniqueCountries: 1,
        topCountries: [{ country: 'US', count: 6 }],
        topReferrers: [
          { referrer: G, count: 3 },
          { referrer: 'direct', count: 2 },
          { referrer: B, count: 1 },
        ],
        dailyViews: [
          { date: '2026-03-01', views: 2, clicks: 1, surveyStarts: 0 },
          { date: '2026-03-02', views: 0, clicks: 1, surveyStarts: 0 },
          { date: '2026-03-03', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-04', views: 0, clicks: 0, surveyStarts: 0 },
          { date: '2026-03-05', views: 1, clicks: 0, surveyStarts: 1 },
        ],
      });
    });

    it('combines all four filters', async () => {
      const res = await summary({
        startDate: '2026-03-02',
        endDate: '2026-03-02',
        eventType: 'survey_started',
        country: 'CA',
      });
      expect(specPart(res.json())).toEqual({
        totalPageViews: 0,
        totalClicks: 0,
        totalSurveyStarts: 1,
        uniqueCountries: 1,
        topCountries: [{ country: 'CA', count: 1 }],
        topReferrers: [{ referrer: G, count: 1 }],
        dailyViews: [{ date: '2026-03-02', views: 0, clicks: 0, surveyStarts: 1 }],
      });
    });

    it('answers zeros for a range without data', async () => {
      expect(specPart((await summary({ startDate: '2020-01-01', endDate: '2020-01-31' })).json())).toEqual(
        EMPTY,
      );
      expect(specPart((await summary({ country: 'JP' })).json())).toEqual(EMPTY);
    });

    it('is the same over tRPC', async () => {
      const rest = (await summary({ eventType: 'page_view' })).json();
      const input = encodeURIComponent(JSON.stringify({ eventType: 'page_view', country: 'all' }));
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/trpc/analytics.summary?input=${input}`,
        cookies,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result.data).toEqual(rest);
    });

    it('adds whole months (monthly rollups) and loose days (daily rollups) across a longer range', async () => {
      await insertRawEvents(t.app.db.pool, EXTRA);
      await rebuildRollups(t.app.db.pool, { timeZone: 'America/New_York', retentionDays: 36_500 });
      // January 15–31 and April 1–10 from the daily rollups, February and March from the monthly ones.
      expect((await summary({ startDate: '2026-01-15', endDate: '2026-04-10' })).json()).toMatchObject({
        totalPageViews: 8,
        totalClicks: 3,
        totalSurveyStarts: 2,
        uniqueCountries: 4,
        topCountries: [
          { country: 'US', count: 8 },
          { country: 'CA', count: 2 },
          { country: 'DE', count: 1 },
          { country: 'GB', count: 1 },
        ],
        topReferrers: [
          { referrer: G, count: 5 },
          { referrer: 'direct', count: 4 },
          { referrer: B, count: 3 },
          { referrer: N, count: 1 },
        ],
      });
      expect((await summary({ startDate: '2026-01-25', endDate: '2026-04-01' })).json()).toMatchObject({
        totalPageViews: 7,
        totalClicks: 2,
        uniqueCountries: 4,
        topCountries: [
          { country: 'US', count: 6 },
          { country: 'CA', count: 2 },
          { country: 'DE', count: 1 },
          { country: 'GB', count: 1 },
        ],
        topReferrers: [
          { referrer: 'direct', count: 4 },
          { referrer: G, count: 4 },
          { referrer: B, count: 2 },
          { referrer: N, count: 1 },
        ],
      });
      expect(
        (await summary({ startDate: '2026-01-25', endDate: '2026-04-01', country: 'de' })).json(),
      ).toMatchObject({
        totalPageViews: 1,
        topReferrers: [{ referrer: 'direct', count: 1 }],
      });
    });

    it('keeps the dashboard numbers when raw events expire (rollups are kept)', async () => {
      const before = (await summary()).json();
      const purged = await purgeExpiredEvents(t.app.db.pool, 1);
      expect(purged).toBe(FIXTURE.length + EXTRA.length);
      const left = await t.app.db.pool.query('select count(*)::int as n from analytics_event');
      expect(left.rows[0].n).toBe(0);
      expect((await summary()).json()).toEqual(before);
    });
  });

  it.each([
    [{ startDate: '2026-13-01' }, 'startDate'],
    [{ startDate: 'yesterday' }, 'startDate'],
    [{ endDate: '2026-02-30' }, 'endDate'],
    [{ startDate: '2026-03-05', endDate: '2026-03-01' }, 'endDate'],
    [{ eventType: 'purchase' }, 'eventType'],
    [{ country: 'USA' }, 'country'],
  ])('answers 400 for %j', async (query, field) => {
    const res = await summary(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_error' });
    expect(res.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual([field]);
  });
});
