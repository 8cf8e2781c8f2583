import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebhookWorker } from '../src/webhooks/webhook-worker';
import { visitorLeadBody } from './support/fixtures';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// The webhook outbox (ADR 062, "The write path's share"): the statement that stores a batch of leads
// writes one outbox row, and the fan-out job queued after its commit makes the deliveries, in event
// order. This app sends nothing itself (WEBHOOKS_CONCURRENCY=0), so each step can be looked at before
// the next.

let bed: WebhookTestbed;

beforeAll(async () => {
  bed = await startWebhookTestbed({ WEBHOOKS_CONCURRENCY: '0' });
});
afterAll(async () => {
  await bed?.close();
});

const sql = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await bed.t.app.db.pool.query<T>(text, values)).rows;

describe('webhook outbox', () => {
  it('queues one row per batch with the lead, and fans out an opt-out after the lead it revokes', async () => {
    const endpoint = await bed.createEndpoint();

    const lead = visitorLeadBody();
    const res = await bed.submit(lead);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json() as { id: string };
    // Acknowledged: its message is in the outbox with a job to fan it out, and no delivery exists yet.
    const events = await sql<{ event: string; ids: string[]; created_at: Date }>(
      'select event, ids, created_at from webhook_event order by id',
    );
    expect(events.map((e) => [e.event, e.ids])).toEqual([['lead.created', [id]]]);
    expect(await sql('select 1 from webhook_delivery')).toHaveLength(0);
    // The fan-out's job is queued once the batch has committed.
    await vi.waitFor(
      async () =>
        expect(
          await sql(`select 1 from graphile_worker.jobs where task_identifier = 'webhook_fanout'`),
        ).toHaveLength(1),
      { timeout: 5_000, interval: 20 },
    );

    // The visitor opts out before anything was fanned out.
    const optOut = await bed.t.app.inject({
      method: 'POST',
      url: '/api/unsubscribe',
      payload: { email: lead.email },
    });
    expect(optOut.statusCode, optOut.body).toBe(200);

    expect((await sql<{ n: number }>('select webhook_fanout(500) as n'))[0]?.n).toBe(2);
    // The endpoint gets the lead and then its opt-out, although it subscribed to lead.created only:
    // the opt-out was fanned out after the delivery it revokes existed.
    const deliveries = await sql<{ event: string; lead_id: string; created_at: Date }>(
      'select event, lead_id, created_at from webhook_delivery where endpoint_id = $1 order by created_at',
      [endpoint.id],
    );
    expect(deliveries.map((d) => [d.event, d.lead_id])).toEqual([
      ['lead.created', id],
      ['lead.opted_out', id],
    ]);
    // A message's time is when its event happened, not when it was fanned out.
    expect(deliveries[0]?.created_at).toEqual(events[0]?.created_at);
    expect(await sql('select 1 from webhook_event')).toHaveLength(0);
    // Each delivery has its job.
    expect(
      await sql(`select 1 from graphile_worker.jobs where task_identifier = 'webhook_deliver'`),
    ).toHaveLength(2);
  });

  it('a message left in the outbox without its job (a restored backup) is fanned out and delivered', async () => {
    const restored = await bed.createEndpoint();
    const res = await bed.submit(visitorLeadBody());
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json() as { id: string };
    await sql('delete from graphile_worker._private_jobs');
    await sql(`update webhook_event set created_at = now() - interval '5 minutes'`);

    const worker = await startWebhookWorker({
      connectionString: bed.t.db.url,
      concurrency: 4,
      delivery: { allowPrivateUrls: true, retrySchedule: [1] },
    });
    try {
      await worker.sweep();
      const [message] = await bed.rx.waitFor(() => {
        const got = bed.rx.at(restored.path);
        return got.length ? got : undefined;
      });
      expect((JSON.parse(message?.body ?? '{}') as { data: { id: string } }).data.id).toBe(id);
    } finally {
      await worker.stop();
    }
  });
});
