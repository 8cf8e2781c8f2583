import type { ExperimentPage } from '@uf/shared/experiments';
import type { Pool } from 'pg';
import { dropReason } from '../analytics/bot-filter';
import { databaseCommitter } from '../platform/pg-batch';
import { dateAndTimeIn } from '../platform/time';
import type { TokenArm } from '../quality/form-token';
import { armFor } from './assignment';
import { findExperiment, type LiveExperiment, liveExperiment, type StoredArm } from './experiment.service';

// Which arm a landing page request is served in, and the exposure it counts (issue 48, ADR 075).
//
// - The arm: the hash of the experiment's seed, the day and the cookieless visitor id (assignment.ts),
//   for every request alike — browsers, bots, HEAD and prefetches — so a crawler sees what a person with
//   its address and user agent would (no cloaking).
// - Counted (an exposure row): a GET by a browser (not a bot, headless browser or request without a user
//   agent, the analytics' own rule), not a prefetch or prerender, not a preview, while the experiment runs.
// - A rollout (stopped with `keep`) serves its arm to everyone and counts nothing.
// - `?arm=KEY` previews an arm of the live experiment, `?arm=KEY&experiment=ID` of any (a draft in the
//   editor): never counted, and its form token carries no arm, so a lead sent from a preview is nobody's.
//
// The live experiment is read at most every LIVE_TTL_MS per process (every replica sees a start or stop
// within that); the process that made the change forgets it at once.

const LIVE_TTL_MS = 5_000;

export type ServedArm = {
  experiment: LiveExperiment;
  arm: StoredArm;
  /** The experiment and arm the page's form token carries (null: a preview or a rollout). */
  tokenArm: TokenArm | null;
  counted: boolean;
  preview: boolean;
};

export type LandingRequest = {
  method: string;
  ip: string | null;
  userAgent: string | undefined;
  secChUa: string | undefined;
  /** Sec-Purpose / Purpose / X-Moz / X-Purpose: a prefetch or prerender says so there. */
  purpose: string | undefined;
  query: Record<string, unknown>;
};

type Exposure = { experimentId: string; day: string; visitorId: string; arm: string; at: Date };

const isPrefetch = (purpose: string | undefined) => !!purpose && /prefetch|prerender|preview/i.test(purpose);

export function createLandingArms(options: {
  pool: Pool;
  timeZone: string;
  clock: () => Date;
  visitorId(ip: string | null, userAgent: string | undefined, now?: Date): Promise<string | null>;
  warn(message: string, detail?: object): void;
}) {
  const { pool, timeZone, clock } = options;
  let live: { at: number; value: Promise<LiveExperiment | null> } | undefined;

  const committer = databaseCommitter<Exposure>({
    pool,
    name: 'experiment exposures',
    busyMessage: 'Too many page views right now.',
    maxBatch: 500,
    concurrency: 1,
    gatherTurn: true,
    maxQueue: 20_000,
    write: async (rows) => {
      // One statement per batch; the same visitor twice in a batch is folded before the upsert.
      await pool.query(
        `insert into experiment_exposure as x (experiment_id, day, visitor_id, arm, first_at, last_at, views)
         select experiment_id, day, visitor_id, arm, min(at), max(at), count(*)
         from unnest($1::uuid[], $2::date[], $3::bigint[], $4::text[], $5::timestamptz[])
           as t (experiment_id, day, visitor_id, arm, at)
         group by 1, 2, 3, 4 order by 1, 2, 3, 4
         on conflict (experiment_id, day, visitor_id, arm) do update
           set last_at = greatest(x.last_at, excluded.last_at), views = x.views + excluded.views`,
        [
          rows.map((r) => r.experimentId),
          rows.map((r) => r.day),
          rows.map((r) => r.visitorId),
          rows.map((r) => r.arm),
          rows.map((r) => r.at),
        ],
      );
    },
  });

  function liveNow(page: ExperimentPage): Promise<LiveExperiment | null> {
    const now = Date.now();
    if (!live || now - live.at > LIVE_TTL_MS) {
      const value = liveExperiment(pool, page);
      live = { at: now, value };
      // A failed read is tried again by the next request, and serves the page as it is meanwhile.
      value.catch(() => {
        if (live?.value === value) live = undefined;
      });
    }
    return live.value.catch((err: unknown) => {
      options.warn('reading the live experiment failed; serving the page as it is', { err });
      return null;
    });
  }

  async function preview(req: LandingRequest, page: ExperimentPage): Promise<ServedArm | null> {
    const key = typeof req.query.arm === 'string' ? req.query.arm : '';
    const id = typeof req.query.experiment === 'string' ? req.query.experiment : '';
    let experiment: LiveExperiment | null = null;
    if (/^[0-9a-f-]{36}$/i.test(id))
      experiment = await findExperiment(pool, id).catch(() => null); // unreadable: the page as built
    else experiment = await liveNow(page);
    const arm = experiment?.arms.find((a) => a.key === key);
    if (!experiment || !arm) return null;
    return { experiment, arm, tokenArm: null, counted: false, preview: true };
  }

  return {
    /** The arm this request is served in, or null: the page as it is. Counts the exposure. */
    async choose(req: LandingRequest, page: ExperimentPage = 'landing'): Promise<ServedArm | null> {
      if (req.query.arm !== undefined) return preview(req, page);
      const experiment = await liveNow(page);
      if (!experiment) return null;
      if (experiment.rollout) {
        const arm = experiment.arms.find((a) => a.key === experiment.rollout);
        return arm ? { experiment, arm, tokenArm: null, counted: false, preview: false } : null;
      }
      const now = clock();
      const visitorId = await options.visitorId(req.ip, req.userAgent, now).catch((err: unknown) => {
        options.warn('deriving the visitor id failed; serving the page as it is', { err });
        return null;
      });
      // No address (no visitor id): nothing to assign by; the page as it is, counted nowhere.
      if (!visitorId) return null;
      const { date: day } = dateAndTimeIn(now, timeZone);
      const arm = armFor(experiment.arms, experiment.seed, day, visitorId);
      const counted =
        req.method === 'GET' &&
        !isPrefetch(req.purpose) &&
        dropReason({ userAgent: req.userAgent, secChUa: req.secChUa }) === null;
      if (counted) {
        // Not awaited: the page is never held for the count. A lost write is logged, never a failed page.
        committer
          .push({ experimentId: experiment.id, day, visitorId, arm: arm.key, at: now })
          .catch((err: unknown) => options.warn('counting an experiment exposure failed', { err }));
      }
      return {
        experiment,
        arm,
        tokenArm: { experimentId: experiment.id, arm: arm.key },
        counted,
        preview: false,
      };
    },
    /** After a change made by this process: the next request reads the live experiment again. */
    forget() {
      live = undefined;
    },
    close: () => committer.close(),
  };
}

export type LandingArms = ReturnType<typeof createLandingArms>;
