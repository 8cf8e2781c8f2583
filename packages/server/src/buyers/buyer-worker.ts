import type { BuyerRule } from '@uf/shared/buyers';
import { rulesProblem } from '@uf/shared/rule-patterns';
import type { Pool } from 'pg';
import { reportIdleBuyers } from './buyer-health';
import { type SaleOptions, sellLead } from './buyer-sale';

// The job behind selling (issue 34, ADR 069): one `buyer_sell` job per lead, queued by the webhook
// outbox's fan-out (sale_enqueue()), run by the same job queue as the webhook deliveries.

export const SELL_TASK = 'buyer_sell';

// Pending sales nobody is running: a job lost with a crash, a backup restored without its jobs, a lead
// whose run was cut short at a stop. They get a job again once their claim has lapsed.
const REQUEUE_SQL = `
  select count(*) from graphile_worker.add_jobs(array(
    select row('${SELL_TASK}', json_build_object('id', l.lead_id), null, null, 25, null, 0, null)::graphile_worker.job_spec
    from lead_sale l
    where l.status = 'pending' and l.created_at < now() - interval '30 seconds'
      and (l.claimed_until is null or l.claimed_until < now())
      and l.lead_id::text not in (
        select payload->>'id' from graphile_worker._private_jobs where payload->>'id' is not null)
    limit 1000))`;

/** The queue's tasks for selling, on the worker's pool; `signal` aborts posts in flight at a stop. */
export function buyerTasks(options: Omit<SaleOptions, 'signal' | 'admit'>) {
  return (pool: Pool, signal: AbortSignal, admit: () => Promise<void> | undefined) => ({
    [SELL_TASK]: async (payload: unknown) => {
      await sellLead(pool, (payload as { id: string }).id, { ...options, signal, admit });
    },
  });
}

/** Gives pending sales that lost their job a new one (the worker's sweep). */
export async function requeueSales(pool: Pick<Pool, 'query'>): Promise<void> {
  await pool.query(REQUEUE_SQL);
}

/** How often a process looks for buyers that stopped buying. */
const IDLE_CHECK_MS = 5 * 60_000;

/** A sweep that reports idle buyers (buyer-health.ts), at most every IDLE_CHECK_MS. */
export function idleBuyersSweep(
  clock: () => Date,
  onIdle: Parameters<typeof reportIdleBuyers>[2],
): (pool: Pick<Pool, 'query'>) => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async (pool) => {
    if (performance.now() - last < IDLE_CHECK_MS) return;
    last = performance.now();
    await reportIdleBuyers(pool, clock(), onIdle);
  };
}

/**
 * Once per process, at the worker's first sweep: a warning for each buyer saved before ADR 072 whose rules
 * RE2 cannot run. Such a buyer is never posted to (each lead offered to it is its error, which pauses it
 * after its errors in a row) until an admin edits its rules; the warning says so before any lead is lost.
 */
export function storedRulesCheck(
  warn: (buyer: { id: string; name: string; problem: string }) => void,
): (pool: Pick<Pool, 'query'>) => Promise<void> {
  let done = false;
  return async (pool) => {
    if (done) return;
    const { rows } = await pool.query<{ id: string; name: string; rules: BuyerRule[] | null }>(
      `select id, name, config->'responseRules' as rules from buyer order by name`,
    );
    done = true;
    for (const row of rows) {
      const problem = rulesProblem(Array.isArray(row.rules) ? row.rules : []);
      if (problem) warn({ id: row.id, name: row.name, problem });
    }
  };
}
