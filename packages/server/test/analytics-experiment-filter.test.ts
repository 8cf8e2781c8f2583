import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { h1Of, OWED_H1, startHeadlineExperiment, tokenOf } from './support/experiments';
import { visitorLeadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';
import { BROWSER_UA, SECONDS_ON_PAGE, testClock, visitorAddress } from './support/visitor';

// The analytics sources table filtered by a landing experiment and one of its arms (issue 48, ADR 075).
// Real visitors load the landing page (which assigns and counts their arm), send the page's analytics
// events from a campaign or straight in, and some send a lead with the page's form token; one visitor
// is never shown the experiment. Filtered by the experiment, the visitors, visits, funnel and sources
// rows count the exposed visitors only, split by arm as the page served them; the leads, their verdicts
// and their sales follow the arm the lead carries; ad cost has no arm, so it is unknown, never $0.

const clock = testClock();
let t: TestApp;
let cookies: Record<string, string>;

const CAMPAIGN = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring' };
type Visitor = { ua: string; ip: string; arm: string; campaign: boolean; lead: boolean };
const visitors: Visitor[] = [];
let experimentId = '';

function track(v: { ua: string; ip: string }, eventType: string, sessionId: string, campaign: boolean) {
  return t.app.inject({
    method: 'POST',
    url: '/api/analytics/track',
    headers: { 'user-agent': v.ua },
    remoteAddress: v.ip,
    payload: {
      eventType,
      page: 'home',
      referrer: campaign ? 'https://www.google.com/' : '',
      sessionId,
      ...(campaign ? { attribution: CAMPAIGN } : {}),
    },
  });
}

async function summary(query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

type Row = { channel: string; source: string; visitors: number; visits: number; leads: number };
const rowOf = (rows: Row[], source: string) => rows.find((r) => r.source === source);

beforeAll(async () => {
  t = await startTestApp({}, { clock: clock.now });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  experimentId = await startHeadlineExperiment(t.app, cookies, { headline: OWED_H1 });

  // 24 visitors: every other one from the campaign, every third one sends a lead.
  const pages: string[] = [];
  for (let i = 0; i < 24; i++) {
    const v = { ua: `${BROWSER_UA} visitor/${i}`, ip: visitorAddress() };
    const campaign = i % 2 === 0;
    const page = await t.app.inject({
      method: 'GET',
      url: campaign ? '/?utm_source=google&utm_medium=cpc&utm_campaign=spring' : '/',
      headers: { host: 'localhost:3000', 'user-agent': v.ua },
      remoteAddress: v.ip,
    });
    expect(page.statusCode).toBe(200);
    pages.push(page.body);
    const arm = h1Of(page.body) === OWED_H1 ? 'owed' : 'control';
    visitors.push({ ...v, arm, campaign, lead: i % 3 === 0 });
    expect((await track(v, 'page_view', `session-${i}`, campaign)).statusCode).toBe(200);
  }
  // One more visitor whose page never had the experiment (another replica's, say): counted nowhere here.
  const outsider = { ua: `${BROWSER_UA} outsider`, ip: visitorAddress() };
  await track(outsider, 'page_view', 'session-outsider', true);

  clock.advance(SECONDS_ON_PAGE);
  for (const [i, v] of visitors.entries()) {
    if (!v.lead) continue;
    await track(v, 'survey_started', `session-${i}`, v.campaign);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      headers: { 'user-agent': v.ua },
      remoteAddress: v.ip,
      payload: {
        ...visitorLeadBody(),
        formToken: tokenOf(pages[i] ?? ''),
        sessionId: `session-${i}`,
        ...(v.campaign ? { attribution: CAMPAIGN } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // The first lead of the owed arm sold for $12.50.
  await t.app.db.pool.query(
    `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, country, channel, source, campaign)
     select id, 'website', 'sold', 1250, now(), coalesce(country, ''), channel, source, coalesce(campaign, '')
     from website_lead where experiment_arm = 'owed' order by created_at limit 1`,
  );
  // The exposures are written by a group committer beside the page: wait until all 24 are in.
  await vi.waitFor(
    async () => {
      const { rows } = await t.app.db.pool.query<{ n: string }>(
        'select count(*)::text as n from experiment_exposure where experiment_id = $1',
        [experimentId],
      );
      expect(rows[0]?.n).toBe('24');
    },
    { timeout: 10_000, interval: 50 },
  );
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/analytics?experiment=…&arm=…', () => {
  it('counts only the visitors the experiment showed its page to', async () => {
    const all = await summary();
    expect(all.totalVisitors).toBe(25);
    const experiment = await summary({ experiment: experimentId });
    expect(experiment.totalVisitors).toBe(24);
    expect(experiment.totalVisits).toBe(24);
    expect(experiment.funnel[0]).toEqual({ step: 'page_view', count: 24 });
    expect(experiment.funnel[1]).toEqual({ step: 'survey_started', count: 8 });
    // The sources: the campaign's 12 exposed visitors (the outsider came from it too, and is left out).
    expect(rowOf(all.sources, 'google')).toMatchObject({ visitors: 13, visits: 13, leads: 4 });
    expect(rowOf(experiment.sources, 'google')).toMatchObject({
      channel: 'Paid Search',
      visitors: 12,
      visits: 12,
      leads: 4,
    });
    expect(rowOf(experiment.sources, 'direct')).toMatchObject({ visitors: 12, visits: 12, leads: 4 });
  });

  it('splits every figure by the arm each visitor was served', async () => {
    for (const arm of ['control', 'owed']) {
      const mine = visitors.filter((v) => v.arm === arm);
      const s = await summary({ experiment: experimentId, arm });
      expect(s.totalVisitors).toBe(mine.length);
      expect(s.funnel[0].count).toBe(mine.length);
      expect(s.funnel.find((f: { step: string }) => f.step === 'lead_stored').count).toBe(
        mine.filter((v) => v.lead).length,
      );
      for (const [source, fromCampaign] of [
        ['google', true],
        ['direct', false],
      ] as const) {
        const group = mine.filter((v) => v.campaign === fromCampaign);
        const row = rowOf(s.sources, source);
        if (group.length === 0) {
          expect(row).toBeUndefined();
          continue;
        }
        expect(row).toMatchObject({
          visitors: group.length,
          visits: group.length,
          leads: group.filter((v) => v.lead).length,
          accepted: group.filter((v) => v.lead).length,
        });
      }
    }
  });

  it('follows each lead’s sale to its arm, and leaves the ad cost unknown', async () => {
    const owed = await summary({ experiment: experimentId, arm: 'owed' });
    const control = await summary({ experiment: experimentId, arm: 'control' });
    expect(owed.moneyTotals).toMatchObject({ sold: 1, revenue: 12.5, net: 12.5, cost: null });
    expect(control.moneyTotals).toMatchObject({ sold: 0, revenue: 0, cost: null });
    const all = await summary();
    expect(all.moneyTotals).toMatchObject({ sold: 1, revenue: 12.5, cost: 0 });
  });

  it('refuses an arm without its experiment, an unknown experiment and an arm it does not have', async () => {
    const ask = (query: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
    const noExperiment = await ask({ arm: 'owed' });
    expect(noExperiment.statusCode).toBe(400);
    expect(noExperiment.body).toContain('arm needs an experiment');
    const unknown = await ask({ experiment: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('no such experiment');
    const badArm = await ask({ experiment: experimentId, arm: 'nope' });
    expect(badArm.statusCode).toBe(400);
    expect(badArm.json().message).toBe('arm: this experiment has no arm "nope"');
    const notAnId = await ask({ experiment: 'headline' });
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.body).toContain('experiment must be an experiment id');
  });
});
