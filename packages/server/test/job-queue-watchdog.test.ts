import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import { LEVEL, memoryLog } from './support/log-lines';
import type { Received } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Issue 47, item 0: the job queue's watchdog needs no cause. Here the cause is one nobody fixed: the
// only worker (WEBHOOKS_CONCURRENCY=1) hangs on a receiver that never answers, so jobs due behind it
// wait for the attempt's 15 s deadline. With the thresholds shortened (3 s instead of 30 s), the
// watchdog sees jobs due and none started, has the runner replaced and says so; /readyz names the
// stalled queue meanwhile and /metrics shows the oldest due job's age. The leads queued behind the hung
// attempt are delivered before its deadline.

const TOKEN = 'a-metrics-token-of-at-least-32-characters';
const STALL_MS = 3_000;
const log = memoryLog();
let bed: WebhookTestbed;
const held: ServerResponse[] = [];

beforeAll(async () => {
  bed = await startWebhookTestbed(
    { LOG_LEVEL: 'info', WEBHOOKS_CONCURRENCY: '1', METRICS_TOKEN: TOKEN },
    { logStream: log.stream, jobQueueWatchdog: { stallMs: STALL_MS, checkMs: 250 } },
  );
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await bed?.close();
});

const sql = async (text: string) => bed.t.app.db.pool.query(text);
const leadIdOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;

describe('the job queue watchdog', () => {
  it('replaces a runner that starts no job while jobs are due, and says so', async () => {
    const hang = await bed.createEndpoint();
    const ok = await bed.createEndpoint();
    // The hung receiver: its first request gets no answer (the attempt gives up at its 15 s deadline).
    let firstHangClosedAt: number | undefined;
    bed.rx.on(hang.path, (_r, res) => {
      if (held.length > 0) return void res.end('ok');
      held.push(res);
      res.on('close', () => {
        firstHangClosedAt = Date.now();
      });
    });

    // Lead 1, until its delivery to `hang` is under way: the one worker is then held.
    const first = await bed.submit(visitorLeadBody());
    expect(first.statusCode, first.body).toBe(200);
    await bed.rx.waitFor(() => bed.rx.at(hang.path).length === 1);

    // Leads 2 and 3, queued behind the hung attempt.
    const later: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await bed.submit(visitorLeadBody());
      expect(res.statusCode, res.body).toBe(200);
      later.push((res.json() as { id: string }).id);
    }
    await bed.rx.waitFor(
      () => later.every((id) => bed.rx.at(ok.path).some((r) => leadIdOf(r) === id)),
      30_000,
    );
    // Delivered while the first hung attempt still waited for its answer: a new runner did it.
    expect(firstHangClosedAt).toBeUndefined();
    const warnings = log.lines.filter((l) => l.component === 'webhooks' && l.level === LEVEL.warn);
    expect(warnings.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(
        /^The job queue stalled \(job queue stalled: a job due for \d+ s, none started for \d+ s\); its runner is replaced/,
      ),
    );
  }, 60_000);

  it('says so on /readyz and /metrics for as long as no job starts, and stops saying so once one does', async () => {
    const ok = await bed.createEndpoint();
    const readyz = async () => {
      const r = await bed.t.app.inject({ method: 'GET', url: '/readyz' });
      return { status: r.statusCode, body: r.body };
    };
    const gauge = async () => {
      const m = await bed.t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return Number(/^job_queue_oldest_due_seconds ([\d.e+-]+)$/m.exec(m.body)?.[1]);
    };
    expect(await readyz()).toEqual({ status: 200, body: '{"status":"ready"}' });
    // Every fetch fails, as it did while the database stalled: no runner starts a job, however
    // often it is replaced.
    await sql(`
      create function queue_fault_fetch() returns trigger language plpgsql as $$
      begin
        raise exception 'canceling statement due to statement timeout' using errcode = 'query_canceled';
      end $$`);
    await sql(`
      create trigger queue_fault_fetch before update on graphile_worker._private_jobs
      for each row when (old.locked_by is null and new.locked_by is not null)
      execute function queue_fault_fetch()`);
    const res = await bed.submit(visitorLeadBody());
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;

    await expect.poll(readyz, { timeout: 20_000 }).toEqual({
      status: 503,
      body: expect.stringMatching(
        /^\{"status":"job queue stalled: a job due for \d+ s, none started for \d+ s"\}$/,
      ),
    });
    await expect.poll(gauge, { timeout: 20_000 }).toBeGreaterThan((STALL_MS * 2) / 1000);
    // Still 503 a while later: the stall lasts.
    expect((await readyz()).status).toBe(503);

    await sql('drop trigger queue_fault_fetch on graphile_worker._private_jobs');
    await bed.rx.waitFor(() => bed.rx.at(ok.path).some((r) => leadIdOf(r) === id), 30_000);
    await expect.poll(readyz, { timeout: 20_000 }).toEqual({ status: 200, body: '{"status":"ready"}' });
    await expect.poll(gauge, { timeout: 20_000 }).toBeLessThan(STALL_MS / 1000);
    expect(log.errors()).toEqual([]);
  }, 90_000);
});
