import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../src/webhooks/webhook-signing';
import { startLeadLoad } from './support/load';
import { waitFor } from './support/raw-http';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';
import { type Received, type Receiver, startReceiver } from './support/webhook-receiver';

// Issue 24's promise, checked the hard way (ADR 062): deliveries are queued in the statement that stores
// a batch of leads, so the built server killed with SIGKILL while leads pour in and deliveries run loses
// none. After a restart every acknowledged lead reaches every matching endpoint; a lead that arrives
// twice at one endpoint carries the same webhook-id both times (at least once, receivers dedupe on it).
let db: TestDatabase | undefined;
let server: ServerProcess | undefined;
let rx: Receiver | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
  await rx?.close();
});

// The load's visitors come through a proxy on loopback, each from an address of its own (issue 33).
const ENV = {
  WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOKS_RETRY_SCHEDULE: '0.5,0.5,1,1,2,2,5',
  TRUST_PROXY: '127.0.0.1',
};

describe('webhook durability', () => {
  it('delivers every acknowledged lead to every endpoint after a SIGKILL mid-load', {
    timeout: 240_000,
  }, async () => {
    db = await createTestDatabase();
    rx = await startReceiver();
    // Slow answers on one endpoint: a backlog and attempts in flight at the moment of the kill.
    rx.on('/slow', (_r, res) => setTimeout(() => res.end('ok'), 200));
    server = await startServerProcess({ DATABASE_URL: db.url, ...ENV });

    const setup = new pg.Client({ connectionString: db.url });
    await setup.connect();
    const all = [
      'lead.created',
      'lead.beneficiary_updated',
      'api_lead.created',
      'lead.opted_out',
      'lead.deleted',
    ];
    for (const path of ['/fast', '/slow']) {
      await setup.query(
        `insert into webhook_endpoint (id, url, events, secret) values (gen_random_uuid(), $1, $2, $3)`,
        [`${rx.base}${path}`, all, newWebhookSecret()],
      );
    }
    await setup.end();

    const load = startLeadLoad(() => (server as ServerProcess).url, 8);
    await waitFor(() => load.result.acknowledged.length >= 300, 60_000, 'some acknowledged leads');
    await waitFor(() => (rx as Receiver).at('/slow').length >= 20, 60_000, 'deliveries under way');
    await server.stop('SIGKILL');
    await load.stop();
    const acknowledged = load.result.acknowledged.map((a) => a.id);
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);

    const leadOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;
    const missing = (path: string) => {
      const got = new Set((rx as Receiver).at(path).map(leadOf));
      return acknowledged.filter((id) => !got.has(id));
    };
    // The kill left work behind: leads acknowledged but not yet at the slow endpoint.
    expect(missing('/slow').length).toBeGreaterThan(0);
    server = await startServerProcess({ DATABASE_URL: db.url, ...ENV });
    // Attempts cut off by the kill are taken again once their lease expires (ADR 062).
    await waitFor(
      () => missing('/fast').length === 0 && missing('/slow').length === 0,
      180_000,
      'every lead at every endpoint',
    );
    expect(missing('/fast')).toEqual([]);
    expect(missing('/slow')).toEqual([]);
    for (const path of ['/fast', '/slow']) {
      const ids = new Map<string, Set<string>>();
      for (const r of rx.at(path)) {
        const set = ids.get(leadOf(r)) ?? new Set<string>();
        set.add(String(r.headers['webhook-id']));
        ids.set(leadOf(r), set);
      }
      // One message per lead, whatever the number of times it arrived.
      expect([...ids.values()].filter((s) => s.size !== 1)).toEqual([]);
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
