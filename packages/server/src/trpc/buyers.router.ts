import {
  buyerDeletedSchema,
  buyerPreviewAnswerSchema,
  buyerSchema,
  buyersSchema,
  buyerTestAnswerSchema,
  leadReturnAnswerSchema,
  leadSaleSchema,
  leadSettleAnswerSchema,
  revenueRowsSchema,
  saleAttemptsSchema,
} from '@uf/shared/buyer.output';
import {
  BUYER_LEAD_FIELDS,
  BUYER_TRANSFORMS,
  buyerAttemptsQuerySchema,
  buyerCreateSchema,
  buyerIdSchema,
  buyerPreviewSchema,
  buyerUpdateSchema,
  leadReturnSchema,
  leadSaleQuerySchema,
  leadSettleSchema,
  revenueQuerySchema,
  SKIP_REASONS,
} from '@uf/shared/buyer.schema';
import {
  createBuyer,
  deleteBuyer,
  getBuyer,
  leadSale,
  listAttempts,
  listBuyers,
  listToSettle,
  previewBuyer,
  returnLead,
  revenue,
  settleLead,
  testBuyer,
  updateBuyer,
} from '../buyers/buyer.service';
import { ref } from '../openapi/json-schema';
import type { OperationDoc } from '../openapi/openapi-operations';
import type { Context } from './context';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';

// Lead buyers (issue 34, ADR 069): the admin API, one service call each, with the words the OpenAPI
// document shows for them.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });
const BASE = '/api/admin/buyers';
const viewContext = (ctx: Context) => ({ timeZone: ctx.config.timeZone, now: ctx.services.clock() });
const writeOptions = (ctx: AdminContext) => ({
  ...viewContext(ctx),
  allowPrivateUrls: ctx.config.webhooksAllowPrivateUrls,
  actor: actorOf(ctx),
});

export function createBuyersRouter() {
  return router({
    list: adminProcedure
      .meta(restAt('GET', BASE))
      .output(buyersSchema)
      .query(({ ctx }) => listBuyers(ctx.services.db.pool, viewContext(ctx))),
    create: adminProcedure
      .meta(restAt('POST', BASE, { status: 201 }))
      .input(buyerCreateSchema)
      .output(buyerSchema)
      .mutation(({ ctx, input }) => createBuyer(ctx.services.db.pool, input, writeOptions(ctx))),
    get: adminProcedure
      .meta(restAt('GET', `${BASE}/:id`))
      .input(buyerIdSchema)
      .output(buyerSchema)
      .query(({ ctx, input }) => getBuyer(ctx.services.db.pool, input.id, viewContext(ctx))),
    update: adminProcedure
      .meta(restAt('PATCH', `${BASE}/:id`))
      .input(buyerUpdateSchema)
      .output(buyerSchema)
      .mutation(({ ctx, input }) => updateBuyer(ctx.services.db.pool, input, writeOptions(ctx))),
    remove: adminProcedure
      .meta(restAt('DELETE', `${BASE}/:id`))
      .input(buyerIdSchema)
      .output(buyerDeletedSchema)
      .mutation(({ ctx, input }) => deleteBuyer(ctx.services.db.pool, input.id, actorOf(ctx))),
    attempts: adminProcedure
      .meta(restAt('GET', `${BASE}/:id/attempts`))
      .input(buyerAttemptsQuerySchema)
      .output(saleAttemptsSchema)
      .query(({ ctx, input }) => listAttempts(ctx.services.db.pool, input)),
    toSettle: adminProcedure
      .meta(restAt('GET', `${BASE}/:id/to-settle`))
      .input(buyerIdSchema)
      .output(saleAttemptsSchema)
      .query(({ ctx, input }) => listToSettle(ctx.services.db.pool, input.id)),
    preview: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/preview`))
      .input(buyerPreviewSchema)
      .output(buyerPreviewAnswerSchema)
      .mutation(({ ctx, input }) => previewBuyer(ctx.services.db.pool, input, ctx.services.clock())),
    test: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/test`))
      .input(buyerIdSchema)
      .output(buyerTestAnswerSchema)
      .mutation(({ ctx, input }) =>
        testBuyer(ctx.services.db.pool, input.id, {
          allowPrivateUrls: ctx.config.webhooksAllowPrivateUrls,
          mailer: ctx.services.mailer,
          now: ctx.services.clock(),
          actor: actorOf(ctx),
        }),
      ),
    /** Where a lead (website or partner) was sold, and every offer. */
    leadSale: adminProcedure
      .meta(restAt('GET', '/api/admin/leads/:id/sale'))
      .input(leadSaleQuerySchema)
      .output(leadSaleSchema)
      .query(({ ctx, input }) => leadSale(ctx.services.db.pool, input.id)),
    returnLead: adminProcedure
      .meta(restAt('POST', '/api/admin/leads/:id/return'))
      .input(leadReturnSchema)
      .output(leadReturnAnswerSchema)
      .mutation(({ ctx, input }) =>
        returnLead(ctx.services.db.pool, input, { now: ctx.services.clock(), actor: actorOf(ctx) }),
      ),
    settleLead: adminProcedure
      .meta(restAt('POST', '/api/admin/leads/:id/settle'))
      .input(leadSettleSchema)
      .output(leadSettleAnswerSchema)
      .mutation(({ ctx, input }) =>
        settleLead(ctx.services.db.pool, input, { now: ctx.services.clock(), actor: actorOf(ctx) }),
      ),
    revenue: adminProcedure
      .meta(restAt('GET', '/api/admin/revenue'))
      .input(revenueQuerySchema)
      .output(revenueRowsSchema)
      .query(({ ctx, input }) => revenue(ctx.services.db.pool, input, ctx.config.timeZone)),
  });
}

const json = (description: string, schema?: OperationDoc['responses'][string]['schema']) => ({
  description,
  schema,
});
const error = (description: string) => json(description, ref('Error'));

const PX_LIKE = {
  name: 'PX-like (JSON)',
  status: 'active',
  priority: 10,
  price: 8.5,
  delivery: {
    kind: 'http',
    method: 'POST',
    url: 'https://api.buyer.example/leads',
    encoding: 'json',
    timeoutMs: 10000,
  },
  fields: [
    { to: 'ApiToken', value: 'your-token' },
    { to: 'ContactData.FirstName', from: 'firstName' },
    { to: 'ContactData.ZipCode', from: 'zipCode' },
    { to: 'ContactData.Phone', from: 'phone', transforms: ['digits'] },
    { to: 'Person.BirthDate', from: 'birthDate', transforms: ['date:YYYY-MM-DD'] },
  ],
  responseRules: [
    { when: { json: 'Success', equals: true }, outcome: 'accepted', priceFrom: 'Payout' },
    { when: { json: 'Success', equals: false }, outcome: 'rejected', reasonFrom: 'Message' },
  ],
  filters: { states: ['CA', 'NY'], minAge: 30 },
  schedule: {
    timeZone: 'America/Chicago',
    windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
  },
  caps: [{ period: 'day', leads: 100 }],
};

/** The OpenAPI words of the buyer procedures (spread into the document's table). */
export const BUYER_OPERATION_DOCS: Record<string, OperationDoc> = {
  'admin.buyers.list': {
    tag: 'Admin',
    summary: 'List the lead buyers',
    description:
      'Every buyer in waterfall order (priority, lower first), with today’s offers, sales and revenue and the use of each cap in its current period. Secret headers (and any header whose value looks like a key) are shown as ••••.',
    responses: { '200': json('The buyers') },
  },
  'admin.buyers.create': {
    tag: 'Admin',
    summary: 'Create a lead buyer from its posting specification',
    description: `A field map (\`to\` a dot path — nested objects in JSON and XML, the literal name in a form or query — \`from\` a lead field or \`value\` a constant, then \`transforms\`), response rules (checked in order, the first match wins; HTTP 5xx, network errors and no match are \`error\`, no answer within timeoutMs is \`timeout\`), filters, a schedule in the buyer's own time zone (windows may cross midnight), caps, a price and a return window. Lead fields: ${BUYER_LEAD_FIELDS.join(', ')}. Transforms: ${BUYER_TRANSFORMS.join(', ')}. Addresses follow the webhook rules: \`https://\` to public addresses only, unless WEBHOOKS_ALLOW_PRIVATE_URLS=true; redirects are not followed. Recorded in the audit log.`,
    input: { example: PX_LIKE },
    responses: {
      '201': json('The buyer, secrets masked'),
      '400': error(
        'A bad field: `fieldErrors` names it (unknown transform or lead field, invalid regex, bad time zone, end equal to start, negative cap, a private address)',
      ),
    },
  },
  'admin.buyers.get': {
    tag: 'Admin',
    summary: 'One lead buyer',
    responses: { '200': json('The buyer, secrets masked'), '404': error('No such buyer') },
  },
  'admin.buyers.update': {
    tag: 'Admin',
    summary: 'Change a lead buyer (pause, resume, edit)',
    description:
      'Any of the create fields. A header sent back as •••• keeps its stored value. `status: "active"` resumes a paused buyer and clears its error streak. Recorded in the audit log.',
    input: { example: { status: 'paused' } },
    responses: { '200': json('The buyer'), '400': error('A bad field'), '404': error('No such buyer') },
  },
  'admin.buyers.remove': {
    tag: 'Admin',
    summary: 'Delete a lead buyer',
    description:
      'Only a buyer that never bought a lead: one with sales is kept for its revenue (pause it instead).',
    responses: {
      '200': json('Deleted'),
      '404': error('No such buyer'),
      '409': error('The buyer has bought leads'),
    },
  },
  'admin.buyers.attempts': {
    tag: 'Admin',
    summary: 'A buyer’s log: every offer and skip',
    description: `Newest first: the request as sent (secrets masked), the status, the first 8 KB of the answer, the latency, the outcome (accepted, rejected, duplicate, error, timeout, unknown — the answer was cut or the server stopped mid-post, see \`to-settle\` —, or skipped with a reason code: ${SKIP_REASONS.join(', ')}), the price and the buyer's reference. \`test=true\` lists only test posts.`,
    responses: { '200': json('The attempts'), '404': error('No such buyer') },
  },
  'admin.buyers.toSettle': {
    tag: 'Admin',
    summary: 'A buyer’s sales to settle',
    description:
      'Oldest first, the posts to this buyer whose outcome is unknown: its answer was cut (a body shorter than announced, a reset or the time running out after it began), or the server stopped while the post was in flight. The buyer may have taken each lead, so its cap keeps counting it, and the lead is offered to no other buyer until it is settled (`POST /api/admin/leads/{id}/settle`).',
    responses: { '200': json('The attempts waiting to be settled'), '404': error('No such buyer') },
  },
  'admin.buyers.preview': {
    tag: 'Admin',
    summary: 'The request a lead would be sent as (nothing is sent)',
    input: { example: { leadId: '7b1c7d1e-4a1f-4b55-9a51-1c7f0f4b8d10' } },
    responses: { '200': json('The request, secrets masked'), '404': error('No such buyer or lead') },
  },
  'admin.buyers.test': {
    tag: 'Admin',
    summary: 'Send a test lead',
    description:
      'A made-up lead, sent to the buyer’s testUrl (else its url), enabled or paused; the answer is read by the buyer’s rules. Test posts never count against caps or revenue.',
    responses: {
      '200': json('The attempt: request, answer and parsed outcome'),
      '404': error('No such buyer'),
    },
  },
  'admin.buyers.leadSale': {
    tag: 'Admin',
    summary: 'Where a lead was sold',
    description:
      '`sold` (buyer and price), `unsold` (every buyer passed or refused), `pending` (being offered), `unknown` (waiting for an admin to settle a post whose outcome is unknown with `buyerId`: see `POST /api/admin/leads/{id}/settle`) or `not_for_sale` (held or rejected by the quality checks, no consent, do-not-sell, opted out, or no buyer was active when it came), with every offer in order. Website and API leads alike.',
    responses: { '200': json('The sale and its attempts'), '404': error('No such lead') },
  },
  'admin.buyers.settleLead': {
    tag: 'Admin',
    summary: 'Settle a sale whose outcome is unknown',
    description:
      'After asking the buyer (its report, its support): `taken: true` books the sale to `buyerId` at the price reserved for the post (the buyer’s price then); `taken: false` closes the post (recorded as rejected, its caps released) and offers the lead on down the waterfall from where it stopped — buyers already offered it are never offered it again. Recorded in the audit log. Two settles at once: one wins, the other gets 409.',
    input: { example: { buyerId: '3f0c2b8e-1d5a-4c59-9b0e-6b1f2a7d9c41', taken: true } },
    responses: {
      '200': json('What the sale became'),
      '400': error('A bad id, buyerId or taken'),
      '404': error('The lead was never posted to this buyer'),
      '409': error('The post is not waiting to be settled (already settled, or never unknown)'),
    },
  },
  'admin.buyers.returnLead': {
    tag: 'Admin',
    summary: 'Return a sold lead (credit the buyer)',
    description:
      'Within the buyer’s return window (returnWindowDays after the sale, 30 by default): the sale is credited and revenue falls by its price. Recorded in the audit log.',
    input: { example: { reason: 'Disconnected number', note: 'Buyer ticket 4411' } },
    responses: {
      '200': json('What was credited'),
      '400': error('The lead was not sold, or its return window has closed'),
      '409': error('Already returned'),
    },
  },
  'admin.buyers.revenue': {
    tag: 'Admin',
    summary: 'Revenue by day, buyer, source or campaign',
    description:
      'For the leads offered from `from` to `to` (days in the business time zone): offered, sold, revenue (sold leads at their price), returned (credited) and net.',
    responses: { '200': json('One row per key'), '400': error('A bad date or groupBy') },
  },
};
