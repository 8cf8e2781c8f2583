import { adCostImportAnswerSchema, adCostRowsSchema, adCostsDeletedSchema } from '@uf/shared/ad-costs.output';
import {
  AD_COST_CURRENCY,
  AD_COST_PLATFORMS,
  adCostDeleteSchema,
  adCostImportSchema,
  adCostListQuerySchema,
  MAX_AD_COST_CSV,
} from '@uf/shared/ad-costs.schema';
import { deleteAdCosts, importAdCosts, listAdCosts } from '../costs/ad-cost.service';
import { ref } from '../openapi/json-schema';
import type { OperationDoc } from '../openapi/openapi-operations';
import type { Context } from './context';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';

// Ad cost (issue 35): the admin API, one service call each, with the words the OpenAPI document shows.
// A report file comes as the text of a JSON field (`csv`), not as a text/csv or multipart body: one body
// type for every admin call (the input guard's checks, the procedure's schema, the tRPC client and the
// document all hold for it as they are), and a browser reads a picked file as text in one line.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });
const BASE = '/api/admin/ad-costs';
/** A report's text as JSON (escaped quotes and tabs grow it a little), with room for the envelope. */
const IMPORT_BODY_LIMIT = Math.ceil(MAX_AD_COST_CSV * 1.25) + 64 * 1024;

export function createAdCostsRouter() {
  return router({
    import: adminProcedure
      .meta(restAt('POST', BASE, { bodyLimit: IMPORT_BODY_LIMIT }))
      .input(adCostImportSchema)
      .output(adCostImportAnswerSchema)
      .mutation(({ ctx, input }) => importAdCosts(ctx.services.db.pool, input, actorOf(ctx))),
    list: adminProcedure
      .meta(restAt('GET', BASE))
      .input(adCostListQuerySchema)
      .output(adCostRowsSchema)
      .query(({ ctx, input }) => listAdCosts(ctx.services.db.pool, input)),
    remove: adminProcedure
      .meta(restAt('DELETE', BASE, { inQuery: true }))
      .input(adCostDeleteSchema)
      .output(adCostsDeletedSchema)
      .mutation(({ ctx, input }) => deleteAdCosts(ctx.services.db.pool, input, actorOf(ctx))),
  });
}

const error = (description: string) => ({ description, schema: ref('Error') });
const platforms = Object.values(AD_COST_PLATFORMS)
  .map((p) => `${p.name} → \`${p.source}\``)
  .join(', ');

const GOOGLE_REPORT = [
  'Campaign report',
  '"November 1, 2026 - November 2, 2026"',
  'Day,Campaign,Currency code,Cost',
  '2026-11-01,Brand - Exact,USD,"1,204.50"',
  '2026-11-02,Brand - Exact,USD,980.15',
  'Total: Account,--,USD,"2,184.65"',
].join('\n');

/** The OpenAPI words of the ad cost procedures (spread into the document's table). */
export const AD_COST_OPERATION_DOCS: Record<string, OperationDoc> = {
  'admin.adCosts.import': {
    tag: 'Admin',
    summary: 'Import ad cost: rows, or a platform’s campaign report',
    description: `Either \`rows\` ({date, source, campaign, cost in dollars, currency}) or \`csv\`: the text of a campaign report by day as the platform exports it (comma- or tab-separated), recognised by its header line — Google Ads (Day, Campaign, Cost), Microsoft Advertising (TimePeriod, CampaignName, Spend; 11/3/2026 dates too) or Meta Ads Manager (Reporting starts, Reporting ends, Campaign name, Amount spent (USD)). The lines above the header, totals lines and footers are left out. A file's costs are filed under the source the platform's clicks are tagged with: ${platforms}. Importing a day again replaces that day's cost for its source and campaign (campaign names compared without regard to case), so a report can be re-imported whole. Costs must be in ${AD_COST_CURRENCY} (a report's Currency code column, or Meta's "(USD)"): a row in another currency is skipped with the reason, as is a Meta row covering more than one day. Days are the platform's report days, taken as days of the business time zone (TIME_ZONE): set the ad accounts to the same zone. Recorded in the audit log.`,
    input: { example: { csv: GOOGLE_REPORT } },
    responses: {
      '200': { description: 'How many day rows were new, how many replaced a day, and the rows skipped' },
      '400': error(
        'A bad row field (`fieldErrors` names it, e.g. rows.0.cost), or a file that cannot be read: the message and `details.line` say which line and why',
      ),
    },
  },
  'admin.adCosts.list': {
    tag: 'Admin',
    summary: 'Ad cost by day, source and campaign',
    description: 'Every imported day row from `from` to `to` (inclusive), with their sum.',
    responses: { '200': { description: 'The rows' }, '400': error('A bad date') },
  },
  'admin.adCosts.remove': {
    tag: 'Admin',
    summary: 'Delete ad cost',
    description:
      'The day rows of one source from `from` to `to`, of one campaign (`campaign`, compared without regard to case) or of all. Parameters in the query string. Recorded in the audit log.',
    responses: {
      '200': { description: 'How many day rows were deleted' },
      '400': error('A bad date or source'),
    },
  },
};
