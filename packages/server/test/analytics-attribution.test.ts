import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createVisitorHasher } from '../src/analytics/visitor-id';
import { seedAdmin, signIn } from './support/admin';
import { BROWSER_UA, clearAnalytics } from './support/analytics';
import { leadBody, visitorLeadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';
import { formToken, SECONDS_ON_PAGE, testClock } from './support/visitor';

// Issue 15: a visit from a campaign that becomes a consenting lead, seen end to end through the API —
// the events, the lead and its receipt carry the campaign; the funnel counts every step once; the
// sources table shows one visitor, one lead, 100 % conversion.

const CAMPAIGN = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring', gclid: 'X' };
const VISITOR = {
  remoteAddress: '203.0.113.20',
  headers: { 'cf-ipcountry': 'US', 'user-agent': BROWSER_UA },
};

let t: TestApp;
let cookies: Record<string, string>;
const clock = testClock();

beforeAll(async () => {
  t = await startTestApp({ ANALYTICS_COUNTRY_HEADER: 'cf-ipcountry' }, { clock: clock.now });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAnalytics(t.app.db.pool);
  await t.app.db.pool.query('truncate website_lead cascade');
});

const event = (eventType: string, sessionId: string, attribution: object = CAMPAIGN, visitor = VISITOR) =>
  t.app.inject({
    method: 'POST',
    url: '/api/analytics/track',
    ...visitor,
    payload: { eventType, page: 'home', referrer: 'https://www.google.com/', sessionId, attribution },
  });

async function summary(query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The whole visitor path of one session, as the landing page calls the API. */
async function campaignVisitThatBecomesALead(sessionId: string) {
  expect((await event('page_view', sessionId)).statusCode).toBe(200);
  await event('survey_started', sessionId);
  await event('form_submit', sessionId);
  // As the visitor submits it (issue 33): the page's token, some seconds on the page — lead quality accepts it.
  const token = await formToken(t.app);
  clock.advance(SECONDS_ON_PAGE);
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/api/submit-search',
    payload: {
      ...visitorLeadBody({ pageUrl: 'https://example.org/?utm_source=google' }),
      formToken: token,
      attribution: CAMPAIGN,
      sessionId,
    },
    ...VISITOR,
  });
  expect(submitted.statusCode).toBe(200);
  const { id } = submitted.json();
  const owner = submitted.cookies.find((c) => c.name === 'lead_owner')?.value ?? '';
  const beneficiary = await t.app.inject({
    method: 'PATCH',
    url: `/api/leads/${id}/beneficiary`,
    payload: { beneficiary: 'Child' },
    cookies: { lead_owner: owner },
  });
  expect(beneficiary.statusCode).toBe(200);
  await event('button_click', sessionId);
  return id as string;
}

describe('attribution of a campaign visit', () => {
  it('carries the campaign on the events, the lead and its consent receipt', async () => {
    const id = await campaignVisitThatBecomesALead('campaign-session');
    const events = await t.app.db.pool.query(
      'select event_type, utm_source, utm_medium, utm_campaign, click_id_type, channel, source, visitor_id from analytics_event',
    );
    expect(events.rows).toHaveLength(4);
    for (const row of events.rows) {
      expect(row).toMatchObject({
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: 'spring',
        click_id_type: 'gclid',
        channel: 'Paid Search',
        source: 'google',
      });
    }
    expect(new Set(events.rows.map((r) => r.visitor_id)).size).toBe(1);

    const lead = await t.app.db.pool.query('select * from website_lead where id = $1', [id]);
    expect(lead.rows[0]).toMatchObject({
      channel: 'Paid Search',
      source: 'google',
      medium: 'cpc',
      campaign: 'spring',
      country: 'US',
      attribution: CAMPAIGN,
      tcpa_compliant: 'true',
    });
    const receipt = await t.app.db.pool.query('select attribution from consent_receipt where lead_id = $1', [
      id,
    ]);
    expect(receipt.rows[0].attribution).toEqual(CAMPAIGN);

    const list = await t.app.inject({
      url: '/api/admin/leads',
      query: { campaign: 'spring', source: 'google', channel: 'Paid Search' },
      cookies,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject([
      { id, channel: 'Paid Search', source: 'google', medium: 'cpc', campaign: 'spring' },
    ]);
    const other = await t.app.inject({ url: '/api/admin/leads', query: { campaign: 'autumn' }, cookies });
    expect(other.json()).toEqual([]);
  });

  it('counts 1 at every funnel step and 100 % conversion for the campaign', async () => {
    await campaignVisitThatBecomesALead('campaign-session');
    const s = await summary();
    expect(s.funnel).toEqual([
      { step: 'page_view', count: 1 },
      { step: 'survey_started', count: 1 },
      { step: 'form_submitted', count: 1 },
      { step: 'lead_stored', count: 1 },
      { step: 'beneficiary_answered', count: 1 },
      { step: 'state_site_click', count: 1 },
    ]);
    expect(s.funnelLeadAccepted).toBe(1);
    expect(s.sources).toEqual([
      {
        channel: 'Paid Search',
        source: 'google',
        campaign: 'spring',
        visitors: 1,
        visits: 1,
        surveyStarts: 1,
        leads: 1,
        leadVisits: 1,
        leadsWithoutVisit: 0,
        consentingLeads: 1,
        consentRate: 100,
        conversionRate: 100,
        accepted: 1,
        held: 0,
        rejected: 0,
        topReasons: [],
        revenue: 0,
        // Issue 35: nothing sold, no cost imported — no ROI and no cost per lead, not 0.
        sold: 0,
        returned: 0,
        net: 0,
        cost: 0,
        profit: 0,
        roi: null,
        earningsPerVisit: 0,
        costPerAcceptedLead: null,
      },
    ]);
    expect(s).toMatchObject({ totalVisitors: 1, totalVisits: 1, totalPageViews: 1, totalClicks: 2 });
    // Four events, one visit: the referrer badge counts the visit.
    expect(s.topReferrers).toEqual([{ referrer: 'https://google.com/', count: 1 }]);
    expect(s.comparison.current).toMatchObject({ pageViews: 1, visitors: 1, visits: 1 });
    expect(s.comparison.previous).toMatchObject({ pageViews: 0, visitors: 0, visits: 0 });

    expect((await summary({ campaign: 'spring', channel: 'Paid Search' })).funnel[3]).toEqual({
      step: 'lead_stored',
      count: 1,
    });
    const elsewhere = await summary({ source: 'bing' });
    expect(elsewhere.sources).toEqual([]);
    expect(elsewhere.funnel.every((f: { count: number }) => f.count === 0)).toBe(true);
  });

  it('counts a returning browser as one visitor with two visits, and other browsers apart', async () => {
    await event('page_view', 'first-tab');
    await event('page_view', 'second-tab');
    await event('page_view', 'other-person', {}, { ...VISITOR, remoteAddress: '203.0.113.99' });
    const s = await summary();
    expect(s).toMatchObject({ totalVisitors: 2, totalVisits: 3, totalPageViews: 3 });
    expect(s.sources).toMatchObject([
      { channel: 'Paid Search', source: 'google', campaign: 'spring', visitors: 1, visits: 2, leads: 0 },
      { channel: 'Organic Search', source: 'google.com', campaign: '', visitors: 1, visits: 1 },
    ]);
    const ids = await t.app.db.pool.query('select distinct visitor_id from analytics_event');
    expect(ids.rows).toHaveLength(2);
  });

  it('keeps unusable attribution out and still stores the event and the lead', async () => {
    const weird = { utm_campaign: 'c'.repeat(300), gclid: 'not a token', utm_source: 42, nope: 'x' };
    expect((await event('page_view', 'weird', weird)).statusCode).toBe(200);
    const row = await t.app.db.pool.query(
      'select utm_campaign, utm_source, click_id_type from analytics_event',
    );
    expect(row.rows[0]).toEqual({ utm_campaign: 'c'.repeat(100), utm_source: null, click_id_type: null });
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: { ...leadBody(), attribution: 'utm_source=google' },
    });
    expect(submitted.statusCode).toBe(200);
    const lead = await t.app.db.pool.query('select channel, source, attribution from website_lead');
    expect(lead.rows[0]).toEqual({ channel: 'Direct', source: 'direct', attribution: null });
  });

  it('keeps the lead figures exact through opt-outs and deletes (rollups kept by triggers)', async () => {
    const id = await campaignVisitThatBecomesALead('campaign-session');
    const row = async () => (await summary()).sources[0];
    expect(await row()).toMatchObject({ leads: 1, consentingLeads: 1, consentRate: 100 });
    // The visitor withdraws consent: still a lead, no longer a consenting one.
    await t.app.db.pool.query('update website_lead set opted_out_at = now() where id = $1', [id]);
    expect(await row()).toMatchObject({ leads: 1, consentingLeads: 0, consentRate: 0 });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/admin/leads/${id}`, cookies });
    expect(deleted.statusCode).toBe(200);
    expect(await row()).toMatchObject({ leads: 0, consentingLeads: 0, consentRate: null, visitors: 1 });
    // The visit did store a lead (issue 26: the funnel follows visits); no lead is left to count apart.
    expect((await summary()).funnel[3]).toEqual({ step: 'lead_stored', count: 1 });
    expect((await summary()).leadsWithoutVisit).toBe(0);
    // What the triggers keep equals what the leads table says.
    const drift = await t.app.db.pool.query(
      `select day, sum(leads) from lead_daily_source group by day having sum(leads) <> 0
       union all select month, sum(leads) from lead_monthly_source group by month having sum(leads) <> 0`,
    );
    expect(drift.rows).toEqual([]);
  });

  it('counts leads of one campaign submitted at once exactly, before and after the rollups are folded', async () => {
    // The submissions append delta rows (no shared row to wait for); the minute's fold keeps one per key.
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/submit-search',
          payload: {
            ...leadBody({ pageUrl: 'https://example.org/?utm_source=google' }),
            attribution: CAMPAIGN,
          },
          ...VISITOR,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const rows = async () =>
      (
        await t.app.db.pool.query<{ n: string; leads: string }>(
          `select count(*) as n, sum(leads) as leads from lead_daily_source where campaign = 'spring'`,
        )
      ).rows[0];
    // One delta row per batch statement (submissions group-commit, issue 14), however many there were.
    const appended = await rows();
    expect(appended?.leads).toBe('20');
    expect(Number(appended?.n)).toBeGreaterThanOrEqual(1);
    const before = (await summary()).sources;
    expect(before[0]).toMatchObject({ campaign: 'spring', leads: 20, consentingLeads: 20 });

    await t.app.db.pool.query(
      `update website_lead set opted_out_at = now() where id in (select id from website_lead limit 5)`,
    );
    await t.app.db.pool.query('select compact_lead_source_rollups()'); // what the server runs each minute
    expect(await rows()).toEqual({ n: '1', leads: '20' });
    const monthly = await t.app.db.pool.query(
      `select leads, consenting from lead_monthly_source where campaign = 'spring'`,
    );
    expect(monthly.rows).toEqual([{ leads: '20', consenting: '15' }]);
    expect((await summary()).sources[0]).toMatchObject({ leads: 20, consentingLeads: 15 });

    // Folding again changes nothing; keys whose rows sum to zero disappear.
    await t.app.db.pool.query('delete from website_lead');
    await t.app.db.pool.query('select compact_lead_source_rollups()'); // what the server runs each minute
    const left = await t.app.db.pool.query(
      'select * from lead_daily_source union all select * from lead_monthly_source',
    );
    expect(left.rows).toEqual([]);
  });

  it('answers 400 for a bad channel filter', async () => {
    const res = await t.app.inject({
      url: '/api/admin/analytics',
      query: { channel: 'Billboards' },
      cookies,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual(['channel']);
  });
});

describe('visitor ids', () => {
  it('are stable within a day, differ across days, and only today’s salt is kept', async () => {
    const pool = t.app.db.pool;
    await pool.query('truncate analytics_salt');
    const hasher = createVisitorHasher(pool, 'UTC');
    const monday = new Date('2026-11-23T10:00:00Z');
    const a = await hasher.visitorId('203.0.113.5', 'UA', monday);
    expect(await hasher.visitorId('203.0.113.5', 'UA', new Date('2026-11-23T23:00:00Z'))).toBe(a);
    expect(await hasher.visitorId('203.0.113.6', 'UA', monday)).not.toBe(a);
    expect(await hasher.visitorId('203.0.113.5', 'Other UA', monday)).not.toBe(a);
    // Another replica gets the same salt for the day.
    expect(await createVisitorHasher(pool, 'UTC').visitorId('203.0.113.5', 'UA', monday)).toBe(a);

    const tuesday = await hasher.visitorId('203.0.113.5', 'UA', new Date('2026-11-24T10:00:00Z'));
    expect(tuesday).not.toBe(a);
    const salts = await pool.query('select day::text as day from analytics_salt');
    expect(salts.rows).toEqual([{ day: '2026-11-24' }]);
    expect(await hasher.visitorId(null, 'UA')).toBeNull();
  });
});
