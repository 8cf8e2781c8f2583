import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnalyticsIngester } from '../src/analytics/analytics-ingest.service';
import { rebuildRollups } from '../src/analytics/analytics-report.service';
import { seedAdmin, signIn } from './support/admin';
import { BROWSER_UA, clearAnalytics, rollupSnapshot, track } from './support/analytics';
import { startTestApp, type TestApp } from './support/test-app';

// Ingestion through the real app on a real PostgreSQL: validation, derivation, bot filtering, group
// commit (batching, a bad row alone, graceful shutdown) and rollups kept in step with the raw rows.

let t: TestApp;
let cookies: Record<string, string> | undefined;
const adminCookies = async () => {
  if (!cookies) {
    await seedAdmin(t.app);
    cookies = await signIn(t.app);
  }
  return cookies;
};
beforeAll(async () => {
  t = await startTestApp({ ANALYTICS_COUNTRY_HEADER: 'CF-IPCountry' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAnalytics(t.app.db.pool);
});

const events = async () =>
  (await t.app.db.pool.query('select * from analytics_event order by id')).rows as Record<string, unknown>[];

describe('POST /api/analytics/track', () => {
  it('stores a valid event with its derived fields and without the client IP', async () => {
    const res = await track(t.app, {
      body: {
        eventType: 'page_view',
        page: 'home',
        referrer: 'www.Google.com/search?q=money',
        sessionId: 'abc123',
      },
      headers: { 'cf-ipcountry': 'de', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const rows = await events();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_type: 'page_view',
      page: 'home',
      referrer: 'www.Google.com/search?q=money',
      referrer_host: 'google.com',
      referrer_url: 'https://google.com/search',
      session_id: 'abc123',
      country: 'DE',
    });
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain('127.0.0.1');
    expect(stored).not.toContain('203.0.113.9');
  });

  it('counts a missing referrer and a referral from the site itself as direct', async () => {
    await track(t.app, { body: { eventType: 'page_view', page: 'home', sessionId: 's1' } });
    await track(t.app, {
      body: { eventType: 'page_view', page: 'home', referrer: 'http://www.shop.test/terms', sessionId: 's1' },
      headers: { host: 'shop.test' },
    });
    const rows = await events();
    expect(rows.map((r) => [r.referrer, r.referrer_host, r.referrer_url])).toEqual([
      ['direct', 'direct', 'direct'],
      ['http://www.shop.test/terms', 'direct', 'direct'],
    ]);
  });

  it('ignores a country header that holds no country, and the header when none is configured', async () => {
    await track(t.app, {
      body: { eventType: 'page_view', page: 'home', sessionId: 's' },
      headers: { 'cf-ipcountry': 'XX' },
    });
    const plain = await startTestApp();
    try {
      await track(plain.app, {
        body: { eventType: 'page_view', page: 'home', sessionId: 's' },
        headers: { 'cf-ipcountry': 'FR' },
      });
      const other = await plain.app.db.pool.query('select country from analytics_event');
      expect(other.rows).toEqual([{ country: null }]); // 127.0.0.1 is in no country
    } finally {
      await plain.close();
    }
    expect((await events()).map((r) => r.country)).toEqual([null]);
  });

  it('does not count bots or headless browsers, but counts them per reason', async () => {
    const dropped = async (reason: string) =>
      (await t.app.metrics.registry.getSingleMetric('analytics_events_dropped_total')?.get())?.values.find(
        (v) => v.labels.reason === reason,
      )?.value ?? 0;
    const before = {
      bot: await dropped('bot'),
      headless: await dropped('headless_browser'),
      none: await dropped('missing_user_agent'),
    };
    const body = { eventType: 'page_view', page: 'home', sessionId: 'bot' };
    const agents = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'curl/8.5.0',
    ];
    for (const ua of agents) {
      const res = await track(t.app, { body, headers: { 'user-agent': ua } });
      expect(res.statusCode).toBe(200); // a bot learns nothing from the answer
    }
    const noUa = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      payload: body,
      headers: { 'user-agent': '' },
    });
    expect(noUa.statusCode).toBe(200);
    expect(await events()).toHaveLength(0);
    expect((await dropped('bot')) - before.bot).toBe(2);
    expect((await dropped('headless_browser')) - before.headless).toBe(1);
    expect((await dropped('missing_user_agent')) - before.none).toBe(1);
  });

  it.each([
    [
      'unknown type, empty session',
      { eventType: 'hack', page: 'home', referrer: '', sessionId: '' },
      ['eventType', 'sessionId'],
    ],
    ['empty page', { eventType: 'page_view', page: '', sessionId: 's' }, ['page']],
    ['page over 200', { eventType: 'page_view', page: 'x'.repeat(201), sessionId: 's' }, ['page']],
    [
      'referrer over 2048',
      { eventType: 'page_view', page: 'home', referrer: `https://a.com/${'x'.repeat(2048)}`, sessionId: 's' },
      ['referrer'],
    ],
    ['session over 100', { eventType: 'page_view', page: 'home', sessionId: 's'.repeat(101) }, ['sessionId']],
    ['NUL in page', { eventType: 'page_view', page: 'ho\u0000me', sessionId: 's' }, ['page']],
    [
      'referrer not a string',
      { eventType: 'page_view', page: 'home', referrer: 42, sessionId: 's' },
      ['referrer'],
    ],
    ['empty body', {}, ['eventType', 'page', 'sessionId']],
  ])('answers 400 with the invalid fields: %s', async (_case, body, fields) => {
    const res = await track(t.app, { body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_error' });
    expect(res.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual(fields);
    expect(await events()).toHaveLength(0);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
      payload: '{"eventType":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('group commit', () => {
  it('writes concurrent events in shared batches and answers each only once stored', async () => {
    const batches = async () =>
      (await t.app.metrics.registry.getSingleMetric('analytics_batch_size')?.get())?.values.find(
        (v) => (v as { metricName?: string }).metricName === 'analytics_batch_size_count',
      )?.value ?? 0;
    const before = await batches();
    const n = 300;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        track(t.app, { body: { eventType: 'page_view', page: 'home', sessionId: `c${i}` } }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await events()).toHaveLength(n);
    expect((await batches()) - before).toBeLessThan(n / 3);
  });

  it('keeps the rollups exactly what rebuilding them from the raw events gives', async () => {
    const variants = [
      { country: 'US', referrer: 'https://www.google.com/' },
      { country: 'US', referrer: 'direct' },
      { country: 'CA', referrer: 'https://news.example.com/story?id=1' },
      { country: 'XX', referrer: 'bing.com' },
    ];
    const types = ['page_view', 'form_submit', 'survey_started', 'button_click'];
    await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const v = variants[i % variants.length] ?? variants[0];
        return track(t.app, {
          body: {
            eventType: types[i % types.length],
            page: 'home',
            referrer: v?.referrer,
            sessionId: `r${i}`,
          },
          headers: { 'cf-ipcountry': v?.country ?? 'US' },
        });
      }),
    );
    const live = await rollupSnapshot(t.app.db.pool);
    expect(live.analytics_daily_type.reduce((s, r) => s + Number(r.count), 0)).toBe(120);
    await rebuildRollups(t.app.db.pool, {
      timeZone: t.config.timeZone,
      retentionDays: 30,
      fromDay: '2000-01-01',
    });
    expect(await rollupSnapshot(t.app.db.pool)).toEqual(live);
  });

  it('appends delta rows that several writers write at once, folded to one row per key by the compaction', async () => {
    // Sequential batches of the same day and type: each appends its own row (no shared row to wait on).
    for (let i = 0; i < 5; i++) {
      const res = await track(t.app, {
        body: { eventType: 'page_view', page: 'home', referrer: 'direct', sessionId: `fold${i}` },
        headers: { 'cf-ipcountry': 'US' },
      });
      expect(res.statusCode).toBe(200);
    }
    const rowsOf = async (table: string) =>
      Number((await t.app.db.pool.query(`select count(*) from ${table}`)).rows[0].count);
    expect(await rowsOf('analytics_daily_type')).toBe(5);
    const summary = async () =>
      (await t.app.inject({ url: '/api/admin/analytics', cookies: await adminCookies() })).json();
    const before = await summary();
    const snapshot = await rollupSnapshot(t.app.db.pool);
    await t.app.db.pool.query('select compact_analytics_rollups()');
    expect(await rowsOf('analytics_daily_type')).toBe(1);
    expect(await rowsOf('analytics_daily_source')).toBe(1);
    expect(await rollupSnapshot(t.app.db.pool)).toEqual(snapshot);
    expect(await summary()).toEqual(before);
    expect(before.totalPageViews).toBe(5);
  });

  it('stores the good events of a batch when one row is refused by the database', async () => {
    // A country lookup that returns a value the database's check constraint refuses, for one client.
    const ingester = createAnalyticsIngester({
      pool: t.app.db.pool,
      timeZone: t.config.timeZone,
      registry: new (await import('prom-client')).Registry(),
      lookupCountry: async ({ ip }) => (ip === '198.51.100.66' ? 'USA' : 'US'),
      concurrency: 1,
    });
    const ctx = (ip: string) => ({
      userAgent: BROWSER_UA,
      secChUa: undefined,
      ip,
      countryHeader: undefined,
      host: 'site.test',
    });
    const event = {
      eventType: 'page_view' as const,
      page: 'home',
      referrer: 'direct',
      sessionId: 'b',
      attribution: {},
    };
    // The first event is written alone; the next five queue behind it and form one batch.
    const results = await Promise.allSettled(
      ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.66', '198.51.100.5', '198.51.100.6'].map(
        (ip) => ingester.track(event, ctx(ip)),
      ),
    );
    await ingester.close();
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const refused = (results[3] as PromiseRejectedResult).reason;
    expect(refused).toMatchObject({ code: 'validation_error', message: 'This event could not be stored' });
    expect(await events()).toHaveLength(5);
    const rollup = await t.app.db.pool.query('select sum(count)::int as n from analytics_daily_type');
    expect(rollup.rows[0].n).toBe(5);
  });

  it('writes every acknowledged event before the app closes (graceful shutdown)', async () => {
    const own = await startTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const address = own.app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/analytics/track`;
    let acknowledged = 0;
    const inFlight = Array.from(
      { length: 200 },
      (_, i) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
          body: JSON.stringify({ eventType: 'page_view', page: 'home', sessionId: `g${i}` }),
        })
          .then((r) => {
            if (r.status === 200) acknowledged += 1;
          })
          .catch(() => {}), // refused during shutdown: never acknowledged, so nothing is owed
    );
    // Close while requests are still arriving and batches are still being written.
    while (acknowledged < 10) await new Promise((r) => setTimeout(r, 1));
    const closing = own.app.close();
    await Promise.all(inFlight);
    // Every client has its answer; sockets a keep-alive client still holds open would otherwise
    // keep close() waiting for the keep-alive timeout.
    own.app.server.closeAllConnections();
    await closing;
    const check = new pg.Client({ connectionString: own.db.url });
    await check.connect();
    try {
      const { rows } = await check.query('select count(*)::int as n from analytics_event');
      expect(acknowledged).toBeGreaterThan(0);
      expect(rows[0].n).toBe(acknowledged);
    } finally {
      await check.end();
      await own.db.drop();
    }
  });
});
