import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import { LEVEL, memoryLog } from './support/log-lines';
import type { Received } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Issue 47, item 0: on a long-running server, a database stall (a 30 s lock on website_lead) left the
// job queue dead — "Failed to fail jobs '956': …", some "Failed task … statement timeout", then nothing:
// no job fetched for 30+ minutes, no connection held, the runner's promise never settled, /readyz ready.
//
// The cause (ADR 062, addendum of 2026-12-07): graphile-worker's batcher for failed jobs counts its
// pending batches wrongly once one batch has failed, so the shutdown that failure starts waits forever
// for the count to reach zero, after its local queue has already stopped fetching. It takes a failed
// batch, then a batch recorded after it while a job is still running, then that job ending. This test
// builds exactly that, with the stalls real (pg_sleep cut by the statement timeout, as in the log):
// lead 1's delivery to `fail` stalls as it is recorded; the first batch of failed jobs stalls; `late`'s
// delivery stalls and its failure is recorded afterwards; `slow`'s delivery then ends well. Meanwhile
// website_lead is locked and a visitor is waiting on it, as in the issue.

const log = memoryLog();
let bed: WebhookTestbed;
let lockHolder: pg.Client | undefined;
// /readyz's answers, polled from the stall on (stopped before the app closes).
const readiness: number[] = [];
let polling = false;
let poll: Promise<void> | undefined;

beforeAll(async () => {
  bed = await startWebhookTestbed(
    { LOG_LEVEL: 'info', DB_STATEMENT_TIMEOUT_SECONDS: '2' },
    { logStream: log.stream },
  );
});
afterAll(async () => {
  polling = false;
  await poll;
  await lockHolder?.end().catch(() => {});
  await bed?.close();
});

const sql = async (text: string, values: unknown[] = []) => bed.t.app.db.pool.query(text, values);
const leadIdOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;
const webhookLines = () => log.lines.filter((l) => l.component === 'webhooks');

/** Resolves once `check()` holds, polled every 100 ms; rejects after `ms` naming `what`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the job queue after the database stalls while failed jobs are recorded', () => {
  it('fetches again: deliveries and sales resume, and /readyz said 503 meanwhile', async () => {
    const fail = await bed.createEndpoint();
    const late = await bed.createEndpoint();
    const slow = await bed.createEndpoint();

    // The stalls, while `queue_fault` names an endpoint: recording an attempt to it sleeps until the
    // statement timeout cuts it (the task fails: "Failed task … canceling statement due to statement
    // timeout"), and so does the first statement recording failed jobs ("Failed to fail jobs").
    await sql('create table queue_fault (endpoint_id uuid primary key)');
    await sql('create sequence queue_fault_fail_jobs');
    await sql(`
      create function queue_fault_attempt() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from queue_fault f join webhook_delivery d on d.endpoint_id = f.endpoint_id
                   where d.id = new.delivery_id) then
          perform pg_sleep(30);
        end if;
        return new;
      end $$`);
    await sql(`
      create trigger queue_fault_attempt before insert on webhook_attempt
      for each row execute function queue_fault_attempt()`);
    await sql(`
      create function queue_fault_fail_jobs() returns trigger language plpgsql as $$
      begin
        if new.last_error is distinct from old.last_error and exists (select 1 from queue_fault)
           and nextval('queue_fault_fail_jobs') = 1 then
          perform pg_sleep(30);
        end if;
        return new;
      end $$`);
    await sql(`
      create trigger queue_fault_fail_jobs before update on graphile_worker._private_jobs
      for each row execute function queue_fault_fail_jobs()`);
    await sql('insert into queue_fault values ($1), ($2)', [fail.id, late.id]);

    const failedJobsLine = () => webhookLines().some((l) => /Failed to fail jobs/.test(l.msg));
    // `late` answers once the first batch of failed jobs has failed; its own failure is then recorded
    // while `slow`'s job still runs; `slow` answers after that.
    let lateRecorded = false;
    bed.rx.on(late.path, (_r, res) => {
      void until(failedJobsLine, 60_000, 'the failed batch')
        .then(() => res.end('ok'))
        .catch(() => res.destroy());
    });
    bed.rx.on(slow.path, (_r, res) => {
      void until(() => lateRecorded, 60_000, "late's failure recorded")
        .then(() => res.end('ok'))
        .catch(() => res.destroy());
    });

    const first = await bed.submit(visitorLeadBody());
    expect(first.statusCode, first.body).toBe(200);
    await bed.rx.waitFor(() => [fail, late, slow].every((e) => bed.rx.at(e.path).length === 1), 20_000);

    // The lock on website_lead, and a visitor waiting on it: the database is stalled.
    lockHolder = new pg.Client({ connectionString: bed.t.db.url });
    await lockHolder.connect();
    await lockHolder.query('begin');
    await lockHolder.query('lock table website_lead in access exclusive mode');
    const waiting = bed.submit(visitorLeadBody());
    polling = true;
    poll = (async () => {
      while (polling) {
        readiness.push((await bed.t.app.inject({ method: 'GET', url: '/readyz' })).statusCode);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    await until(failedJobsLine, 30_000, '"Failed to fail jobs"');
    // `late`'s failure, recorded after the failed batch: its job unlocked, with its error.
    await until(
      async () =>
        (
          await sql(
            `select 1 from graphile_worker._private_jobs
             where payload->>'id' in (select id::text from webhook_delivery where endpoint_id = $1)
               and locked_at is null and last_error is not null`,
            [late.id],
          )
        ).rowCount === 1,
      30_000,
      "late's failure recorded",
    );
    lateRecorded = true;
    // `slow`'s job ends well; then the database comes back.
    await until(
      async () =>
        (
          await sql(`select 1 from webhook_delivery where endpoint_id = $1 and state = 'delivered'`, [
            slow.id,
          ])
        ).rowCount === 1,
      30_000,
      "slow's delivery recorded",
    );
    await sql('delete from queue_fault');
    await lockHolder.query('rollback');
    await lockHolder.end();
    lockHolder = undefined;
    await waiting;
    const back = Date.now();

    // A buyer, and a lead stored now: within a minute of the database coming back, it is delivered
    // (everywhere it is due) and sold.
    bed.rx.on('/buyer', (_r, res) => res.end(JSON.stringify({ ok: true })));
    await sql(
      `insert into buyer (id, name, priority, price_cents, config) values (gen_random_uuid(), 'B', 1, 500, $1)`,
      [
        {
          delivery: {
            kind: 'http',
            method: 'POST',
            url: `${bed.rx.base}/buyer`,
            encoding: 'json',
            timeoutMs: 5000,
          },
          fields: [{ to: 'lead.id', from: 'leadId' }],
          responseRules: [{ when: { json: 'ok', equals: true }, outcome: 'accepted' }],
        },
      ],
    );
    const second = await bed.submit(visitorLeadBody());
    expect(second.statusCode, second.body).toBe(200);
    const secondId = (second.json() as { id: string }).id;
    await bed.rx.waitFor(
      () =>
        bed.rx.at(fail.path).some((r) => leadIdOf(r) === secondId) &&
        bed.rx
          .at('/buyer')
          .some((r) => (JSON.parse(r.body) as { lead: { id: string } }).lead.id === secondId),
      60_000,
    );
    expect(Date.now() - back).toBeLessThan(60_000);
    polling = false;
    await poll;
    expect(readiness).toContain(503);

    expect(webhookLines().some((l) => l.level === LEVEL.warn && /Failed task/.test(l.msg))).toBe(true);
    // The keeper saw the runner's end (its pool's shutdown), not the watchdog a stall.
    expect(webhookLines().some((l) => /The job queue stopped/.test(l.msg))).toBe(true);
    expect(log.errors()).toEqual([]);
  }, 180_000);
});
