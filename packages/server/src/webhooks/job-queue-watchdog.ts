import type { Pool } from 'pg';

// The job queue's watchdog (issue 47, ADR 062 addendum of 2026-12-07): whatever the reason a runner
// stops taking jobs without ending — a library fault like the one the keeper now catches, or one not yet
// known — jobs that are due and nobody starts are what it looks like from outside. The watchdog looks at
// exactly that, every CHECK_MS with one small query, and has the runner replaced.

/** Jobs due this long, with none started meanwhile, mean a stalled queue. */
export const STALL_MS = 30_000;
/** How often the watchdog looks at the queue. */
export const CHECK_MS = 5_000;

/**
 * The age in seconds of the oldest job this process could run and nobody runs: due (`run_at` passed),
 * not locked, attempts left (`is_available`), of one of our tasks, not held back by a locked named queue.
 * 0 when there is none. It walks graphile-worker's partial index of available jobs (priority, run_at) —
 * the one its fetch reads — one step per priority in use, taking each priority's first due job of ours:
 * 0.2 ms with 100,000 jobs due and 100,000 waiting to be retried, where a plain min(run_at) scanned
 * the table (150 ms).
 */
const OLDEST_DUE_SQL = `
  with recursive tasks as (
    select array(select id from graphile_worker._private_tasks where identifier = any($1::text[])) as ids
  ), priorities as (
    (select priority from graphile_worker._private_jobs where is_available = true order by priority limit 1)
    union all
    select (select j.priority from graphile_worker._private_jobs j
            where j.is_available = true and j.priority > p.priority order by j.priority limit 1)
    from priorities p where p.priority is not null
  )
  select coalesce(extract(epoch from now() - min((
    select j.run_at from graphile_worker._private_jobs j, tasks
    where j.is_available = true and j.priority = p.priority and j.run_at <= now()
      and j.task_id = any(tasks.ids)
      and (j.job_queue_id is null or j.job_queue_id in (
        select id from graphile_worker._private_job_queues where locked_at is null))
    order by j.run_at limit 1))), 0)::float8 as age
  from priorities p where p.priority is not null`;

/** Reads the oldest due job's age in seconds (see OLDEST_DUE_SQL). */
export async function oldestDueSeconds(pool: Pick<Pool, 'query'>, tasks: string[]): Promise<number> {
  const { rows } = await pool.query<{ age: number }>(OLDEST_DUE_SQL, [tasks]);
  return Math.max(0, rows[0]?.age ?? 0);
}

/**
 * What the watchdog decides from what it sees (times are performance.now() milliseconds). Stalled: a job
 * has been due longer than `stallMs` and no job has started for longer than `stallMs` — a queue that is
 * behind but working starts jobs, so a backlog is not a stall. The runner is replaced when the stall has
 * outlasted the runner's own first `stallMs` (a new runner gets its chance), and the time the database
 * did not answer the watchdog does not count: a runner cannot fetch then either, and once the database is
 * back it fetches by itself within its poll interval.
 */
export class StallDetector {
  private lastStartAt: number;
  private runnerSince: number;
  private answeringSince: number;
  /** The last check's oldest due job's age in seconds; undefined until one succeeds. */
  oldestDueSeconds: number | undefined;
  /** Why /readyz answers 503, while the stall lasts. */
  problem: string | undefined;

  constructor(
    now: number,
    private readonly stallMs = STALL_MS,
  ) {
    this.lastStartAt = now;
    this.runnerSince = now;
    this.answeringSince = now;
  }

  jobStarted(now: number): void {
    this.lastStartAt = now;
    this.problem = undefined;
  }

  runnerStarted(now: number): void {
    this.runnerSince = now;
  }

  /**
   * One check's result: the oldest due job's age in seconds, or undefined when the database did not
   * answer. Returns true when the runner should be replaced.
   */
  observe(now: number, oldestDueSeconds: number | undefined): boolean {
    if (oldestDueSeconds === undefined) {
      this.answeringSince = now;
      this.oldestDueSeconds = undefined;
      return false;
    }
    this.oldestDueSeconds = oldestDueSeconds;
    const idleMs = now - Math.max(this.lastStartAt, this.answeringSince);
    if (oldestDueSeconds * 1000 <= this.stallMs || idleMs <= this.stallMs) {
      this.problem = undefined;
      return false;
    }
    this.problem =
      `job queue stalled: a job due for ${Math.round(oldestDueSeconds)} s, ` +
      `none started for ${Math.round((now - this.lastStartAt) / 1000)} s`;
    return now - this.runnerSince > this.stallMs;
  }
}
