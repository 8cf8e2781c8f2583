import { ERROR_CODES } from '@uf/shared/errors';
import {
  armPreviewOutputSchema,
  experimentDeletedSchema,
  experimentResultsSchema,
  experimentSchema,
  experimentsSchema,
} from '@uf/shared/experiments.output';
import {
  armPreviewSchema,
  experimentCreateSchema,
  experimentIdSchema,
  experimentStopSchema,
  experimentUpdateSchema,
  MAX_ARMS,
  MIN_ARMS,
  SLOT_NAMES,
  TEXT_SLOTS,
} from '@uf/shared/experiments.schema';
import { AppError } from '../errors';
import {
  createExperiment,
  deleteExperiment,
  getExperiment,
  listExperiments,
  publicView,
  startExperiment,
  stopExperiment,
  updateExperiment,
} from '../experiments/experiment.service';
import { experimentResults } from '../experiments/experiment-results';
import { ref } from '../openapi/json-schema';
import type { OperationDoc } from '../openapi/openapi-operations';
// The server's renderArmPreview (a Fastify decoration): its type, where this router's type is read alone.
import type {} from '../plugins/landing-render';
import type { Context } from './context';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';

// Landing experiments (issue 48, ADR 075): the admin API, one service call each, with the words the
// OpenAPI document shows for them. A change this process makes is served at once (the landing's cache of
// the live experiment is forgotten); other replicas see it within seconds.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });
const BASE = '/api/admin/experiments';
const changed = <T>(ctx: Context, value: T): T => {
  ctx.services.landingArms.forget();
  return value;
};

export function createExperimentsRouter() {
  return router({
    list: adminProcedure
      .meta(restAt('GET', BASE))
      .output(experimentsSchema)
      .query(async ({ ctx }) => {
        const pool = ctx.services.db.pool;
        const now = ctx.services.clock();
        const all = await listExperiments(pool);
        return Promise.all(
          all.map(async (e) => {
            const r = await experimentResults(pool, e, now);
            return {
              ...publicView(e),
              visitors: r.arms.reduce((s, a) => s + a.visitors, 0),
              daysRunning: r.daysRunning,
              verdict: r.verdict,
            };
          }),
        );
      }),
    create: adminProcedure
      .meta(restAt('POST', BASE, { status: 201 }))
      .input(experimentCreateSchema)
      .output(experimentSchema)
      .mutation(async ({ ctx, input }) =>
        publicView(await createExperiment(ctx.services.db.pool, input, actorOf(ctx))),
      ),
    // The editor's live preview: the page as the arm's content would be served, saved or not.
    preview: adminProcedure
      .meta(restAt('POST', `${BASE}/preview`))
      .input(armPreviewSchema)
      .output(armPreviewOutputSchema)
      .mutation(async ({ ctx, input }) => {
        const html = await ctx.req.server.renderArmPreview(input.content);
        if (html === null) {
          throw new AppError(
            ERROR_CODES.unavailable,
            'The web app is not built: there is no page to preview.',
          );
        }
        return { html };
      }),
    get: adminProcedure
      .meta(restAt('GET', `${BASE}/:id`))
      .input(experimentIdSchema)
      .output(experimentSchema)
      .query(async ({ ctx, input }) => publicView(await getExperiment(ctx.services.db.pool, input.id))),
    update: adminProcedure
      .meta(restAt('PATCH', `${BASE}/:id`))
      .input(experimentUpdateSchema)
      .output(experimentSchema)
      .mutation(async ({ ctx, input }) =>
        changed(ctx, publicView(await updateExperiment(ctx.services.db.pool, input, actorOf(ctx)))),
      ),
    remove: adminProcedure
      .meta(restAt('DELETE', `${BASE}/:id`))
      .input(experimentIdSchema)
      .output(experimentDeletedSchema)
      .mutation(async ({ ctx, input }) =>
        changed(ctx, await deleteExperiment(ctx.services.db.pool, input.id, actorOf(ctx))),
      ),
    start: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/start`))
      .input(experimentIdSchema)
      .output(experimentSchema)
      .mutation(async ({ ctx, input }) =>
        changed(
          ctx,
          publicView(
            await startExperiment(ctx.services.db.pool, input.id, actorOf(ctx), ctx.services.clock()),
          ),
        ),
      ),
    stop: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/stop`))
      .input(experimentStopSchema)
      .output(experimentSchema)
      .mutation(async ({ ctx, input }) =>
        changed(
          ctx,
          publicView(await stopExperiment(ctx.services.db.pool, input, actorOf(ctx), ctx.services.clock())),
        ),
      ),
    results: adminProcedure
      .meta(restAt('GET', `${BASE}/:id/results`))
      .input(experimentIdSchema)
      .output(experimentResultsSchema)
      .query(async ({ ctx, input }) =>
        experimentResults(
          ctx.services.db.pool,
          await getExperiment(ctx.services.db.pool, input.id),
          ctx.services.clock(),
        ),
      ),
  });
}

const error = (description: string) => ({ description, schema: ref('Error') });
const slots = Object.entries(TEXT_SLOTS)
  .map(([name, s]) => `\`${name}\` (${s.words}, at most ${s.max} characters)`)
  .join(', ');

const EXAMPLE = {
  name: 'Headline: money owed to you',
  hypothesis: 'Naming the money as owed brings more leads that sell, not only more forms.',
  page: 'landing',
  primaryMetric: 'revenue_per_visitor',
  plannedVisitors: 16_000,
  arms: [
    { key: 'control', name: 'Control', weight: 50, content: {} },
    {
      key: 'owed',
      name: 'Owed to you',
      weight: 50,
      content: { headline: 'Your State May Owe You Money', heroButton: 'Check What You Are Owed' },
    },
  ],
};

/** The OpenAPI words of the experiment procedures (spread into the document's table). */
export const EXPERIMENT_OPERATION_DOCS: Record<string, OperationDoc> = {
  'admin.experiments.list': {
    tag: 'Admin',
    summary: 'Landing experiments',
    description:
      'Every experiment, newest first, with its status, arms, rollout, visitors counted so far, days running and — once there is enough data — its verdict in plain words.',
    responses: { '200': { description: 'The experiments' } },
  },
  'admin.experiments.create': {
    tag: 'Admin',
    summary: 'Create a landing experiment (a draft)',
    description: `A draft: nothing is served until it is started. ${MIN_ARMS}–${MAX_ARMS} arms with whole-percentage weights summing to 100; the first arm is the control — the page as it is — and has no content. An arm's \`content\` is a closed set of slots, each optional: ${slots}, and \`formFirst\` (on a phone, the form before the explanation). Nothing else can vary: the form's fields and labels, the consent text and the legal links are the same in every arm (they are the evidence of consent); an unknown slot is refused, by name. \`plannedVisitors\` is the total at which the result is read; left out, it comes from a power calculation (a 5 % lead rate, a 20 % relative lift, 95 % confidence, 80 % power, per arm). \`primaryMetric\` (default revenue_per_visitor): net revenue per visitor, accepted leads per visitor, or leads per visitor. Recorded in the audit log.`,
    input: { example: EXAMPLE },
    responses: {
      '201': { description: 'The draft' },
      '400': error(
        `A bad field, named in \`fieldErrors\`: an unknown slot (only ${SLOT_NAMES.join(', ')}), a slot too long, content on the control, weights not summing to 100, a repeated key`,
      ),
    },
  },
  'admin.experiments.preview': {
    tag: 'Admin',
    summary: 'Preview an arm’s content',
    description:
      'The landing page as an arm with this `content` would be served — rendered on the server like a running arm, saved or not — as one HTML document without a form token. The editor shows it at a phone’s and a laptop’s width in a sandboxed frame (no script runs, nothing is counted).',
    input: { example: { content: { headline: 'Your State May Owe You Money', formFirst: false } } },
    responses: {
      '200': { description: 'The page' },
      '400': error(`An unknown slot (only ${SLOT_NAMES.join(', ')}), or a slot too long, named`),
    },
  },
  'admin.experiments.get': {
    tag: 'Admin',
    summary: 'One landing experiment',
    description: 'The experiment with its arms and each arm’s content hash (what consent receipts record).',
    responses: { '200': { description: 'The experiment' }, '404': error('No such experiment') },
  },
  'admin.experiments.update': {
    tag: 'Admin',
    summary: 'Change a landing experiment',
    description:
      'The fields given are replaced. The arms (and so the weights and content) change only while it is a draft: under a running experiment they would move visitors between arms. Recorded in the audit log.',
    input: { example: { name: 'Headline test, second round', plannedVisitors: 20_000 } },
    responses: {
      '200': { description: 'The experiment as changed' },
      '400': error('A bad field, named in `fieldErrors`'),
      '404': error('No such experiment'),
      '409': error('Arms of an experiment that has started, or the planned size of a stopped one'),
    },
  },
  'admin.experiments.remove': {
    tag: 'Admin',
    summary: 'Delete a landing experiment',
    description:
      'A draft or a stopped experiment without a rollout, with its exposures. Leads keep the experiment and arm they were sent in. Recorded in the audit log.',
    responses: {
      '200': { description: 'Deleted' },
      '404': error('No such experiment'),
      '409': error('It is running or rolled out: stop it first'),
    },
  },
  'admin.experiments.start': {
    tag: 'Admin',
    summary: 'Start a landing experiment',
    description:
      'From now on each landing request is served in the arm a hash of the experiment’s seed, the day and the cookieless visitor id picks — the arm’s copy is in the first HTML response, no script changes it — and each counted page view records an exposure. One running experiment (or rollout) per page. Recorded in the audit log.',
    responses: {
      '200': { description: 'The experiment, running' },
      '404': error('No such experiment'),
      '409': error('Another experiment is running or rolled out on the page, or this one is not a draft'),
    },
  },
  'admin.experiments.stop': {
    tag: 'Admin',
    summary: 'Stop a landing experiment, or its rollout',
    description:
      'Without `keep` the page returns to the control. With `keep` (an arm key) that arm is served to everyone from then on — a rollout, counted nowhere, shown as such — until the experiment is stopped again, which ends the rollout. Keeping the control is the same as no `keep`. Recorded in the audit log.',
    input: { example: { keep: 'owed' } },
    responses: {
      '200': { description: 'The experiment, stopped (with its rollout, if any)' },
      '400': error('`keep` is not an arm of this experiment'),
      '404': error('No such experiment'),
      '409': error('Not started, or already stopped without a rollout'),
    },
  },
  'admin.experiments.results': {
    tag: 'Admin',
    summary: 'Results of a landing experiment',
    description:
      'Per arm: visitors exposed (each counted once a day; bots, HEAD requests, prefetches and previews never), leads that carry the arm, accepted, sold (returned ones included), returned, revenue (gross) and net (after returns) in USD, and the three metrics per visitor. For each arm against the control, on the primary metric: the absolute and relative lift with a 95 % interval that stays valid however often it is read (an asymptotic confidence sequence tuned at `plannedVisitors`), the fixed-horizon 95 % interval — valid only when read once, at the planned size — and the p-value. `srm`: Pearson chi-square of the exposures against the weights, not ok below 0.001. `multipleExposureRate`: the share of visitors counted in more than one arm. `enoughData` once every arm has 100 visitors and 25 conversions of the primary metric and 7 days have passed; only then a `verdict`. Revenue counts the sales up to now: `salesInReturnWindow` says how many could still be returned.',
    responses: { '200': { description: 'The results' }, '404': error('No such experiment') },
  },
};
