import pg from 'pg';
import { expect } from 'vitest';
import { BROWSER_UA } from './analytics';
import { leadBody } from './fixtures';

// The concurrency probe (issue 11): against a running server, at one moment, 200 distinct lead
// submissions, 20 submissions of one e-mail address and 200 analytics events. A database that does not
// give every connection its own session (or a pool that shares one) shows here as 5xx answers, lost
// events or rollups that disagree with the raw events.

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

const countOf = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => {
    acc[s] = (acc[s] ?? 0) + 1;
    return acc;
  }, {});

/** Sends the burst to `baseUrl` and checks every answer. Returns the shared e-mail address. */
export async function sendProbeBurst(baseUrl: string): Promise<string> {
  const tag = Math.random().toString(36).slice(2, 10);
  const shared = `probe.shared.${tag}@example.com`;
  const [distinct, same, events] = await Promise.all([
    Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(`${baseUrl}/api/submit-search`, leadBody({ email: `probe.${tag}.${i}@example.com` })),
      ),
    ),
    Promise.all(
      Array.from({ length: 20 }, () => post(`${baseUrl}/api/submit-search`, leadBody({ email: shared }))),
    ),
    Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(`${baseUrl}/api/analytics/track`, {
          eventType: 'page_view',
          page: 'home',
          sessionId: `probe-${tag}-${i}`,
        }),
      ),
    ),
  ]);
  expect(countOf(distinct)).toEqual({ 200: 200 });
  expect(countOf(same)).toEqual({ 200: 1, 409: 19 });
  expect(countOf(events)).toEqual({ 200: 200 });
  return shared;
}

/** What the burst must have left in a database that held no leads or events before it. */
export async function expectProbeStored(url: string, shared: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const one = async (sql: string, params: unknown[] = []) =>
      Number((await client.query(sql, params)).rows[0].n);
    expect(await one(`select count(*) as n from website_lead where email like 'probe.%'`)).toBe(201);
    expect(await one('select count(*) as n from website_lead where lower(email) = lower($1)', [shared])).toBe(
      1,
    );
    expect(await one('select count(*) as n from consent_receipt')).toBe(
      await one('select count(*) as n from website_lead'),
    );
    const events = await one(`select count(*) as n from analytics_event where session_id like 'probe-%'`);
    expect(events).toBe(200);
    // The per-day rollup counts exactly the raw events (the country and referrer rollups skip events
    // without one; a loopback client has neither).
    expect(await one('select coalesce(sum(count), 0) as n from analytics_daily_type')).toBe(
      await one('select count(*) as n from analytics_event'),
    );
  } finally {
    await client.end();
  }
}
