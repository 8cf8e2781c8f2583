import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@uf/shared/errors';
import { plannedVisitorsFor } from '@uf/shared/experiment-stats';
import type {
  ArmContent,
  ExperimentArm,
  ExperimentPage,
  ExperimentStatus,
  PrimaryMetric,
} from '@uf/shared/experiments';
import type { ExperimentCreate, ExperimentUpdate } from '@uf/shared/experiments.schema';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { AppError } from '../errors';
import { isUniqueViolation } from '../platform/pg-transaction';
import { contentHash } from './assignment';

// Landing experiments as data (issue 48, ADR 075): create, edit while a draft, start, stop (with `keep`: a
// rollout of one arm), delete. Once started an experiment's arms, weights and seed are frozen: changing
// them under a running experiment would move visitors between arms and spoil the comparison.

export type StoredArm = ExperimentArm & { contentHash: string };

export type Experiment = {
  id: string;
  name: string;
  hypothesis: string | null;
  page: ExperimentPage;
  status: ExperimentStatus;
  primaryMetric: PrimaryMetric;
  plannedVisitors: number;
  arms: StoredArm[];
  rollout: string | null;
  startedAt: string | null;
  stoppedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** What serving needs beside the view: the seed stays on the server. */
export type LiveExperiment = Experiment & { seed: string };

type Row = {
  id: string;
  name: string;
  hypothesis: string | null;
  page: ExperimentPage;
  status: ExperimentStatus;
  primary_metric: PrimaryMetric;
  planned_visitors: number;
  arms: StoredArm[];
  seed: string;
  rollout_arm: string | null;
  started_at: Date | null;
  stopped_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function viewOf(row: Row): LiveExperiment {
  return {
    id: row.id,
    name: row.name,
    hypothesis: row.hypothesis,
    page: row.page,
    status: row.status,
    primaryMetric: row.primary_metric,
    plannedVisitors: row.planned_visitors,
    arms: row.arms,
    rollout: row.rollout_arm,
    startedAt: iso(row.started_at),
    stoppedAt: iso(row.stopped_at),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    seed: row.seed,
  };
}

/** The view an admin gets: everything but the seed. */
export function publicView(e: LiveExperiment): Experiment {
  const { seed: _seed, ...view } = e;
  return view;
}

const storedArms = (arms: ExperimentCreate['arms']): StoredArm[] =>
  arms.map((a) => {
    const content: ArmContent = { ...a.content };
    return { key: a.key, name: a.name, weight: a.weight, content, contentHash: contentHash(content) };
  });

const notFound = () => new AppError(ERROR_CODES.notFound, 'Experiment not found');
const conflict = (message: string) => new AppError(ERROR_CODES.conflict, message);
const LIVE_INDEX = 'experiment_one_live_per_page';
const liveConflict = () =>
  conflict(
    'Another experiment is already running on this page, or an arm of one is rolled out to everyone: stop it first.',
  );

type Actor = { username: string; ipAddress: string | null };

/** The experiment with this id, or null when there is none. */
export async function findExperiment(pool: Pool, id: string): Promise<LiveExperiment | null> {
  const { rows } = await pool.query<Row>('select * from experiment where id = $1', [id]);
  return rows[0] ? viewOf(rows[0]) : null;
}

async function load(pool: Pool, id: string): Promise<LiveExperiment> {
  const experiment = await findExperiment(pool, id);
  if (!experiment) throw notFound();
  return experiment;
}

export async function listExperiments(pool: Pool): Promise<LiveExperiment[]> {
  const { rows } = await pool.query<Row>('select * from experiment order by created_at desc, id');
  return rows.map(viewOf);
}

export const getExperiment = (pool: Pool, id: string) => load(pool, id);

/** The running experiment or the rollout of a page, if any (what the page is served with). */
export async function liveExperiment(pool: Pool, page: ExperimentPage): Promise<LiveExperiment | null> {
  const { rows } = await pool.query<Row>(
    `select * from experiment where page = $1 and (status = 'running' or rollout_arm is not null) limit 1`,
    [page],
  );
  return rows[0] ? viewOf(rows[0]) : null;
}

export async function createExperiment(pool: Pool, input: ExperimentCreate, actor: Actor) {
  const id = crypto.randomUUID();
  const { rows } = await pool.query<Row>(
    `insert into experiment (id, name, hypothesis, page, status, primary_metric, planned_visitors, arms, seed)
     values ($1, $2, $3, $4, 'draft', $5, $6, $7, $8) returning *`,
    [
      id,
      input.name,
      input.hypothesis?.trim() || null,
      input.page,
      input.primaryMetric,
      input.plannedVisitors ?? plannedVisitorsFor(input.arms.length),
      JSON.stringify(storedArms(input.arms)),
      randomBytes(16).toString('hex'),
    ],
  );
  await recordAudit(pool, {
    actor: actor.username,
    action: 'experiments.change',
    detail: { id, change: 'create', name: input.name },
    ipAddress: actor.ipAddress,
  });
  return viewOf(rows[0] as Row);
}

export async function updateExperiment(pool: Pool, input: ExperimentUpdate, actor: Actor) {
  const current = await load(pool, input.id);
  if (input.arms && current.status !== 'draft') {
    throw conflict('The arms of an experiment that has started cannot change: copy it into a new draft.');
  }
  if (input.plannedVisitors !== undefined && current.status === 'stopped') {
    throw conflict('A stopped experiment’s planned size cannot change.');
  }
  const { rows } = await pool.query<Row>(
    `update experiment set
       name = coalesce($2, name),
       hypothesis = case when $3::boolean then $4 else hypothesis end,
       primary_metric = coalesce($5, primary_metric),
       planned_visitors = coalesce($6, planned_visitors),
       arms = coalesce($7::jsonb, arms),
       updated_at = now()
     where id = $1 returning *`,
    [
      input.id,
      input.name ?? null,
      input.hypothesis !== undefined,
      input.hypothesis?.trim() || null,
      input.primaryMetric ?? null,
      input.plannedVisitors ?? null,
      input.arms ? JSON.stringify(storedArms(input.arms)) : null,
    ],
  );
  await recordAudit(pool, {
    actor: actor.username,
    action: 'experiments.change',
    detail: { id: input.id, change: 'update', fields: Object.keys(input).filter((k) => k !== 'id') },
    ipAddress: actor.ipAddress,
  });
  return viewOf(rows[0] as Row);
}

export async function deleteExperiment(pool: Pool, id: string, actor: Actor) {
  const current = await load(pool, id);
  if (current.status === 'running' || current.rollout) {
    throw conflict('A running experiment or a rollout cannot be deleted: stop it first.');
  }
  await pool.query('delete from experiment where id = $1', [id]);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'experiments.change',
    detail: { id, change: 'delete', name: current.name },
    ipAddress: actor.ipAddress,
  });
  return { id, deleted: true as const };
}

export async function startExperiment(pool: Pool, id: string, actor: Actor, now: Date) {
  const current = await load(pool, id);
  if (current.status !== 'draft') {
    throw conflict(
      current.status === 'running'
        ? 'This experiment is already running.'
        : 'A stopped experiment cannot start again (its visitors were counted): copy it into a new draft.',
    );
  }
  try {
    const { rows } = await pool.query<Row>(
      `update experiment set status = 'running', started_at = $2, updated_at = now()
       where id = $1 and status = 'draft' returning *`,
      [id, now],
    );
    if (!rows[0]) throw conflict('This experiment changed meanwhile: read it again.');
    await recordAudit(pool, {
      actor: actor.username,
      action: 'experiments.change',
      detail: { id, change: 'start' },
      ipAddress: actor.ipAddress,
    });
    return viewOf(rows[0]);
  } catch (err) {
    if (isUniqueViolation(err, LIVE_INDEX)) throw liveConflict();
    throw err;
  }
}

/**
 * Stops a running experiment: without `keep` the page returns to the control; with `keep` that arm is
 * served to everyone from now on (a rollout, counted nowhere). Stopping a stopped experiment's rollout
 * ends the rollout (the page returns to the control).
 */
export async function stopExperiment(
  pool: Pool,
  input: { id: string; keep?: string | undefined },
  actor: Actor,
  now: Date,
) {
  const current = await load(pool, input.id);
  if (input.keep !== undefined && !current.arms.some((a) => a.key === input.keep)) {
    throw new AppError(ERROR_CODES.validation, `keep: this experiment has no arm "${input.keep}"`, [
      { field: 'keep', message: `this experiment has no arm "${input.keep}"` },
    ]);
  }
  if (current.status === 'draft') throw conflict('This experiment has not started.');
  if (current.status === 'stopped' && !current.rollout) throw conflict('This experiment is already stopped.');
  if (current.status === 'stopped' && input.keep !== undefined) {
    throw conflict('This experiment is already stopped: stop its rollout, or start a new experiment.');
  }
  // The control kept is the page as it is: no rollout to serve.
  const rollout = input.keep !== undefined && input.keep !== current.arms[0]?.key ? input.keep : null;
  const { rows } = await pool.query<Row>(
    `update experiment set status = 'stopped', rollout_arm = $2,
       stopped_at = coalesce(stopped_at, $3), updated_at = now()
     where id = $1 returning *`,
    [input.id, current.status === 'running' ? rollout : null, now],
  );
  await recordAudit(pool, {
    actor: actor.username,
    action: 'experiments.change',
    detail: {
      id: input.id,
      change: current.status === 'running' ? 'stop' : 'stop_rollout',
      ...(input.keep ? { keep: input.keep } : {}),
    },
    ipAddress: actor.ipAddress,
  });
  return viewOf(rows[0] as Row);
}
