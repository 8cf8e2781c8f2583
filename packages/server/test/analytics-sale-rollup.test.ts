import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups } from '../src/analytics/analytics-report.service';
import { saleRollupReady } from '../src/analytics/sale-rollup';
import { openDatabase } from '../src/db/database';
import { installJobQueue } from '../src/webhooks/webhook-worker';
import { seedAdmin, signIn } from './support/admin';
import { insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-db';

// The sales' money kept by business day (ADR 070, "The money rollup"; migration sale_daily_rollup):
// lead_sale_daily must always hold what summing lead_sale gives — after sales, returns (through the
// API), price and attribution changes, a buyer deleted (its sales' buyer set null by the foreign key),
// leads deleted (their sales stay), sales written concurrently, truncate and rebuilds in another zone —
// and the dashboard must answer the same from it as from the sales themselves.

let t: TestApp;
let cookies: Record<string, string>;
const ZONE = 'America/New_York';
const BUYER = randomUUID();

const pool = () => t.app.db.pool;
const sql = (text: string, values: unknown[] = []) => pool().query(text, values);

/** The rollup's rows that count something, in key order (summed in `inZone`). */
async function kept(inZone = ZONE) {
  expect(await zone()).toBe(inZone);
  const { rows } = await sql(
    `select day::text as day, country, channel, source, campaign, sold::int, revenue_cents::int,
       returned::int, returned_cents::int
     from lead_sale_daily where sold <> 0 or revenue_cents <> 0 or returned <> 0 or returned_cents <> 0
     order by day, channel, source, campaign, country`,
  );
  return rows;
}
/** The same, summed from lead_sale in `zone`. */
async function summed(zone = ZONE) {
  const { rows } = await sql(
    `select (created_at at time zone $1)::date::text as day, country, channel, source, campaign,
       count(*)::int as sold, coalesce(sum(price_cents), 0)::int as revenue_cents,
       count(*) filter (where returned_at is not null)::int as returned,
       coalesce(sum(price_cents) filter (where returned_at is not null), 0)::int as returned_cents
     from lead_sale where lead_kind = 'website' and status = 'sold'
     group by 1, 2, 3, 4, 5 order by day, channel, source, campaign, country`,
    [zone],
  );
  return rows;
}
const zone = async () => (await sql('select time_zone from lead_sale_daily_zone')).rows[0]?.time_zone;

type Sale = {
  lead?: string;
  kind?: 'website' | 'api';
  status?: string;
  cents?: number | null;
  at: string;
  channel?: string | null;
  source?: string | null;
  campaign?: string | null;
  country?: string | null;
};
async function sale(s: Sale) {
  const lead = s.lead ?? randomUUID();
  await sql(
    `insert into lead_sale (lead_id, lead_kind, status, buyer_id, price_cents, sold_at, country, channel, source,
       campaign, created_at)
     values ($1, $2, $3, case when $3 = 'sold' then $4::uuid end, $5, case when $3 = 'sold' then $6::timestamptz end,
       $7, $8, $9, $10, $6)`,
    [
      lead,
      s.kind ?? 'website',
      s.status ?? 'sold',
      BUYER,
      s.cents === undefined ? 2500 : s.cents,
      s.at,
      s.country === undefined ? 'US' : s.country,
      s.channel === undefined ? 'Paid Search' : s.channel,
      s.source === undefined ? 'google' : s.source,
      s.campaign === undefined ? 'Spring' : s.campaign,
    ],
  );
  return lead;
}

async function analytics(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/analytics?${query}`, cookies });
  expect(res.statusCode).toBe(200);
  const body = res.json() as Record<string, unknown>;
  return { sources: body.sources, moneyTotals: body.moneyTotals, dailyMoney: body.dailyMoney };
}

const QUERIES = [
  '',
  'startDate=2026-11-03&endDate=2026-11-03',
  'startDate=2026-11-04',
  'endDate=2026-11-03',
  'channel=Paid%20Search',
  'source=facebook',
  'campaign=',
  'campaign=Spring',
  'country=US',
  'channel=Email&country=CA&startDate=2026-11-01&endDate=2026-11-30',
];

/** The dashboard's money for each query, read with the rollup held by another session (so from lead_sale). */
async function answersFromSales() {
  const holder = new pg.Client({ connectionString: t.db.url });
  await holder.connect();
  try {
    await holder.query('delete from lead_sale_daily_zone');
    await holder.query('begin');
    // Row share conflicts with the rebuild's exclusive lock: the dashboard cannot rebuild (nowait).
    await holder.query('lock table lead_sale_daily in row share mode');
    const answers = [];
    for (const q of QUERIES) answers.push(await analytics(q));
    await holder.query('rollback');
    // Summed again, as the next dashboard would: the triggers keep it from here on.
    expect(await saleRollupReady(pool(), ZONE)).toBe(true);
    return answers;
  } finally {
    await holder.end();
  }
}
async function answersFromRollup() {
  const answers = [];
  for (const q of QUERIES) answers.push(await analytics(q));
  expect(await zone()).toBe(ZONE);
  return answers;
}

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: ZONE });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  await sql(`insert into buyer (id, name, price_cents, config) values ($1, 'PX', 2500, '{}')`, [BUYER]);
  // Rows of the sources table for the sales to land on (a sale counts on its source's row).
  for (const [table, period, first] of [
    ['daily', 'day', '2026-11-03'],
    ['monthly', 'month', '2026-11-01'],
  ]) {
    await sql(
      `insert into analytics_${table}_source (${period}, country, channel, source, campaign, visits, visitors)
       values ($1, 'US', 'Paid Search', 'google', 'Spring', 200, 200),
              ($1, 'US', 'Paid Social', 'facebook', 'Retarget', 50, 50),
              ($1, 'CA', 'Email', 'newsletter', '', 20, 20)`,
      [first],
    );
  }
});
afterAll(async () => {
  await t?.close();
});

describe('lead_sale_daily: the sales’ money kept by business day', () => {
  it('is summed by the first dashboard, then kept by the triggers through sales, returns and changes', async () => {
    // Sales written before any dashboard: no zone yet, so the triggers keep nothing.
    await sale({ at: '2026-11-03T16:00:00Z' });
    await sale({ at: '2026-11-04T03:30:00Z', cents: 1234 }); // 22:30 on Nov 3 in New York
    await sale({ at: '2026-11-03T12:00:00Z', kind: 'api', channel: 'API', source: 'api', campaign: '' });
    expect(await zone()).toBeUndefined();
    expect((await sql('select * from lead_sale_daily')).rows).toEqual([]);

    const fromSales = await answersFromSales();
    expect(await answersFromRollup()).toEqual(fromSales);
    expect(await kept()).toEqual(await summed());
    expect((await kept()).map((r) => [r.day, r.sold, r.revenue_cents])).toEqual([['2026-11-03', 2, 3734]]);

    // A lead offered (pending), then sold the way buyer_record_result sells it; one not for sale.
    const offered = await sale({
      status: 'pending',
      at: '2026-11-05T15:00:00Z',
      channel: 'Paid Social',
      source: 'facebook',
      campaign: 'Retarget',
    });
    await sale({ status: 'not_for_sale', at: '2026-11-05T15:00:00Z' });
    expect(await kept()).toEqual(await summed());
    await sql(
      `update lead_sale set status = 'sold', buyer_id = $2, price_cents = 1850, sold_at = now(), claimed_until = null
       where lead_id = $1`,
      [offered, BUYER],
    );
    // Attribution and money that the rollup's keys do not normalise: nulls, '' and a null price.
    await sale({ at: '2026-11-06T10:00:00Z', channel: null, source: null, campaign: null, country: null });
    await sale({
      at: '2026-11-06T11:00:00Z',
      channel: 'Email',
      source: 'newsletter',
      campaign: '',
      country: 'CA',
    });
    await sale({ at: '2026-11-06T12:00:00Z', cents: null });
    expect(await kept()).toEqual(await summed());

    // A return through the API credits the sale: it stays sold (and in revenue) and counts as returned,
    // its price credited (issue 47, ADR 073).
    const returned = await sale({ at: new Date().toISOString(), cents: 4000 });
    expect(await kept()).toEqual(await summed());
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/leads/${returned}/return`,
      cookies,
      payload: { reason: 'Disconnected number' },
    });
    expect(res.statusCode).toBe(200);
    expect(await kept()).toEqual(await summed());
    expect((await kept()).filter((r) => r.returned !== 0)).toEqual([
      expect.objectContaining({ sold: 1, revenue_cents: 4000, returned: 1, returned_cents: 4000 }),
    ]);

    // A price corrected, a sale moved across midnight in New York and to another campaign, several rows
    // in one statement.
    await sql(
      `update lead_sale set price_cents = price_cents + 1 where lead_kind = 'website' and status = 'sold'`,
    );
    await sql(
      `update lead_sale set created_at = '2026-11-04T04:30:00Z', campaign = 'Fall' where lead_id = (
         select lead_id from lead_sale where price_cents = 1235)`,
    );
    expect(await kept()).toEqual(await summed());
    expect(await answersFromRollup()).toEqual(await answersFromSales());
  });

  it('keeps the sales of deleted leads, and follows a buyer deleted and sales deleted', async () => {
    const lead = await insertWebsiteLead(pool());
    const other = await insertWebsiteLead(pool());
    await sale({ lead: lead.id, at: '2026-11-03T18:00:00Z', cents: 700 });
    await sale({ lead: other.id, at: '2026-11-03T19:00:00Z', cents: 800 });
    const before = await kept();
    expect(before).toEqual(await summed());
    // Deleting a lead (its cascades and triggers: consent receipts, rollups, the sale log scrubbed) keeps
    // its sale's figures (ADR 069).
    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/leads/${lead.id}`, cookies });
    expect(del.statusCode).toBe(200);
    await sql('truncate website_lead cascade');
    expect(await kept()).toEqual(before);
    // A buyer deleted: its sales' buyer is set null by the foreign key (an update of lead_sale).
    await sql('delete from buyer where id = $1', [BUYER]);
    expect(await kept()).toEqual(before);
    await sql(`insert into buyer (id, name, price_cents, config) values ($1, 'PX', 2500, '{}')`, [BUYER]);
    // Sales deleted outright.
    await sql('delete from lead_sale where lead_id = any($1::uuid[])', [[lead.id, other.id]]);
    expect(await kept()).toEqual(await summed());
    expect(await answersFromRollup()).toEqual(await answersFromSales());
  });

  it('adds sales and returns written at once by many sessions', async () => {
    const leads = Array.from({ length: 40 }, () => randomUUID());
    await Promise.all(
      leads.map((lead, i) =>
        sale({
          lead,
          at: `2026-11-0${3 + (i % 3)}T15:00:00Z`,
          cents: 100 + i,
          campaign: i % 2 ? 'Spring' : 'Fall',
        }),
      ),
    );
    await Promise.all(
      leads
        .filter((_, i) => i % 4 === 0)
        .map((lead) => sql('update lead_sale set returned_at = now() where lead_id = $1', [lead])),
    );
    expect(await kept()).toEqual(await summed());
  });

  it('is summed again in another zone by the rebuild command, and back by the dashboard', async () => {
    await rebuildRollups(pool(), { timeZone: 'UTC', retentionDays: 395 });
    expect(await zone()).toBe('UTC');
    expect(await kept('UTC')).toEqual(await summed('UTC'));
    expect(await kept('UTC')).not.toEqual(await summed());
    // A sale written meanwhile is dated in the rollup's zone.
    await sale({ at: '2026-11-04T02:00:00Z', cents: 300 });
    expect(await kept('UTC')).toEqual(await summed('UTC'));
    // The dashboard (TIME_ZONE New York) finds the rollup in another zone: it sums it again in its own.
    const fromRollup = await answersFromRollup();
    expect(await kept()).toEqual(await summed());
    expect(fromRollup).toEqual(await answersFromSales());
  });

  it('is emptied with lead_sale', async () => {
    expect((await kept()).length).toBeGreaterThan(0);
    await sql('truncate lead_sale');
    expect(await sql('select * from lead_sale_daily').then((r) => r.rows)).toEqual([]);
    await sale({ at: '2026-11-03T16:00:00Z', cents: 999 });
    expect(await kept()).toEqual(await summed());
    expect(await answersFromRollup()).toEqual(await answersFromSales());
  });
});

describe('migration sale_daily_rollup', () => {
  it('adds the rollup without a zone (the sales summed as before until a rebuild), and drops it on down()', async () => {
    const testDb = await createTestDatabase();
    const db = await openDatabase({ url: testDb.url, poolMax: 2 });
    try {
      await installJobQueue(testDb.url);
      await db.orm.migrator.up({ to: 'Migration20261204200000_monthly_summary' });
      const insert = (lead: string) =>
        db.pool.query(
          `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, channel, source, campaign, created_at)
           values ($1, 'website', 'sold', 500, now(), 'Direct', 'direct', '', now())`,
          [lead],
        );
      await insert(randomUUID());
      await db.orm.migrator.up({ to: 'Migration20261205100000_sale_daily_rollup' });
      const count = async () =>
        (await db.pool.query('select count(*)::int as n from lead_sale_daily')).rows[0].n;
      expect(await count()).toBe(0);
      await insert(randomUUID()); // no zone yet: the triggers keep nothing
      expect(await count()).toBe(0);
      expect(await saleRollupReady(db.pool, ZONE)).toBe(true);
      expect((await db.pool.query('select sold::int from lead_sale_daily')).rows).toEqual([{ sold: 2 }]);
      await insert(randomUUID());
      expect((await db.pool.query('select sold::int from lead_sale_daily')).rows).toEqual([{ sold: 3 }]);

      await db.orm.migrator.down();
      const left = await db.pool.query(
        `select to_regclass('lead_sale_daily') as rollup, to_regclass('lead_sale_daily_zone') as zone,
           (select count(*)::int from pg_trigger where tgname like 'lead_sale_daily%') as triggers,
           (select count(*)::int from pg_proc where proname like 'lead_sale_daily%') as functions`,
      );
      expect(left.rows[0]).toEqual({ rollup: null, zone: null, triggers: 0, functions: 0 });
      await insert(randomUUID()); // lead_sale writes as before
    } finally {
      await db.close();
      await testDb.drop();
    }
  });
});
