import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Money per source (issue 35): visits, leads and verdicts in the rollups, sales and a return in lead_sale,
// costs imported through the API — three campaigns and one bought but never tagged — and every figure of
// the sources table checked against hand-computed values, the undefined ones null.

let t: TestApp;
let cookies: Record<string, string>;
const RANGE = 'startDate=2026-11-02&endDate=2026-11-04';

type Row = Record<string, unknown> & { channel: string; source: string; campaign: string };
async function analytics(query = RANGE) {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/analytics?${query}`, cookies });
  expect(res.statusCode).toBe(200);
  return res.json() as { sources: Row[]; moneyTotals: Record<string, unknown> };
}
const MONEY = [
  'visits',
  'accepted',
  'sold',
  'returned',
  'revenue',
  'net',
  'cost',
  'profit',
  'roi',
  'earningsPerVisit',
  'costPerAcceptedLead',
];
const money = (row: Row | undefined) => Object.fromEntries(MONEY.map((k) => [k, row?.[k]]));
const find = (rows: Row[], source: string, campaign: string) =>
  rows.find((r) => r.source === source && r.campaign === campaign);

async function visits(channel: string, source: string, campaign: string, n: number) {
  await t.app.db.pool.query(
    `insert into analytics_daily_source (day, country, channel, source, campaign, visits, visitors)
     values ('2026-11-03', 'US', $1, $2, $3, $4, $4)`,
    [channel, source, campaign, n],
  );
}
async function leads(channel: string, source: string, campaign: string, n: number, accepted: number) {
  const key = ['2026-11-03', 'US', channel, source, campaign];
  await t.app.db.pool.query(
    `insert into lead_daily_source (day, country, channel, source, campaign, leads, consenting, beneficiaries, tracked)
     values ($1, $2, $3, $4, $5, $6, $6, 0, $6)`,
    [...key, n],
  );
  await t.app.db.pool.query(
    `insert into lead_daily_quality (day, country, channel, source, campaign, accepted, held, rejected, accepted_tracked)
     values ($1, $2, $3, $4, $5, $6, $7, 0, $6)`,
    [...key, accepted, n - accepted],
  );
}
async function sale(channel: string, source: string, campaign: string, price: string, returned = false) {
  await t.app.db.pool.query(
    `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, country, channel, source, campaign,
       returned_at, created_at)
     values ($1, 'website', 'sold', ($2::numeric * 100)::bigint, '2026-11-03T16:00:00Z', 'US', $3, $4, $5, $6, '2026-11-03T16:00:00Z')`,
    [randomUUID(), price, channel, source, campaign, returned ? '2026-11-05T10:00:00Z' : null],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);

  // Spring (google): 200 visits, 4 accepted leads of 5, three sold at $25.00 of which one returned;
  // $30.00 + $10.00 of cost, imported under another case and with a space.
  await visits('Paid Search', 'google', 'Spring', 200);
  await leads('Paid Search', 'google', 'Spring', 5, 4);
  await sale('Paid Search', 'google', 'Spring', '25.00');
  await sale('Paid Search', 'google', 'Spring', '25.00');
  await sale('Paid Search', 'google', 'Spring', '25.00', true);
  // Retarget (facebook): 50 visits, 2 leads none accepted, nothing sold, $15.50 of cost.
  await visits('Paid Social', 'facebook', 'Retarget', 50);
  await leads('Paid Social', 'facebook', 'Retarget', 2, 0);
  // November (newsletter): a lead with no tracked visit, sold at $12.34; no cost.
  await leads('Email', 'newsletter', 'November', 1, 1);
  await sale('Email', 'newsletter', 'November', '12.34');

  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/ad-costs',
    cookies,
    payload: {
      rows: [
        { date: '2026-11-03', source: 'google', campaign: 'SPRING ', cost: 30 },
        { date: '2026-11-04', source: 'google', campaign: 'spring', cost: 10 },
        { date: '2026-11-10', source: 'google', campaign: 'Spring', cost: 999 }, // outside the range
        { date: '2026-11-03', source: 'facebook', campaign: 'Retarget', cost: 15.5 },
        // Bought, never tagged: no visit of bing / Ghost was tracked.
        { date: '2026-11-02', source: 'bing', campaign: 'Ghost', cost: 7 },
      ],
    },
  });
  expect(res.json()).toEqual({ imported: 5, replaced: 0, skipped: [], merged: [] });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/analytics: money per source', () => {
  it('gives each campaign its sales, cost, profit, ROI, earnings per visit and cost per accepted lead', async () => {
    const { sources } = await analytics();
    expect(money(find(sources, 'google', 'Spring'))).toEqual({
      visits: 200,
      accepted: 4,
      // Issue 47 (ADR 073): sold counts the returned lead too, revenue is gross; the figures come from net.
      sold: 3,
      returned: 1,
      revenue: 75,
      net: 50,
      cost: 40,
      profit: 10,
      roi: 25, // 10 ÷ 40
      earningsPerVisit: 0.25, // 50 ÷ 200
      costPerAcceptedLead: 10, // 40 ÷ 4
    });
    expect(money(find(sources, 'facebook', 'Retarget'))).toEqual({
      visits: 50,
      accepted: 0,
      sold: 0,
      returned: 0,
      revenue: 0,
      net: 0,
      cost: 15.5,
      profit: -15.5,
      roi: -100,
      earningsPerVisit: 0,
      costPerAcceptedLead: null, // no accepted lead
    });
    expect(money(find(sources, 'newsletter', 'November'))).toEqual({
      visits: 0,
      accepted: 1,
      sold: 1,
      returned: 0,
      revenue: 12.34,
      net: 12.34,
      cost: 0,
      profit: 12.34,
      roi: null, // no cost
      earningsPerVisit: null, // no visit
      costPerAcceptedLead: null,
    });
  });

  it('lists a campaign with cost and no tracked visit under its paid channel', async () => {
    const { sources } = await analytics();
    const ghost = find(sources, 'bing', 'Ghost');
    expect(ghost?.channel).toBe('Paid Search');
    expect(money(ghost)).toEqual({
      visits: 0,
      accepted: 0,
      sold: 0,
      returned: 0,
      revenue: 0,
      net: 0,
      cost: 7,
      profit: -7,
      roi: -100,
      earningsPerVisit: null,
      costPerAcceptedLead: null,
    });
    // A channel filter keeps it only under its own channel.
    const social = await analytics(`${RANGE}&channel=Paid%20Social`);
    expect(social.sources.map((r) => r.source)).toEqual(['facebook']);
  });

  it('totals the money over every source of the filter', async () => {
    const { moneyTotals } = await analytics();
    expect(moneyTotals).toEqual({
      sold: 4,
      returned: 1,
      revenue: 87.34,
      net: 62.34,
      cost: 62.5,
      profit: -0.16,
      roi: -0.3, // −0.16 ÷ 62.50 = −0.256 %
      earningsPerVisit: 0.25, // 62.34 ÷ 250 = 0.24936, to the cent (issue 49)
      costPerAcceptedLead: 12.5, // 62.50 ÷ 5 (4 Spring, 1 November)
    });
  });

  it('narrows costs by source and campaign, and knows none under a country filter', async () => {
    const spring = await analytics(`${RANGE}&source=google&campaign=Spring`);
    expect(spring.sources.map((r) => [r.campaign, r.cost])).toEqual([['Spring', 40]]);
    expect(spring.moneyTotals.cost).toBe(40);

    const us = await analytics(`${RANGE}&country=US`);
    const row = find(us.sources, 'google', 'Spring');
    expect(money(row)).toMatchObject({
      revenue: 75,
      net: 50,
      cost: null,
      profit: null,
      roi: null,
      costPerAcceptedLead: null,
    });
    expect(find(us.sources, 'bing', 'Ghost')).toBeUndefined();
    expect(us.moneyTotals).toMatchObject({ cost: null, profit: null });
  });
});
