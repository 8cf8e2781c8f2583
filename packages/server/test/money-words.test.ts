import { randomUUID } from 'node:crypto';
import { analyticsCsv } from '@uf/shared/analytics-csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneySummarySection } from '../src/costs/money-summary';
import { dateAndTimeIn } from '../src/platform/time';
import { seedAdmin, signIn } from './support/admin';
import { insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// One meaning per money word (issue 47 item 6, ADR 073): today's sales of one campaign — five website
// leads sold to one buyer at $12.50, two of them returned through the API — and every answer that shows
// sold, returned, revenue and net says the same thing: GET /api/admin/revenue (by day, campaign and
// buyer), the analytics sources table (its row, its totals, its daily money and its CSV), the Buyers list's
// today, and the e-mail summaries' Money section. The returned leads are in neither conversion file, of
// either platform, whichever leads count, and in both retraction files.

let t: TestApp;
let cookies: Record<string, string>;
const ZONE = 'America/New_York';
const BUYER = randomUUID();
const CAMPAIGN = 'Winter Words';
/** The figures every answer must show: 5 sold at $12.50, 2 returned. */
const FIGURES = { sold: 5, returned: 2, revenue: 62.5, net: 37.5 };
const leads: { id: string; gclid: string; msclkid: string }[] = [];
let today: string;

const api = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, cookies });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res;
};

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: ZONE });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  const pool = t.app.db.pool;
  today = dateAndTimeIn(new Date(), ZONE).date;
  await pool.query(
    `insert into buyer (id, name, price_cents, config) values ($1, 'Words buyer', 1250, $2::jsonb)`,
    [
      BUYER,
      JSON.stringify({
        delivery: { kind: 'email', to: ['buyer@example.com'] },
        fields: [],
        responseRules: [],
      }),
    ],
  );
  // The campaign's visits today (as the ingest's rollups hold them): 100, so earnings per visit is
  // $37.50 ÷ 100 = $0.375, $0.38 to the cent.
  await pool.query(
    `insert into analytics_daily_source (day, country, channel, source, campaign, visits, visitors)
     values ($1, 'US', 'Paid Search', 'google', $2, 100, 100)`,
    [today, CAMPAIGN],
  );
  for (let i = 0; i < 5; i++) {
    const lead = await insertWebsiteLead(pool);
    const ids = { id: lead.id, gclid: `G-words-${i}`, msclkid: `M-words-${i}` };
    await pool.query(
      `update website_lead set attribution = $2::jsonb, channel = 'Paid Search', source = 'google',
         campaign = $3, country = 'US' where id = $1`,
      [lead.id, JSON.stringify({ gclid: ids.gclid, msclkid: ids.msclkid }), CAMPAIGN],
    );
    await pool.query(
      `insert into lead_sale (lead_id, lead_kind, status, buyer_id, price_cents, sold_at, country, channel,
         source, campaign, created_at)
       values ($1, 'website', 'sold', $2, 1250, now(), 'US', 'Paid Search', 'google', $3, now())`,
      [lead.id, BUYER, CAMPAIGN],
    );
    leads.push(ids);
  }
  for (const lead of leads.slice(0, 2)) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/leads/${lead.id}/return`,
      cookies,
      payload: { reason: 'Disconnected number' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('one meaning per money word', () => {
  it('GET /api/admin/revenue: by day, campaign and buyer', async () => {
    const range = `from=${today}&to=${today}`;
    for (const [groupBy, key] of [
      ['day', today],
      ['campaign', CAMPAIGN],
      ['buyer', 'Words buyer'],
    ] as const) {
      const rows = (await api(`/api/admin/revenue?${range}&groupBy=${groupBy}`)).json() as {
        key: string;
      }[];
      expect(
        rows.find((r) => r.key === key),
        groupBy,
      ).toMatchObject({ ...FIGURES, credited: 25 });
    }
  });

  it('the analytics sources table: its row, its totals, its day and its CSV', async () => {
    const summary = (await api(`/api/admin/analytics?startDate=${today}&endDate=${today}`)).json();
    const row = summary.sources.find(
      (r: { source: string; campaign: string }) => r.source === 'google' && r.campaign === CAMPAIGN,
    );
    expect(row).toMatchObject({ ...FIGURES, earningsPerVisit: 0.38 });
    expect(summary.moneyTotals).toMatchObject(FIGURES);
    expect(summary.dailyMoney).toContainEqual({ date: today, revenue: 62.5, net: 37.5, cost: 0 });
    const csv = analyticsCsv(summary, { startDate: today, endDate: today }, ZONE).split('\r\n');
    const name = `Paid Search / google / ${CAMPAIGN}`;
    for (const line of [
      `source,${name},sold,5`,
      `source,${name},returned,2`,
      `source,${name},revenue,62.50`,
      `source,${name},net,37.50`,
      `source,${name},earningsPerVisit,0.38`,
      'money,All sources,sold,5',
      'money,All sources,returned,2',
      'money,All sources,revenue,62.50',
      'money,All sources,net,37.50',
    ]) {
      expect(csv).toContain(line);
    }
  });

  it("the Buyers list's today", async () => {
    const buyers = (await api('/api/admin/buyers')).json() as { id: string; today: object }[];
    expect(buyers.find((b) => b.id === BUYER)?.today).toMatchObject(FIGURES);
  });

  it("the e-mail summaries' Money section", async () => {
    const from = new Date(Date.now() - 3_600_000);
    const section = await moneySummarySection(ZONE)(t.app.db.pool, {
      from: new Date(from.getTime() - 86_400_000),
      to: new Date(Date.now() + 60_000),
    });
    expect(section.rows.slice(0, 4)).toEqual([
      { label: 'Sold (returned ones included)', value: '5' },
      { label: 'Returned', value: '2' },
      { label: 'Revenue (gross)', value: '$62.50' },
      { label: 'Net (revenue after returns)', value: '$37.50' },
    ]);
  });

  it('the conversion files leave the returned leads out; both retraction files have them', async () => {
    const range = `from=${today}&to=${today}`;
    const returned = leads.slice(0, 2);
    const kept = leads.slice(2);
    for (const [platform, clickId] of [
      ['google', 'gclid'],
      ['microsoft', 'msclkid'],
    ] as const) {
      for (const count of ['accepted', 'sold']) {
        const file = (await api(`/api/admin/exports/${platform}-ads-conversions?${range}&count=${count}`))
          .body;
        for (const lead of returned) expect(file, `${platform} ${count}`).not.toContain(lead[clickId]);
        expect(file, `${platform} ${count}`).toContain('12.50');
        for (const lead of kept) expect(file, `${platform} ${count}`).toContain(lead[clickId]);
      }
      const retractions = (await api(`/api/admin/exports/${platform}-ads-conversion-adjustments?${range}`))
        .body;
      for (const lead of returned) expect(retractions, platform).toContain(lead[clickId]);
      for (const lead of kept) expect(retractions, platform).not.toContain(lead[clickId]);
      expect(retractions.match(platform === 'google' ? /,RETRACT,/g : /,Retract,/g)).toHaveLength(2);
    }
  });
});
