import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Buyers' schedules and daily caps (issue 34, ADR 069) on the app's injected clock, in America/Chicago
// across both 2026 daylight-saving changes (8 March: 02:00 CST → 03:00 CDT; 1 November: 02:00 CDT →
// 01:00 CST) and with a window that crosses midnight. The waterfall runs on the clock of the moment each
// lead is sold; a catch-all buyer behind the scheduled one shows where each lead went.

let bed: WebhookTestbed;
const api: WebhookTestbed['api'] = (...args) => bed.api(...args);
let scheduled: string;
let fallback: string;

beforeAll(async () => {
  bed = await startWebhookTestbed();
  for (const path of ['/scheduled', '/fallback']) {
    bed.rx.on(path, (_r, res) => res.end('{"Success":true}'));
  }
  const buyer = (name: string, path: string, extra: Record<string, unknown>) => ({
    name,
    price: 5,
    delivery: { kind: 'http', method: 'POST', url: `${bed.rx.base}${path}`, encoding: 'json' },
    fields: [{ to: 'id', from: 'leadId' }],
    responseRules: [{ when: { json: 'Success', equals: true }, outcome: 'accepted' }],
    ...extra,
  });
  const a = await api(
    'POST',
    '/api/admin/buyers',
    buyer('Chicago days', '/scheduled', {
      priority: 1,
      schedule: {
        timeZone: 'America/Chicago',
        windows: [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], start: '09:00', end: '17:00' },
          // Sunday: the day shift, and a late shift that runs into Monday 02:00.
          { days: ['sun'], start: '09:00', end: '17:00' },
          { days: ['sun'], start: '22:00', end: '02:00' },
        ],
      },
      caps: [{ period: 'day', leads: 2 }],
    }),
  );
  expect(a.statusCode, a.body).toBe(201);
  scheduled = (a.json() as { id: string }).id;
  const b = await api('POST', '/api/admin/buyers', buyer('Catch-all', '/fallback', { priority: 2 }));
  expect(b.statusCode, b.body).toBe(201);
  fallback = (b.json() as { id: string }).id;
});
afterAll(async () => {
  await bed?.close();
});

/** Moves the app's clock so the lead is sold at `iso` (the visitor's seconds on the page included). */
function soldAt(iso: string) {
  const target = Date.parse(iso) - 6_000;
  bed.clock.advance((target - bed.clock.now().getTime()) / 1000);
}

async function buyerOf(at: string): Promise<{ buyer: string; reason: string | null }> {
  soldAt(at);
  const res = await bed.submit(visitorLeadBody());
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { id: string }).id;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const sale = (await api('GET', `/api/admin/leads/${id}/sale`)).json() as {
      status: string;
      buyerId?: string;
      attempts: { buyerId: string; reason: string | null }[];
    };
    if (sale.status === 'sold') {
      const first = sale.attempts.find((x) => x.buyerId === scheduled);
      return {
        buyer: sale.buyerId === scheduled ? 'scheduled' : sale.buyerId === fallback ? 'fallback' : '?',
        reason: first?.reason ?? null,
      };
    }
    if (Date.now() > deadline) throw new Error(`lead ${id} not sold: ${sale.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('schedules and daily caps on the injected clock', () => {
  it('opens at 09:00 Chicago time on both sides of the March change', async () => {
    // Saturday 7 March, CST (UTC−6): 09:00 is 15:00Z.
    expect(await buyerOf('2026-03-07T14:59:00Z')).toEqual({ buyer: 'fallback', reason: 'closed' });
    expect(await buyerOf('2026-03-07T15:00:30Z')).toMatchObject({ buyer: 'scheduled' });
    // Sunday 8 March, CDT (UTC−5) since 02:00: 09:00 is 14:00Z.
    expect(await buyerOf('2026-03-08T13:59:00Z')).toEqual({ buyer: 'fallback', reason: 'closed' });
    expect(await buyerOf('2026-03-08T14:00:30Z')).toMatchObject({ buyer: 'scheduled' });
  });

  it('counts the day cap per Chicago day, through a window that crosses midnight', async () => {
    // Sunday 8 March: one lead already sold in the day shift; the late shift (22:00 CDT = 03:00Z Monday).
    expect(await buyerOf('2026-03-09T03:10:00Z')).toMatchObject({ buyer: 'scheduled' });
    // Two sold on Sunday (Chicago): the cap is full until midnight there.
    expect(await buyerOf('2026-03-09T04:30:00Z')).toEqual({ buyer: 'fallback', reason: 'cap_day' });
    // 00:30 Monday in Chicago (05:30Z): a new day, still in Sunday's late shift.
    expect(await buyerOf('2026-03-09T05:30:00Z')).toMatchObject({ buyer: 'scheduled' });
    // 02:30 Monday: the late shift ended at 02:00.
    expect(await buyerOf('2026-03-09T07:30:00Z')).toEqual({ buyer: 'fallback', reason: 'closed' });
  });

  it('opens at 09:00 Chicago time on both sides of the November change', async () => {
    // Saturday 31 October, CDT (UTC−5): 09:00 is 14:00Z.
    expect(await buyerOf('2026-10-31T14:00:30Z')).toMatchObject({ buyer: 'scheduled' });
    // Sunday 1 November, CST (UTC−6) since 02:00: 14:00Z is 08:00, 15:00Z is 09:00.
    expect(await buyerOf('2026-11-01T14:00:30Z')).toEqual({ buyer: 'fallback', reason: 'closed' });
    expect(await buyerOf('2026-11-01T15:00:30Z')).toMatchObject({ buyer: 'scheduled' });
    // The day's cap counts Chicago's 25-hour day: a second lead, then full.
    expect(await buyerOf('2026-11-01T16:00:00Z')).toMatchObject({ buyer: 'scheduled' });
    expect(await buyerOf('2026-11-01T17:00:00Z')).toEqual({ buyer: 'fallback', reason: 'cap_day' });
  });
});
