import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { purgeExpiredEvents, rebuildRollups } from '../src/analytics/analytics-report.service';
import { seedAdmin, signIn } from './support/admin';
import { clearAnalytics } from './support/analytics';
import { startTestApp, type TestApp } from './support/test-app';

// ADR 070: the Visitors card adds up the kept counts of closed days (analytics_day_visitor_count) and
// counts the open days live. Every figure here is checked against the exact count — distinct (day,
// visitor id) pairs of analytics_day_visitor under the same filter — and against hand-counted values.

const TZ = 'America/New_York';
let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAnalytics(t.app.db.pool);
});

type Visit = {
  daysAgo: number;
  visitor: number;
  session: string;
  country: string;
  channel: string;
  source: string;
  campaign: string | null;
};
const ann = (daysAgo: number, session: string, source: string, campaign: string | null): Visit => ({
  daysAgo,
  visitor: 1,
  session,
  country: 'US',
  channel: source === 'newsletter' ? 'Email' : source === 'facebook' ? 'Paid Social' : 'Paid Search',
  source,
  campaign,
});

/** A page view per visit, `daysAgo` days before now (noon-ish, so the business day is plain). */
async function insertVisits(visits: Visit[]) {
  for (const v of visits) {
    await t.app.db.pool.query(
      `insert into analytics_event (created_at, event_type, page, referrer, referrer_host, referrer_url,
         session_id, country, visitor_id, channel, source, utm_campaign)
       values (date_trunc('day', now() at time zone $1) at time zone $1 - make_interval(days => $2)
           + interval '12 hours', 'page_view', 'home', 'direct', 'direct', 'direct', $3, $4, $5, $6, $7, $8)`,
      [TZ, v.daysAgo, v.session, v.country, v.visitor, v.channel, v.source, v.campaign],
    );
  }
  await rebuildRollups(t.app.db.pool, { timeZone: TZ, retentionDays: 36_500 });
}

/** Six days ago Ann came through Google and through Facebook (one campaign), Bob through Google from
 *  Canada, Cy from a newsletter; four days ago Ann again; today Dan through Google. */
const SEED: Visit[] = [
  ann(6, 'a1', 'google', 'spring'),
  ann(6, 'a2', 'facebook', 'spring'),
  { ...ann(6, 'b1', 'google', 'spring'), visitor: 2, country: 'CA' },
  { ...ann(6, 'c1', 'newsletter', null), visitor: 3 },
  ann(4, 'a3', 'google', 'spring'),
  { ...ann(0, 'd1', 'google', 'spring'), visitor: 4 },
];

async function summary(query: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', query, cookies });
  expect(res.statusCode).toBe(200);
  return res.json() as { totalVisitors: number; comparison: { current: { visitors: number } } };
}

/** The exact count: distinct (day, visitor) pairs under the filter, straight from the visitor ids. */
async function exact(filter: Record<string, string> = {}) {
  const clauses = Object.keys(filter).map((k, i) => `${k} = $${i + 1}`);
  const { rows } = await t.app.db.pool.query<{ n: string }>(
    `select count(*)::text as n from (select distinct day, visitor_id from analytics_day_visitor
     ${clauses.length ? `where ${clauses.join(' and ')}` : ''}) v`,
    Object.values(filter),
  );
  return Number(rows[0]?.n);
}

const keptDays = async () =>
  (
    await t.app.db.pool.query<{ day: string; visitors: number }>(
      `select day::text as day, visitors from analytics_day_visitor_count where dimension = 'all' order by day`,
    )
  ).rows;

const FILTERS: Record<string, string>[] = [
  {},
  { campaign: 'spring' },
  { source: 'google' },
  { country: 'US' },
  { country: 'CA' },
  { channel: 'Paid Search' },
  { campaign: '' },
  { country: 'US', source: 'google' }, // a combination: counted exactly
];
const asQuery = (f: Record<string, string>) =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, k === 'campaign' && v === '' ? '(none)' : v]));

describe('unique visitors from the kept counts of closed days (ADR 070)', () => {
  it('gives the exact figures, a visitor seen through two sources on one day counted once', async () => {
    await insertVisits(SEED);
    // The rebuild counted the closed days (six and four days ago) and none of the open ones.
    expect((await keptDays()).filter((d) => d.visitors > 0).map((d) => d.visitors)).toEqual([3, 1]);
    expect((await summary()).totalVisitors).toBe(5); // Ann, Bob, Cy; Ann; Dan
    expect((await summary({ campaign: 'spring' })).totalVisitors).toBe(4); // Ann, Bob; Ann; Dan
    for (const f of FILTERS) {
      const s = await summary(asQuery(f));
      expect({ f, visitors: s.totalVisitors }).toEqual({ f, visitors: await exact(f) });
      expect(s.comparison.current.visitors).toBe(s.totalVisitors); // all within the last 30 days
    }
    // The combination was kept under itself, day by day: Ann six and four days ago.
    const { rows } = await t.app.db.pool.query<{ visitors: number }>(
      `select visitors from analytics_day_visitor_count where dimension = 'filters' and visitors > 0 order by day`,
    );
    expect(rows.map((r) => r.visitors)).toEqual([1, 1]);
  });

  it('counts a closed day not kept yet, and keeps it', async () => {
    await insertVisits(SEED);
    await t.app.db.pool.query('delete from analytics_day_visitor_count');
    expect((await summary()).totalVisitors).toBe(5);
    expect((await keptDays()).filter((d) => d.visitors > 0).map((d) => d.visitors)).toEqual([3, 1]);
    expect((await summary({ source: 'facebook' })).totalVisitors).toBe(1);
  });

  it('follows a rebuild that changes a closed day, and a range that starts or ends among the kept days', async () => {
    await insertVisits(SEED);
    await summary();
    // Eve came six days ago through Google; the rollups are rebuilt.
    await insertVisits([{ ...ann(6, 'e1', 'google', 'spring'), visitor: 5 }]);
    for (const f of FILTERS) {
      expect((await summary(asQuery(f))).totalVisitors).toBe(await exact(f));
    }
    expect((await summary()).totalVisitors).toBe(6);
    const { rows } = await t.app.db.pool.query<{ day: string }>(
      `select ((now() at time zone $1)::date - 4)::text as day`,
      [TZ],
    );
    const fourDaysAgo = rows[0]?.day as string;
    expect((await summary({ startDate: fourDaysAgo })).totalVisitors).toBe(2); // Ann; Dan
    expect((await summary({ endDate: fourDaysAgo })).totalVisitors).toBe(5); // Ann, Bob, Cy, Eve; Ann
    expect((await summary({ startDate: fourDaysAgo, endDate: fourDaysAgo })).totalVisitors).toBe(1);
  });

  it('drops the kept counts with the visitors (emptied, or purged after retention)', async () => {
    await insertVisits(SEED);
    await summary();
    await purgeExpiredEvents(t.app.db.pool, 5);
    // Six days ago is past a five-day retention: its visitor ids and its count are gone together.
    expect((await keptDays()).filter((d) => d.visitors > 0).map((d) => d.visitors)).toEqual([1]);
    await clearAnalytics(t.app.db.pool);
    expect(await keptDays()).toEqual([]);
    expect((await summary()).totalVisitors).toBe(0);
  });
});

describe('kept counts under dashboards opened at once (ADR 070)', () => {
  it('gives every dashboard the exact figure while the first of them keeps the counts', async () => {
    await insertVisits(SEED);
    // Each round a combination not kept yet, asked by many dashboards at once: one keeps its counts while
    // the others read them. A dashboard that saw the days kept must also see their sum (one snapshot).
    const combos: Record<string, string>[] = [
      { country: 'US', source: 'google' },
      { country: 'US', campaign: 'spring' },
      { source: 'google', campaign: 'spring' },
      { channel: 'Paid Search', country: 'US' },
      { channel: 'Paid Search', campaign: 'spring' },
      { country: 'US', channel: 'Paid Search', source: 'google' },
    ];
    for (const f of combos) {
      const want = await exact(f);
      const got = await Promise.all(Array.from({ length: 12 }, () => summary(asQuery(f))));
      expect({ f, visitors: got.map((s) => s.totalVisitors) }).toEqual({
        f,
        visitors: got.map(() => want),
      });
    }
  });
});
