import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// The daily chart's money (issue 35, part 2): dailyMoney carries each day's revenue (gross), net (after
// returns, issue 47) and ad cost, the same money as moneyTotals day by day — sales dated by their day in the business time zone
// (America/New_York), costs by their report day — checked against hand-computed values.

let t: TestApp;
let cookies: Record<string, string>;
const RANGE = 'startDate=2026-11-02&endDate=2026-11-04';

type Summary = {
  dailyViews: { date: string }[];
  dailyMoney: { date: string; revenue: number; net: number; cost: number | null }[];
  moneyTotals: { revenue: number; net: number; cost: number | null };
};
async function analytics(query = RANGE) {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/analytics?${query}`, cookies });
  expect(res.statusCode).toBe(200);
  return res.json() as Summary;
}

async function sql(text: string, values: unknown[] = []) {
  await t.app.db.pool.query(text, values);
}
async function sale(
  channel: string,
  source: string,
  campaign: string,
  price: string,
  at: string,
  returned = false,
) {
  await sql(
    `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, country, channel, source, campaign,
       returned_at, created_at)
     values ($1, 'website', 'sold', ($2::numeric * 100)::bigint, $6, 'US', $3, $4, $5, $7, $6)`,
    [randomUUID(), price, channel, source, campaign, at, returned ? '2026-11-06T10:00:00Z' : null],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);

  // Page views on Nov 3 only: the chart's days run from the start date to the end date.
  await sql(
    `insert into analytics_daily_type (day, event_type, count) values ('2026-11-03', 'page_view', 10)`,
  );
  await sql(
    `insert into analytics_daily_country (day, event_type, country, count) values ('2026-11-03', 'page_view', 'US', 10)`,
  );
  // The sources the sales belong to (a sale counts on its source's row, as in the sources table), in the
  // daily rollups and in the monthly ones (whole months, as all time reads them).
  for (const [table, period, first] of [
    ['daily', 'day', '2026-11-03'],
    ['monthly', 'month', '2026-11-01'],
  ]) {
    await sql(
      `insert into analytics_${table}_source (${period}, country, channel, source, campaign, visits, visitors)
       values ($1, 'US', 'Paid Search', 'google', 'Spring', 200, 200),
              ($1, 'US', 'Paid Social', 'facebook', 'Retarget', 50, 50)`,
      [first],
    );
    await sql(
      `insert into lead_${table}_source (${period}, country, channel, source, campaign, leads, consenting, beneficiaries, tracked)
       values ($1, 'US', 'Email', 'newsletter', 'November', 1, 1, 0, 0)`,
      [first],
    );
  }
  // Spring: $25.00 on Nov 3, $25.00 on Nov 4, and $25.00 on Nov 3 returned later (in revenue, not in net).
  await sale('Paid Search', 'google', 'Spring', '25.00', '2026-11-03T16:00:00Z');
  await sale('Paid Search', 'google', 'Spring', '25.00', '2026-11-04T15:00:00Z');
  await sale('Paid Search', 'google', 'Spring', '25.00', '2026-11-03T17:00:00Z', true);
  // November: $12.34 at 03:00 UTC on Nov 4, which is 22:00 on Nov 3 in New York.
  await sale('Email', 'newsletter', 'November', '12.34', '2026-11-04T03:00:00Z');
  // A sale of a source with no visit and no lead in the range counts in no row of the sources table,
  // so neither in the totals nor on its day.
  await sale('Referral', 'old.example', '', '99.00', '2026-11-03T18:00:00Z');

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
        { date: '2026-11-02', source: 'bing', campaign: 'Ghost', cost: 7 }, // bought, never tagged
      ],
    },
  });
  expect(res.json()).toMatchObject({ imported: 5 });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/analytics: the daily chart’s money', () => {
  it('gives each day its revenue, net and ad cost, adding up to the totals', async () => {
    const s = await analytics();
    expect(s.dailyViews.map((d) => d.date)).toEqual(['2026-11-02', '2026-11-03', '2026-11-04']);
    expect(s.dailyMoney).toEqual([
      { date: '2026-11-02', revenue: 0, net: 0, cost: 7 },
      { date: '2026-11-03', revenue: 62.34, net: 37.34, cost: 45.5 }, // 25 + 12.34; 30 + 15.50
      { date: '2026-11-04', revenue: 25, net: 25, cost: 10 },
    ]);
    expect(s.moneyTotals).toMatchObject({ revenue: 87.34, net: 62.34, cost: 62.5 });
  });

  it('gives every day with money over all time', async () => {
    const s = await analytics('');
    expect(s.dailyMoney).toEqual([
      { date: '2026-11-02', revenue: 0, net: 0, cost: 7 },
      { date: '2026-11-03', revenue: 62.34, net: 37.34, cost: 45.5 },
      { date: '2026-11-04', revenue: 25, net: 25, cost: 10 },
      { date: '2026-11-10', revenue: 0, net: 0, cost: 999 },
    ]);
    expect(s.moneyTotals).toMatchObject({ revenue: 87.34, net: 62.34, cost: 1061.5 });
  });

  it('lists a day with money and no event, and narrows by the filters as the sources table does', async () => {
    // Nov 10's cost alone: no event that day, still a day of the chart.
    const late = await analytics('startDate=2026-11-10&endDate=2026-11-10');
    expect(late.dailyViews).toEqual([]);
    expect(late.dailyMoney).toEqual([{ date: '2026-11-10', revenue: 0, net: 0, cost: 999 }]);

    const social = await analytics(`${RANGE}&channel=Paid%20Social`);
    expect(social.dailyMoney).toEqual([
      { date: '2026-11-02', revenue: 0, net: 0, cost: 0 },
      { date: '2026-11-03', revenue: 0, net: 0, cost: 15.5 },
      { date: '2026-11-04', revenue: 0, net: 0, cost: 0 },
    ]);
    // Ad cost has no country: unknown under a country filter, the revenue still counted.
    const us = await analytics(`${RANGE}&country=US`);
    expect(us.dailyMoney).toEqual([
      { date: '2026-11-02', revenue: 0, net: 0, cost: null },
      { date: '2026-11-03', revenue: 62.34, net: 37.34, cost: null },
      { date: '2026-11-04', revenue: 25, net: 25, cost: null },
    ]);
  });
});
