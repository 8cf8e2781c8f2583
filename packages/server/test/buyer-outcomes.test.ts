import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import type { Received } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Issue 47, items 2–5 (ADR 069, "Unknown outcomes"): an answer cut in the middle is `unknown` — never a
// sale, never offered on — until an admin settles it either way; a pause stops posts at once; auto-pause
// stops at exactly maxConsecutiveErrors under concurrency; a keep-alive connection the receiver dropped
// loses no post. Leads are submitted as visitors (form token, seconds on the page).

let bed: WebhookTestbed;
const api: WebhookTestbed['api'] = (...args) => bed.api(...args);

beforeAll(async () => {
  bed = await startWebhookTestbed();
});
afterAll(async () => {
  await bed?.close();
});

type Attempt = {
  buyerId: string;
  buyerName: string;
  leadId: string | null;
  outcome: string;
  reason: string | null;
  price: number | null;
  settled: { by: string; at: string } | null;
};
type Sale = { status: string; buyerId?: string; buyerName?: string; price?: number; attempts: Attempt[] };
type BuyerView = {
  id: string;
  status: string;
  toSettle: number;
  consecutiveErrors: number;
  caps: { usedLeads: number; usedAmount: number }[];
};

let paths = 0;
const nextPath = (name: string) => {
  paths += 1;
  return `/${name}-${paths}`;
};

/** A buyer whose every 2xx answer is a sale (the rule the issue saw book cut answers as sales). */
function statusBuyer(path: string, overrides: Record<string, unknown> = {}) {
  return {
    name: `Status-rule ${path}`,
    priority: 10,
    price: 7,
    delivery: { kind: 'http', method: 'POST', url: `${bed.rx.base}${path}`, encoding: 'json' },
    fields: [
      { to: 'id', from: 'leadId' },
      { to: 'zip', from: 'zipCode' },
    ],
    responseRules: [
      { when: { status: '2xx' }, outcome: 'accepted' },
      { when: { status: '4xx' }, outcome: 'rejected' },
    ],
    ...overrides,
  };
}

async function createBuyer(body: Record<string, unknown>) {
  const res = await api('POST', '/api/admin/buyers', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

async function pauseAll() {
  const list = (await api('GET', '/api/admin/buyers')).json() as { id: string; status: string }[];
  for (const b of list) {
    if (b.status === 'active') await api('PATCH', `/api/admin/buyers/${b.id}`, { status: 'paused' });
  }
}

async function submitLead() {
  const res = await bed.submit(visitorLeadBody());
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

async function saleOf(leadId: string): Promise<Sale> {
  const res = await api('GET', `/api/admin/leads/${leadId}/sale`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Sale;
}

/** The lead's sale once it is no longer pending (waited on, never slept). */
async function settledSale(leadId: string, ms = 30_000): Promise<Sale> {
  let sale: Sale | undefined;
  await expect
    .poll(
      async () => {
        sale = await saleOf(leadId);
        return sale.status !== 'pending' && (sale.status !== 'not_for_sale' || sale.attempts.length > 0);
      },
      { timeout: ms, interval: 50 },
    )
    .toBe(true);
  return sale as Sale;
}

const buyerView = async (id: string) => (await api('GET', `/api/admin/buyers/${id}`)).json() as BuyerView;
const leadOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;
const live = (sale: Sale) => sale.attempts.filter((a) => !(a.outcome === 'skipped' && a.reason === 'paused'));

/** Writes the status line, headers and `body`, then drops the connection as `how` says. */
function cutAnswer(res: ServerResponse, how: 'short-length' | 'no-final-chunk' | 'reset') {
  const body = '{"Success":true,"Payout":"7.00"}';
  const socket = res.socket as Socket;
  if (how === 'short-length') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length + 40) });
    res.write(body, () => socket.destroy());
  } else if (how === 'no-final-chunk') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(body, () => socket.destroy());
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    setTimeout(() => socket.resetAndDestroy(), 20);
  }
}

describe('a cut answer', () => {
  it('is unknown: never sold, not offered on, listed to settle, then settled both ways', async () => {
    await pauseAll();
    const [cut, next] = [nextPath('cut'), nextPath('next')];
    const ways = ['short-length', 'no-final-chunk', 'reset'] as const;
    let n = 0;
    bed.rx.on(cut, (_r, res) => {
      cutAnswer(res, ways[n % ways.length] as (typeof ways)[number]);
      n += 1;
    });
    bed.rx.on(next, (_r, res) => res.end('ok'));
    const a = await createBuyer(
      statusBuyer(cut, { priority: 1, maxConsecutiveErrors: 10, caps: [{ period: 'day', leads: 10 }] }),
    );
    const b = await createBuyer(statusBuyer(next, { priority: 2, price: 3 }));

    // One lead at a time: each way of cutting an answer reads unknown, waiting on the first buyer.
    const ids: string[] = [];
    for (const way of ways) {
      const id = await submitLead();
      const sale = await settledSale(id);
      expect(sale, way).toMatchObject({ status: 'unknown', buyerId: a.id, buyerName: a.name });
      expect(live(sale).map((x) => x.outcome)).toEqual(['unknown']);
      expect(live(sale)[0]?.reason).toMatch(/answer was cut/);
      ids.push(id);
    }
    // Never offered on, and the buyer's cap counts every lead it received.
    expect(bed.rx.at(next)).toHaveLength(0);
    let view = await buyerView(a.id);
    expect(view.toSettle).toBe(3);
    expect(view.caps[0]?.usedLeads).toBe(3);
    const listed = await api('GET', `/api/admin/buyers/${a.id}/to-settle`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as Attempt[]).map((x) => x.leadId)).toEqual(ids);

    const [first, second, third] = ids as [string, string, string];
    // Taken: sold at the buyer's price; the reservation is the sale. Two admins at once: one wins.
    const both = await Promise.all([
      api('POST', `/api/admin/leads/${first}/settle`, { buyerId: a.id, taken: true }),
      api('POST', `/api/admin/leads/${first}/settle`, { buyerId: a.id, taken: false }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const won = both.find((r) => r.statusCode === 200)?.json() as { status: string };
    const firstSale = await settledSale(first);
    if (won.status === 'sold') {
      expect(firstSale).toMatchObject({ status: 'sold', buyerId: a.id, price: 7 });
    } else {
      expect(firstSale).toMatchObject({ status: 'sold', buyerId: b.id, price: 3 });
    }

    const taken = await api('POST', `/api/admin/leads/${second}/settle`, { buyerId: a.id, taken: true });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ status: 'sold', price: 7 });
    const sold = await saleOf(second);
    expect(sold).toMatchObject({ status: 'sold', buyerId: a.id, price: 7 });
    expect(live(sold)[0]).toMatchObject({ outcome: 'accepted', price: 7, settled: { by: 'alice' } });

    // Not taken: closed, its caps released, and the lead goes on down the waterfall to the next buyer.
    const notTaken = await api('POST', `/api/admin/leads/${third}/settle`, { buyerId: a.id, taken: false });
    expect(notTaken.statusCode, notTaken.body).toBe(200);
    const movedOn = await settledSale(third);
    expect(movedOn).toMatchObject({ status: 'sold', buyerId: b.id, price: 3 });
    expect(live(movedOn).map((x) => [x.buyerName, x.outcome])).toEqual([
      [a.name, 'rejected'],
      [b.name, 'accepted'],
    ]);
    expect(bed.rx.at(cut).filter((r) => leadOf(r) === third)).toHaveLength(1);

    // Settled twice: 409. Never posted to the buyer: 404.
    const again = await api('POST', `/api/admin/leads/${second}/settle`, { buyerId: a.id, taken: false });
    expect(again.statusCode).toBe(409);
    const never = await api('POST', `/api/admin/leads/${second}/settle`, { buyerId: b.id, taken: true });
    expect(never.statusCode).toBe(404);

    view = await buyerView(a.id);
    expect(view.toSettle).toBe(0);
    // The two leads booked to it stay counted; the one it did not take is released.
    expect(view.caps[0]?.usedLeads).toBe(won.status === 'sold' ? 2 : 1);
    const pool = new pg.Pool({ connectionString: bed.t.db.url });
    const audit = await pool.query<{ action: string; detail: { id: string } }>(
      `select action, detail from audit_log where action like 'leads.settle%' order by id`,
    );
    await pool.end();
    expect(audit.rows.map((r) => [r.action, r.detail.id])).toEqual([
      [won.status === 'sold' ? 'leads.settle_taken' : 'leads.settle_not_taken', first],
      ['leads.settle_taken', second],
      ['leads.settle_not_taken', third],
    ]);
  });

  it('reads an answer longer than the excerpt by its start: a whole JSON rule finds none, an error', async () => {
    await pauseAll();
    const long = nextPath('long');
    bed.rx.on(long, (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"Success":true,"pad":"${'x'.repeat(64 * 1024)}"}`);
    });
    await createBuyer(
      statusBuyer(long, {
        priority: 1,
        responseRules: [{ when: { json: 'Success', equals: true }, outcome: 'accepted' }],
      }),
    );
    const sale = await settledSale(await submitLead());
    expect(sale.status).toBe('unsold');
    expect(live(sale)[0]).toMatchObject({ outcome: 'error' });
  });
});

describe('pausing', () => {
  it('posts nothing to a buyer paused while 50 leads are in flight', async () => {
    await pauseAll();
    const [slow, paused] = [nextPath('slow'), nextPath('paused')];
    // The first buyer holds every answer until the second is paused, then refuses them all.
    const held: ServerResponse[] = [];
    let open = false;
    bed.rx.on(slow, (_r, res) => {
      if (open) res.writeHead(400).end('no');
      else held.push(res);
    });
    bed.rx.on(paused, (_r, res) => res.end('ok'));
    await createBuyer(statusBuyer(slow, { priority: 1, maxConsecutiveErrors: 100 }));
    const p = await createBuyer(statusBuyer(paused, { priority: 2, maxConsecutiveErrors: 100 }));
    const ids = await Promise.all(Array.from({ length: 50 }, () => submitLead()));
    await bed.rx.waitFor(() => held.length >= 20, 30_000);
    const res = await api('PATCH', `/api/admin/buyers/${p.id}`, { status: 'paused' });
    expect(res.statusCode, res.body).toBe(200);
    const pausedAt = Date.now();
    open = true;
    for (const r of held.splice(0)) r.writeHead(400).end('no');
    const sales = await Promise.all(ids.map((id) => settledSale(id, 60_000)));
    expect(sales.every((s) => s.status === 'unsold')).toBe(true);
    expect(bed.rx.at(paused).filter((r) => r.at >= pausedAt)).toEqual([]);
    expect(bed.rx.at(paused)).toHaveLength(0);
  });

  it('auto-pauses at exactly maxConsecutiveErrors with 20 leads at once', async () => {
    await pauseAll();
    const [failing, good] = [nextPath('failing'), nextPath('good')];
    bed.rx.on(failing, (_r, res) => {
      setTimeout(() => res.writeHead(500).end('down'), 200);
    });
    bed.rx.on(good, (_r, res) => res.end('ok'));
    const f = await createBuyer(statusBuyer(failing, { priority: 1, maxConsecutiveErrors: 5 }));
    const g = await createBuyer(statusBuyer(good, { priority: 2 }));
    const ids = await Promise.all(Array.from({ length: 20 }, () => submitLead()));
    const sales = await Promise.all(ids.map((id) => settledSale(id, 60_000)));
    expect(sales.every((s) => s.status === 'sold' && s.buyerId === g.id)).toBe(true);
    expect(bed.rx.at(failing)).toHaveLength(5);
    expect(await buyerView(f.id)).toMatchObject({ status: 'paused', consecutiveErrors: 5 });
    const skippedPaused = sales.flatMap((s) => s.attempts).filter((x) => x.buyerId === f.id);
    expect(skippedPaused.filter((x) => x.outcome === 'error')).toHaveLength(5);
    expect(skippedPaused.filter((x) => x.outcome === 'skipped' && x.reason === 'paused')).toHaveLength(15);
  });
});

describe('a buyer at its limit of posts in flight', () => {
  it('makes leads wait for a slot (in the queue after 2 s), never skip it, and holds no more in flight', async () => {
    await pauseAll();
    const [one, other] = [nextPath('one-at-a-time'), nextPath('other')];
    let inFlight = 0;
    let most = 0;
    bed.rx.on(one, (_r, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end('ok');
      }, 600);
    });
    bed.rx.on(other, (_r, res) => res.end('ok'));
    // maxConsecutiveErrors 1: one post in flight at a time.
    const o = await createBuyer(statusBuyer(one, { priority: 1, maxConsecutiveErrors: 1 }));
    await createBuyer(statusBuyer(other, { priority: 2 }));
    const ids = await Promise.all(Array.from({ length: 6 }, () => submitLead()));
    const sales = await Promise.all(ids.map((id) => settledSale(id, 60_000)));
    expect(sales.map((s) => s.buyerId)).toEqual(ids.map(() => o.id));
    expect(most).toBe(1);
    expect(bed.rx.at(other)).toHaveLength(0);
  });
});

describe('keep-alive connections', () => {
  let server: Server | undefined;
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('sends again on a new connection when a reused one is dropped before any answer: no post lost', async () => {
    await pauseAll();
    // A receiver that closes idle connections after 1 s without saying so (no Keep-Alive hint, as many
    // proxies do), and that drops a reused connection as a request arrives on it: the race of a server
    // closing an idle connection just as we send on it, made certain.
    const received: string[] = [];
    server = createServer((req, res) => {
      const socket = req.socket as Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) {
        socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push((JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id);
        // Set by hand, Connection keeps Node from adding its `Keep-Alive: timeout=` hint.
        res.setHeader('connection', 'keep-alive');
        res.end('ok');
      });
    });
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const k = await createBuyer({
      ...statusBuyer('/', { priority: 1 }),
      name: 'Keep-alive',
      delivery: { kind: 'http', method: 'POST', url: `${base}/`, encoding: 'json' },
    });
    // Leads spaced around the receiver's idle timeout, each waited on before the next.
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = await submitLead();
      ids.push(id);
      const sale = await settledSale(id);
      expect(sale, `lead ${i}`).toMatchObject({ status: 'sold', buyerId: k.id });
      await new Promise((resolve) => setTimeout(resolve, 700 + (i % 4) * 200));
    }
    expect(received).toEqual(ids);
    const reasons = (await Promise.all(ids.map(saleOf))).map((s) => live(s)[0]?.reason ?? '');
    expect(reasons.filter((r) => r.includes('sent again on a new connection')).length).toBeGreaterThan(0);
    expect((await buyerView(k.id)).consecutiveErrors).toBe(0);
  });
});
