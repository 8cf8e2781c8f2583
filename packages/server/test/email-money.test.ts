import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { startSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 35 part 4: the e-mail summaries carry the money of their period — leads sold and returned, revenue
// (gross) and net (after returns, issue 47), ad cost, profit, the top and bottom campaigns by profit — as
// the analytics sources table computes it. Against a
// local SMTP sink; each test passes the instant to runDue().

let sink: Awaited<ReturnType<typeof startSink>>;
let t: TestApp;
let cookies: Record<string, string>;

// The week of Monday 23 to Sunday 29 November 2026 in New York (EST, UTC-5); its report goes out on
// Monday the 30th at 09:00 EST, 14:00 UTC.
const IN_WEEK = '2026-11-25';

/** A day's visits and leads of a campaign, in the day's and the month's rollups (as the ingest writes them). */
async function traffic(channel: string, source: string, campaign: string, day = IN_WEEK) {
  const pool = t.app.db.pool;
  for (const [period, key] of [
    ['daily', 'day'],
    ['monthly', 'month'],
  ] as const) {
    const at = period === 'daily' ? day : `${day.slice(0, 7)}-01`;
    await pool.query(
      `insert into analytics_${period}_source (${key}, country, channel, source, campaign, visits, visitors)
       values ($1, 'US', $2, $3, $4, 100, 100)`,
      [at, channel, source, campaign],
    );
    await pool.query(
      `insert into lead_${period}_source (${key}, country, channel, source, campaign, leads, consenting, beneficiaries, tracked)
       values ($1, 'US', $2, $3, $4, 5, 5, 0, 5)`,
      [at, channel, source, campaign],
    );
  }
}
async function sale(
  channel: string,
  source: string,
  campaign: string,
  price: string,
  opts: { returned?: boolean; at?: string } = {},
) {
  const at = opts.at ?? `${IN_WEEK}T16:00:00Z`;
  await t.app.db.pool.query(
    `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, country, channel, source, campaign,
       returned_at, created_at)
     values ($1, 'website', 'sold', ($2::numeric * 100)::bigint, $3, 'US', $4, $5, $6, $7, $3)`,
    [randomUUID(), price, at, channel, source, campaign, opts.returned ? '2026-11-27T15:00:00Z' : null],
  );
}

beforeAll(async () => {
  sink = await startSink();
  t = await startTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, TIME_ZONE: 'America/New_York' },
    { emailScheduler: false },
  );
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  const saved = await t.app.inject({
    method: 'PATCH',
    url: '/api/admin/me/email',
    cookies,
    payload: { email: 'ops@example.com', dailySummary: true, weeklySummary: true, alerts: false },
  });
  expect(saved.statusCode).toBe(200);

  // Spring: $50.00 net (a third sale returned), $30.00 of cost → $20.00.
  await traffic('Paid Search', 'google', 'Spring');
  await sale('Paid Search', 'google', 'Spring', '25.00');
  await sale('Paid Search', 'google', 'Spring', '25.00');
  await sale('Paid Search', 'google', 'Spring', '25.00', { returned: true });
  // Summer: $100.00, $10.00 of cost → $90.00; and a sale the Monday after, outside the week.
  await traffic('Paid Search', 'google', 'Summer');
  await sale('Paid Search', 'google', 'Summer', '100.00');
  await traffic('Paid Search', 'google', 'Summer', '2026-11-30');
  await sale('Paid Search', 'google', 'Summer', '500.00', { at: '2026-11-30T15:00:00Z' });
  // November (newsletter): $12.34, no cost → $12.34.
  await traffic('Email', 'newsletter', 'November');
  await sale('Email', 'newsletter', 'November', '12.34');
  // Retarget: no sale, $15.50 of cost → -$15.50. Fall: $5.00, $45.00 of cost → -$40.00.
  await traffic('Paid Social', 'facebook', 'Retarget');
  await traffic('Paid Search', 'bing', 'Fall');
  await sale('Paid Search', 'bing', 'Fall', '5.00');
  // Organic: traffic and no money at all, never ranked.
  await traffic('Organic Search', 'duckduckgo', '');

  const costs = await t.app.inject({
    method: 'POST',
    url: '/api/admin/ad-costs',
    cookies,
    payload: {
      rows: [
        { date: IN_WEEK, source: 'google', campaign: 'Spring', cost: 30 },
        { date: IN_WEEK, source: 'google', campaign: 'Summer', cost: 10 },
        { date: '2026-11-22', source: 'google', campaign: 'Summer', cost: 999 }, // the Sunday before
        { date: IN_WEEK, source: 'facebook', campaign: 'Retarget', cost: 15.5 },
        { date: IN_WEEK, source: 'bing', campaign: 'Fall', cost: 45 },
        // Bought, never tagged: no traffic, -$7.00.
        { date: '2026-11-29', source: 'bing', campaign: 'Ghost', cost: 7 },
      ],
    },
  });
  expect(costs.json()).toMatchObject({ imported: 6, skipped: [] });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** The Money section of a message's text part, line by line. */
function moneyLines(raw: string): string[] {
  const lines = raw.split(/\r?\n/);
  const start = lines.indexOf('Money');
  expect(start, 'a Money section').toBeGreaterThan(-1);
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

describe('the money section of the e-mail summaries', () => {
  it('weekly: sold, returned, revenue, net, cost, profit and the three best and worst campaigns of the week', async () => {
    const sent = await t.app.emailReports.runDue(new Date('2026-11-30T14:05:00Z'));
    expect(sent).toEqual(expect.arrayContaining(['daily:2026-11-29', 'weekly:2026-11-23']));
    const weekly = sink.inbox.find((m) => /Weekly lead summary/.test(m.raw));
    expect(moneyLines(weekly?.raw ?? '')).toEqual([
      'Money',
      '  Sold (returned ones included): 6', // Spring 3, Summer, November, Fall
      '  Returned: 1',
      '  Revenue (gross): $192.34', // 75 + 100 + 12.34 + 5
      '  Net (revenue after returns): $167.34', // less Spring's returned 25
      '  Ad cost: $107.50', // 30 + 10 + 15.50 + 45 + 7
      '  Profit (net - ad cost): $59.84',
      '  Top: google / Summer: $90.00',
      '  Top: google / Spring: $20.00',
      '  Top: newsletter / November: $12.34',
      '  Bottom: bing / Fall: -$40.00',
      '  Bottom: facebook / Retarget: -$15.50',
      '  Bottom: bing / Ghost: -$7.00',
      '  Top and bottom campaigns (source / campaign) by profit.',
    ]);
  });

  it('daily: the same section over the day (Sunday: the untagged campaign alone)', async () => {
    const daily = sink.inbox.find((m) => /Daily lead summary, 2026-11-29/.test(m.raw));
    expect(moneyLines(daily?.raw ?? '')).toEqual([
      'Money',
      '  Sold (returned ones included): 0',
      '  Returned: 0',
      '  Revenue (gross): $0.00',
      '  Net (revenue after returns): $0.00',
      '  Ad cost: $7.00',
      '  Profit (net - ad cost): -$7.00',
      '  Top: bing / Ghost: -$7.00',
      '  Top and bottom campaigns (source / campaign) by profit.',
    ]);
  });

  it('monthly: the month before, sent on the first to the admins who opted in (the choice kept when a client leaves it out)', async () => {
    const optIn = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/me/email',
      cookies,
      payload: {
        email: 'ops@example.com',
        dailySummary: false,
        weeklySummary: false,
        monthlySummary: true,
        alerts: false,
      },
    });
    expect(optIn.json()).toMatchObject({ monthlySummary: true, dailySummary: false });
    // A client from before the monthly summary sends the other three: the monthly one stays on.
    const older = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/me/email',
      cookies,
      payload: { email: 'ops@example.com', dailySummary: false, weeklySummary: false, alerts: false },
    });
    expect(older.json()).toMatchObject({ monthlySummary: true });
    const read = await t.app.inject({ method: 'GET', url: '/api/admin/me/email', cookies });
    expect(read.json()).toMatchObject({ monthlySummary: true, weeklySummary: false });

    // Tuesday 1 December 2026, 09:05 EST: November's summary (the daily one is off now: nobody gets it).
    const sent = await t.app.emailReports.runDue(new Date('2026-12-01T14:05:00Z'));
    expect(sent).toContain('monthly:2026-11-01');
    expect(sink.inbox.some((m) => /Daily lead summary, 2026-11-30/.test(m.raw))).toBe(false);
    const monthly = sink.inbox.find((m) => /Monthly lead summary, 2026-11-01 to 2026-11-30/.test(m.raw));
    expect(moneyLines(monthly?.raw ?? '')).toEqual([
      'Money',
      '  Sold (returned ones included): 7',
      '  Returned: 1',
      '  Revenue (gross): $692.34',
      '  Net (revenue after returns): $667.34', // the week's 167.34 and the Monday after's 500
      '  Ad cost: $1,106.50', // the week's 107.50 and the Sunday before's 999
      '  Profit (net - ad cost): -$439.16',
      '  Top: google / Spring: $20.00',
      '  Top: newsletter / November: $12.34',
      '  Top: bing / Ghost: -$7.00',
      '  Bottom: google / Summer: -$409.00', // 600 of revenue, 1,009 of cost
      '  Bottom: bing / Fall: -$40.00',
      '  Bottom: facebook / Retarget: -$15.50',
      '  Top and bottom campaigns (source / campaign) by profit.',
    ]);
    // Sent once: a second run (another replica) sends nothing.
    expect(await t.app.emailReports.runDue(new Date('2026-12-01T14:06:00Z'))).toEqual([]);
  });
});
