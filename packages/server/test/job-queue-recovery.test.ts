import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorLeadBody } from './support/fixtures';
import { LEVEL, memoryLog } from './support/log-lines';
import type { Received } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// graphile-worker stops its worker pool for good when it cannot record a batch of finished jobs, and a
// connection PostgreSQL cuts at that moment is enough (CI saw it: "Failed to complete jobs '233':
// terminating connection due to administrator command"). The process then ran no delivery and no sale
// until restarted. The webhook worker keeps its job queue running (webhooks/job-queue-keeper.ts).

const log = memoryLog();
let bed: WebhookTestbed;

beforeAll(async () => {
  bed = await startWebhookTestbed({ LOG_LEVEL: 'info' }, { logStream: log.stream });
});
afterAll(async () => {
  await bed?.close();
});

const sql = async (text: string) => bed.t.app.db.pool.query(text);
const leadIdOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;

describe('the job queue after a connection cut as it records finished jobs', () => {
  it('starts again, delivers what was queued and what comes after, and logs warnings, not errors', async () => {
    const endpoint = await bed.createEndpoint();
    // While `job_queue_cut` holds a row, recording a finished job fails as a terminated connection does
    // (SQLSTATE 57P01, admin_shutdown): the same error, at the same statement.
    await sql('create table job_queue_cut (on_ boolean)');
    await sql(`
      create function job_queue_cut() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from job_queue_cut) then
          raise exception 'terminating connection due to administrator command' using errcode = 'admin_shutdown';
        end if;
        return null;
      end $$`);
    await sql(`
      create trigger job_queue_cut before delete on graphile_worker._private_jobs
      for each statement execute function job_queue_cut()`);
    await sql('insert into job_queue_cut values (true)');

    const first = await bed.submit(visitorLeadBody());
    expect(first.statusCode, first.body).toBe(200);
    const firstId = (first.json() as { id: string }).id;
    // Its delivery runs; recording it as done fails, and the job queue's pool stops.
    await bed.rx.waitFor(() => bed.rx.at(endpoint.path).some((r) => leadIdOf(r) === firstId));
    await bed.rx.waitFor(() => log.lines.some((l) => /job queue stopped/.test(l.msg)), 20_000);
    await sql('delete from job_queue_cut');

    // A lead stored after it: delivered by the job queue started again.
    const second = await bed.submit(visitorLeadBody());
    expect(second.statusCode, second.body).toBe(200);
    const secondId = (second.json() as { id: string }).id;
    await bed.rx.waitFor(() => bed.rx.at(endpoint.path).some((r) => leadIdOf(r) === secondId), 20_000);

    const lines = log.lines.filter((l) => l.component === 'webhooks');
    expect(lines.some((l) => l.level === LEVEL.warn && /Failed to complete jobs/.test(l.msg))).toBe(true);
    expect(log.errors()).toEqual([]);
  }, 60_000);
});
