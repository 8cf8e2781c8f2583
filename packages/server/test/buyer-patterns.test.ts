import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import { waitFor } from './support/raw-http';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';
import { BROWSER_UA, tokenPool, visitorAddress } from './support/visitor';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// No admin's pattern can stall the server (issue 47, ADR 072). The built server runs as its own process,
// as in production, so /healthz is timed from outside it: a response rule `(a+)+$` read against a real
// lead's 8 KB answer of `a` froze every request until kill -9 when patterns ran on JavaScript's RegExp.
// On RE2 it costs /healthz nothing. A rule stored before ADR 072 that RE2 cannot run is never posted to.

let db: TestDatabase | undefined;
let server: ServerProcess | undefined;
let rx: Receiver | undefined;
let sql: pg.Client | undefined;

const ENV = { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', TRUST_PROXY: '127.0.0.1' };
// 8 KB of a, ended by a line break as a text answer is: `$` (no m flag) cannot match before it, so a
// backtracking engine tries every way to split the a's between the two +'s.
const ANSWER = `${'a'.repeat(8 * 1024 - 1)}\n`;
const HEALTHZ_LIMIT_MS = 100;
const STALL_MS = 1_500;

const buyerConfig = (url: string, regex: string) => ({
  delivery: { kind: 'http', method: 'POST', url, encoding: 'json', timeoutMs: 5000 },
  fields: [{ to: 'lead.id', from: 'leadId' }],
  responseRules: [
    { when: { regex }, outcome: 'accepted' },
    { when: { status: '2xx' }, outcome: 'rejected' },
  ],
});

/** Inserts a buyer as stored rows are (no schema: as a buyer saved before ADR 072 may be). */
async function insertBuyer(name: string, priority: number, config: object): Promise<string> {
  const { rows } = await (sql as pg.Client).query<{ id: string }>(
    `insert into buyer (id, name, priority, price_cents, config) values (gen_random_uuid(), $1, $2, 300, $3)
     returning id`,
    [name, priority, config],
  );
  return (rows[0] as { id: string }).id;
}

const url = () => (server as ServerProcess).url;

/** `count` leads submitted as visitors (a form token some seconds old, a browser, an address): their ids. */
async function submitLeads(count: number): Promise<string[]> {
  const pool = tokenPool(url, count);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const formToken = await pool.take();
    const res = await fetch(`${url()}/api/submit-search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': BROWSER_UA,
        'x-forwarded-for': visitorAddress(),
      },
      body: JSON.stringify({ ...visitorLeadBody(), formToken }),
      signal: AbortSignal.timeout(10_000), // a stalled server fails the test, not its time-out
    });
    expect(res.status).toBe(200);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

/** Polls /healthz one request after the other until `stop` resolves: each answer's time, ms. */
async function timeHealthz(stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    try {
      const res = await fetch(`${url()}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      times.push(performance.now() - started);
    } catch {
      times.push(performance.now() - started); // no answer within 2 s: a stalled server
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

const p99 = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

/** The leads' sales once none is pending any more (or the deadline has passed). */
async function salesOf(leadIds: string[], ms = 60_000) {
  type Row = { lead_id: string; status: string; buyer_id: string | null };
  let rows: Row[] = [];
  await waitFor(
    async () => {
      ({ rows } = await (sql as pg.Client).query<Row>(
        'select lead_id, status, buyer_id from lead_sale where lead_id = any($1::uuid[])',
        [leadIds],
      ));
      return rows.length === leadIds.length && rows.every((r) => r.status !== 'pending');
    },
    ms,
    'the leads to be offered',
  );
  return rows;
}

/**
 * Submits `count` leads while /healthz is polled: the /healthz times, then the leads' sales (a stalled
 * server fails on the times first).
 */
async function sellWhilePolling(count: number) {
  let leadIds: string[] = [];
  const selling = (async () => {
    leadIds = await submitLeads(count);
    return salesOf(leadIds);
  })();
  const outcome = selling.then(
    (sales) => ({ sales }),
    (error: unknown) => ({ error }),
  );
  const times = await timeHealthz(outcome);
  return {
    times,
    leadIds,
    async sales() {
      const settled = await outcome;
      if ('error' in settled) throw settled.error;
      return settled.sales;
    },
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  rx = await startReceiver();
  for (const path of ['/plain', '/redos']) {
    rx.on(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(ANSWER);
    });
  }
  server = await startServerProcess({ DATABASE_URL: db.url, ...ENV });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
}, 120_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await sql?.end();
  await db?.drop();
  await rx?.close();
});

describe('response-rule patterns', () => {
  it('reads (a+)+$ against a lead’s 8 KB answer of a with /healthz answering within 100 ms throughout', {
    timeout: 240_000,
  }, async () => {
    const rx_ = rx as Receiver;
    // Without the rule: a buyer whose rule is a plain prefix, against the same answer.
    const plain = await insertBuyer('plain rule', 10, buyerConfig(`${rx_.base}/plain`, '^a'));
    await salesOf(await submitLeads(1)); // a first sale warms the server up: the two phases compare alike
    const without = await sellWhilePolling(3);
    expect((await without.sales()).map((s) => [s.status, s.buyer_id])).toEqual(
      without.leadIds.map(() => ['sold', plain]),
    );

    await sql?.query(`update buyer set status = 'paused' where id = $1`, [plain]);
    const redos = await insertBuyer('ReDoS rule', 10, buyerConfig(`${rx_.base}/redos`, '(a+)+$'));
    const withRule = await sellWhilePolling(3);

    console.info(
      `/healthz p99 without the rule: ${p99(without.times).toFixed(1)} ms (${without.times.length} answers); ` +
        `with (a+)+$ against 8 KB: ${p99(withRule.times).toFixed(1)} ms (${withRule.times.length} answers), ` +
        `slowest ${Math.max(...withRule.times).toFixed(1)} ms`,
    );
    // Within 100 ms throughout. Two cores shared with other work can hold any process back now and then:
    // the phase without the rule shows how much (twice its slowest answer allows for the noise to differ
    // between phases), still far below the seconds a backtracking pattern holds the server for.
    // The p99 is held to that; a single late answer (a scheduling hiccup on a loaded machine, seen at
    // 2 cores under a load average of 12) is allowed up to STALL_MS, a tenth of what the 30-character
    // answer alone stalled the old engine for (15.4 s; the 8 KB one stalled it for good).
    const limit = Math.max(HEALTHZ_LIMIT_MS, 2 * p99(without.times));
    expect(p99(withRule.times)).toBeLessThan(limit);
    expect(withRule.times.filter((ms) => ms >= STALL_MS)).toEqual([]);
    // Every lead was posted and its 8 KB answer read by RE2, which (as JavaScript would, eventually) finds
    // no match: the next rule reads the answer as a refusal, recorded, and the lead is unsold.
    expect(rx_.at('/redos').length).toBe(withRule.leadIds.length);
    expect((await withRule.sales()).map((s) => [s.status, s.buyer_id])).toEqual(
      withRule.leadIds.map(() => ['unsold', null]),
    );
    const { rows } = await (sql as pg.Client).query<{ outcome: string; status: number }>(
      'select outcome, status from sale_attempt where buyer_id = $1 and not test',
      [redos],
    );
    expect(rows.map((r) => [r.outcome, r.status])).toEqual(withRule.leadIds.map(() => ['rejected', 200]));
    await sql?.query(`update buyer set status = 'paused' where id = $1`, [redos]);
  });

  it('never posts to a stored buyer whose rule RE2 cannot run: the buyer’s error names the field', {
    timeout: 120_000,
  }, async () => {
    const rx_ = rx as Receiver;
    rx_.on('/legacy', (_req, res) => res.end('matched'));
    const legacy = await insertBuyer(
      'lookbehind rule',
      1,
      buyerConfig(`${rx_.base}/legacy`, '(?<!un)matched'),
    );
    const next = await insertBuyer('next in line', 2, buyerConfig(`${rx_.base}/plain`, '^a'));
    const [leadId] = await submitLeads(1);
    const [sale] = await salesOf([leadId as string]);
    // The lead went on down the waterfall; the buyer whose rule cannot run never saw it.
    expect(sale).toMatchObject({ status: 'sold', buyer_id: next });
    expect(rx_.at('/legacy')).toEqual([]);
    const { rows } = await (sql as pg.Client).query<{ outcome: string; reason: string }>(
      'select outcome, reason from sale_attempt where buyer_id = $1 and lead_id = $2',
      [legacy, leadId],
    );
    expect(rows).toEqual([
      {
        outcome: 'error',
        reason: expect.stringContaining('not sent: responseRules.0.when.regex uses lookahead or lookbehind'),
      },
    ]);
    const { rows: buyers } = await (sql as pg.Client).query<{ consecutive_errors: number }>(
      'select consecutive_errors from buyer where id = $1',
      [legacy],
    );
    expect(buyers[0]?.consecutive_errors).toBe(1);
    // A restarted server names such a buyer in its log, at its first sweep.
    expect(await server?.stop('SIGTERM')).toBe(0);
    server = await startServerProcess({ DATABASE_URL: (db as TestDatabase).url, ...ENV });
    await waitFor(
      () =>
        (server as ServerProcess)
          .output()
          .includes('Buyer \\"lookbehind rule\\" is not sent leads until its response rules are edited'),
      60_000,
      'the warning about the stored rule',
    );
  });
});
