import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startLeadLoad } from './support/load';
import { waitFor } from './support/raw-http';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';
import { type Received, type Receiver, startReceiver } from './support/webhook-receiver';

// Issue 34's promise, checked the hard way (ADR 069): a lead's sale is queued in the transaction that fans
// out its batch, and each (lead, buyer) meets once. The built server is killed with SIGKILL while leads
// pour in and are being sold; after a restart every acknowledged accepted lead is offered (sold or unsold,
// none left pending or never offered), and no buyer received any lead twice.
let db: TestDatabase | undefined;
let server: ServerProcess | undefined;
let rx: Receiver | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
  await rx?.close();
});

const ENV = { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', TRUST_PROXY: '127.0.0.1' };

const buyerConfig = (url: string) => ({
  delivery: { kind: 'http', method: 'POST', url, encoding: 'json', timeoutMs: 5000 },
  fields: [
    { to: 'lead.id', from: 'leadId' },
    { to: 'lead.zip', from: 'zipCode' },
  ],
  responseRules: [
    { when: { json: 'ok', equals: true }, outcome: 'accepted' },
    { when: { json: 'ok', equals: false }, outcome: 'rejected' },
  ],
});

describe('selling durability', () => {
  it('offers every acknowledged lead after a SIGKILL mid-sale, never one lead twice to one buyer', {
    timeout: 240_000,
  }, async () => {
    db = await createTestDatabase();
    rx = await startReceiver();
    // The first buyer answers slowly and refuses every other lead: posts in flight at the kill, and a
    // waterfall that goes on to the second buyer.
    let n = 0;
    rx.on('/first', (_r, res) => {
      n += 1;
      const ok = n % 2 === 0;
      setTimeout(() => res.end(JSON.stringify({ ok })), 150);
    });
    rx.on('/second', (_r, res) => res.end(JSON.stringify({ ok: true })));
    server = await startServerProcess({ DATABASE_URL: db.url, ...ENV });

    const setup = new pg.Client({ connectionString: db.url });
    await setup.connect();
    for (const [priority, path] of [
      [1, '/first'],
      [2, '/second'],
    ] as const) {
      await setup.query(
        `insert into buyer (id, name, priority, price_cents, config) values (gen_random_uuid(), $1, $2, 500, $3)`,
        [path, priority, buyerConfig(`${rx.base}${path}`)],
      );
    }

    const load = startLeadLoad(() => (server as ServerProcess).url, 8);
    await waitFor(() => load.result.acknowledged.length >= 200, 60_000, 'some acknowledged leads');
    await waitFor(() => (rx as Receiver).at('/first').length >= 20, 60_000, 'sales under way');
    await server.stop('SIGKILL');
    await load.stop();
    const acknowledged = load.result.acknowledged.map((a) => a.id);
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);

    const leadOf = (r: Received) => (JSON.parse(r.body) as { lead: { id: string } }).lead.id;
    const settled = async () => {
      const { rows } = await setup.query<{ id: string; verdict: string; status: string | null }>(
        `select w.id, w.quality_verdict as verdict, s.status from website_lead w
         left join lead_sale s on s.lead_id = w.id where w.id = any($1::uuid[])`,
        [acknowledged],
      );
      return rows;
    };
    // The kill left sales behind: accepted leads not yet sold or refused by everyone.
    const before = await settled();
    expect(
      before.filter((r) => r.verdict === 'accept' && r.status !== 'sold' && r.status !== 'unsold').length,
    ).toBeGreaterThan(0);

    server = await startServerProcess({ DATABASE_URL: db.url, ...ENV });
    let rows = before;
    await waitFor(
      async () => {
        rows = await settled();
        return rows.every((r) => r.verdict !== 'accept' || r.status === 'sold' || r.status === 'unsold');
      },
      180_000,
      'every accepted lead offered',
    );
    const accepted = rows.filter((r) => r.verdict === 'accept');
    expect(accepted.length).toBe(acknowledged.length);
    expect(accepted.filter((r) => r.status !== 'sold' && r.status !== 'unsold')).toEqual([]);
    // Never twice to one buyer, whatever the kill interrupted.
    for (const path of ['/first', '/second']) {
      const ids = rx.at(path).map(leadOf);
      expect(ids.length - new Set(ids).size).toBe(0);
    }
    // Every lead sold exactly once, to a buyer that accepted it.
    const { rows: sold } = await setup.query<{ n: number }>(
      `select count(*)::int as n from sale_attempt where outcome = 'accepted' and lead_id = any($1::uuid[])`,
      [acknowledged],
    );
    expect(sold[0]?.n).toBe(accepted.filter((r) => r.status === 'sold').length);
    await setup.end();
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
