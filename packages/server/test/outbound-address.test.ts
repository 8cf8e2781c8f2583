import http from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupAll, outboundAgentFor } from '../src/platform/outbound-address';
import { postOnce } from '../src/webhooks/webhook-delivery';
import { seedAdmin, signIn } from './support/admin';
import { visitorLeadBody } from './support/fixtures';
import { waitFor } from './support/raw-http';
import { startTestApp, type TestApp } from './support/test-app';
import { submitAsVisitor, testClock } from './support/visitor';

const clock = testClock();

// Issue 38, finding 3: `https://LOCALHOST./` and `https://[fec0::1]/` were accepted when saved, and an
// IP-literal host was not checked again when sending — the server really dialled fec0::1. Now one guard
// (platform/outbound-address.ts) normalises host names before its checks, refuses every non-public range,
// and checks the address it actually connects to (DNS answer or literal) just before connecting. Only
// 127.0.0.1 is ever dialled here, and names resolve through an injected resolver, never real DNS.

/** A TCP listener on 127.0.0.1 that counts connections: the guard's refusals must never reach it. */
let listener: Server;
let connections = 0;
let port = 0;
let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.once('data', () =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'),
    );
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  // Private addresses not allowed: the production setting.
  t = await startTestApp({}, { clock: clock.now });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

/** Resolves every name to 127.0.0.1: a public-looking name that rebinds to loopback. */
const toLoopback: LookupAll = (_host, _options, callback) =>
  callback(null, [{ address: '127.0.0.1', family: 4 }]);

describe('the outbound guard at save time', () => {
  it.each([
    ['https://LOCALHOST./hook', 'not a local name'],
    ['https://[fec0::1]/', 'site-local'],
    ['https://[::ffff:7f00:1]/', 'IPv4-mapped'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'NAT64 (64:ff9b::/96) of link-local'],
    ['https://0x7f.1/', 'loopback'],
  ])('refuses %s with 400 naming the url field', async (url, why) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      cookies,
      payload: { url, events: ['lead.created'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors[0]).toMatchObject({ field: 'url', message: expect.stringContaining(why) });
  });
});

describe('the outbound guard when connecting', () => {
  it('refuses a name whose answer is loopback, and never connects', async () => {
    const before = connections;
    const result = await postOnce(
      `https://receiver.example:${port}/hook`,
      '{}',
      {},
      { allowPrivateUrls: false, timeoutMs: 5_000, lookup: toLoopback },
    );
    expect(result.status).toBeUndefined();
    expect(result.error).toBe('refused to connect to receiver.example (127.0.0.1): loopback (127.0.0.0/8)');
    expect(connections).toBe(before);
  });

  it('checks an IP literal too (it needs no DNS), and never connects', async () => {
    const before = connections;
    const url = new URL(`http://127.0.0.1:${port}/hook`);
    const error = await new Promise<Error>((resolve) => {
      const req = http.request(url, {
        method: 'POST',
        agent: outboundAgentFor(url, { allowPrivate: false }),
      });
      req.on('error', resolve);
      req.on('response', () => resolve(new Error('answered')));
      req.end('{}');
    });
    expect(error.message).toBe('refused to connect to 127.0.0.1: loopback (127.0.0.0/8)');
    expect(connections).toBe(before);
  });

  it('connects to the address it checked when private addresses are allowed (local receivers)', async () => {
    const before = connections;
    const result = await postOnce(
      `http://receiver.example:${port}/hook`,
      '{}',
      {},
      { allowPrivateUrls: true, timeoutMs: 5_000, lookup: toLoopback },
    );
    expect(result.status).toBe(200);
    expect(connections).toBe(before + 1);
  });

  it('an endpoint saved before the rule (fec0::1) is refused at send time, not dialled', async () => {
    await t.app.db.pool.query(
      `insert into webhook_endpoint (id, url, events, secret)
       values (gen_random_uuid(), 'https://[fec0::1]/', '{lead.created}', 'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64'))`,
    );
    // As a visitor sends it (issue 33): only an accepted lead is delivered.
    const submitted = await submitAsVisitor(t.app, clock, visitorLeadBody());
    expect(submitted.statusCode).toBe(200);
    let error = '';
    await waitFor(
      async () => {
        const { rows } = await t.app.db.pool.query<{ error: string | null }>(
          'select error from webhook_attempt order by started_at desc limit 1',
        );
        error = rows[0]?.error ?? '';
        return error !== '';
      },
      15_000,
      'the delivery attempt to be recorded',
    );
    expect(error).toContain('site-local (deprecated) (fec0::/10)');
  });
});
