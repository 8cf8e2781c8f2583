import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app';

// GET /metrics: Prometheus text for operators holding METRICS_TOKEN, nothing for anyone else.
const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The value of one sample line, e.g. sample(text, 'db_pool_max_connections{pool="raw"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN, DB_POOL_MAX: '10' });
  });
  afterAll(() => t.close());

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('refuses a scrape without the token, or with a wrong one, as JSON 401', async () => {
    for (const auth of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(auth);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toEqual({ error: 'unauthorized', message: 'A valid metrics token is required.' });
    }
  });

  it('counts requests and latencies per route pattern', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(sample(res.body, 'http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(2);
    expect(sample(res.body, 'http_request_duration_seconds_count{method="GET",route="/healthz"}')).toBe(2);
    // A lead id in the path is one route, not one series per id.
    await t.app.inject({ method: 'GET', url: '/api/leads/00000000-0000-4000-8000-000000000000' });
    const after = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(after, 'http_requests_total{method="GET",route="/api/leads/:id",status="404"}')).toBe(1);
    expect(after).not.toContain('00000000-0000-4000-8000-000000000000');
  });

  it('reports both database pools and their limits', async () => {
    const body = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(body, 'db_pool_max_connections{pool="orm"}')).toBe(5);
    expect(sample(body, 'db_pool_max_connections{pool="raw"}')).toBe(5);
    for (const pool of ['orm', 'raw']) {
      for (const state of ['total', 'idle', 'waiting']) {
        expect(sample(body, `db_pool_connections{pool="${pool}",state="${state}"}`)).toBeGreaterThanOrEqual(
          0,
        );
      }
    }
    // The raw pool has served /readyz-style queries by now: at least one connection is open.
    await t.app.inject({ method: 'GET', url: '/readyz' });
    const later = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(later, 'db_pool_connections{pool="raw",state="total"}')).toBeGreaterThanOrEqual(1);
  });

  it('shows analytics batch sizes and dropped events', async () => {
    const event = { eventType: 'page_view', page: 'home', referrer: 'direct', sessionId: 'metrics-test' };
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      headers: { 'user-agent': BROWSER_UA },
      payload: event,
    });
    expect(stored.statusCode).toBeLessThan(300);
    const bot = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
      payload: event,
    });
    expect(bot.statusCode).toBeLessThan(300);
    const body = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(body, 'analytics_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'analytics_events_stored_total')).toBe(1);
    const drops = body
      .split('\n')
      .filter((l) => l.startsWith('analytics_events_dropped_total{'))
      .reduce((sum, l) => sum + Number(l.split(' ')[1]), 0);
    expect(drops).toBe(1);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is switched off: JSON 404 that says how to turn it on, whatever is sent', async () => {
    for (const headers of [{}, { authorization: 'Bearer anything-at-all' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: 'not_found',
        message: 'Metrics are switched off. Set METRICS_TOKEN to enable /metrics.',
      });
    }
  });
});
