import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_UA } from './support/analytics';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';

// Group commit's promise, checked the hard way: the built server is killed with SIGKILL while events
// pour in; after a restart every event that was answered 200 must be in the database, and the rollups
// must agree with the raw rows (they are written by the same statement).
let db: TestDatabase | undefined;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
});

describe('analytics durability', () => {
  it('keeps every acknowledged event when the server is killed mid-load (SIGKILL)', async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url });
    const url = `${server.url}/api/analytics/track`;
    // A slow disk, simulated: every batch statement takes 20 ms longer, so at the moment of the kill
    // many events are in flight. Answering before the commit would show up as missing events.
    const setup = new pg.Client({ connectionString: db.url });
    await setup.connect();
    await setup.query(`
      create function slow_batch() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.02); return null; end $$;
      create trigger slow_batch after insert on analytics_event
        for each statement execute function slow_batch();`);
    await setup.end();

    const acknowledged = new Set<string>();
    let sent = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const sessionId = `k-${w}-${i}`;
        sent += 1;
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
            body: JSON.stringify({ eventType: 'page_view', page: 'home', referrer: 'direct', sessionId }),
          });
          if (res.status === 200) acknowledged.add(sessionId);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 64 }, (_, w) => worker(w));
    while (acknowledged.size < 500) await new Promise((r) => setTimeout(r, 5));
    await server.stop('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(sent).toBeGreaterThan(acknowledged.size); // some requests were cut off unanswered

    server = await startServerProcess({ DATABASE_URL: db.url });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ session_id: string }>('select session_id from analytics_event');
      const stored = new Set(rows.map((r) => r.session_id));
      const missing = [...acknowledged].filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      const rollup = await client.query<{ n: number }>(
        'select sum(count)::int as n from analytics_daily_type',
      );
      expect(rollup.rows[0]?.n).toBe(rows.length);
    } finally {
      await client.end();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
