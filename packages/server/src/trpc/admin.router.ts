import { backupDeletedSchema, backupFilesSchema, backupWrittenSchema } from '@uf/shared/admin.output';
import { backupNameSchema } from '@uf/shared/admin.schema';
import { type AdminApiLead, type AdminWebsiteLead, MAX_BULK_DELETE } from '@uf/shared/admin-leads';
import {
  apiLeadDetailSchema,
  apiLeadStatsSchema,
  auditEntriesSchema,
  leadDeletedSchema,
  leadsDeletedSchema,
  websiteLeadDetailSchema,
  websiteLeadStatsSchema,
} from '@uf/shared/admin-leads.output';
import {
  apiDeleteMatchingSchema,
  apiLeadListSchema,
  auditLogQuerySchema,
  bulkDeleteSchema,
  websiteDeleteMatchingSchema,
  websiteLeadListSchema,
} from '@uf/shared/admin-leads.schema';
import { leadIdSchema } from '@uf/shared/lead.schema';
import type { z } from 'zod';
import { listAudit } from '../admin/audit.service';
import { backupDatabase } from '../backups/backup.service';
import { deleteBackup, listBackups } from '../backups/backup-files.service';
import { API_LEADS, type LeadTable, WEBSITE_LEADS } from '../leads/admin-lead-tables';
import {
  apiLeadStats,
  deleteLead,
  deleteLeads,
  deleteMatchingLeads,
  getLead,
  listLeadAudit,
  listLeads,
  websiteLeadStats,
} from '../leads/admin-leads.service';
import { createAdCostsRouter } from './ad-costs.router';
import { createBuyersRouter } from './buyers.router';
import type { Context } from './context';
import { createExperimentsRouter } from './experiments.router';
import { createQualityRouter, verdictProcedures } from './quality.router';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';
import { createWebhooksRouter } from './webhooks.router';

// Admin dashboard calls (spec §7). Procedures unpack the context and call one service each.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });

/** One page of a lead table with its total: filters, sort and paging come from the list schema. */
function listProcedure<Row, Schema extends typeof websiteLeadListSchema | typeof apiLeadListSchema>(
  schema: Schema,
  table: LeadTable,
) {
  return adminProcedure.input(schema).query(({ ctx, input }) => {
    const { page, pageSize, sort, order, ...filters } = input;
    return listLeads<Row>(ctx.services.db.pool, table, {
      filters,
      sort,
      order,
      page,
      pageSize,
      timeZone: ctx.config.timeZone,
    });
  });
}

// A bulk delete of MAX_BULK_DELETE ids is ≈ 8 MB of JSON; everything else keeps the small default.
const BULK_DELETE_BODY_LIMIT = 40 * MAX_BULK_DELETE + 1024;

/** A lead's own page (issue 26): the lead whole (answered as `detail` says), and the audit entries that concern it. */
function leadPageProcedures<Detail extends z.ZodType>(table: LeadTable, base: string, detail: Detail) {
  return {
    get: adminProcedure
      .meta(restAt('GET', `${base}/:id`))
      .input(leadIdSchema)
      .output(detail)
      // getLead's row type is whatever its caller names (its SQL builds the row from the table); tRPC parses
      // the row with `detail`, and its types cannot follow a generic schema here (as in mutationOf).
      .query(({ ctx, input }) => getLead<never>(ctx.services.db.pool, table, input.id)),
    auditLog: adminProcedure
      .meta(restAt('GET', `${base}/:id/audit-log`))
      .input(leadIdSchema)
      .output(auditEntriesSchema)
      .query(({ ctx, input }) => listLeadAudit(ctx.services.db.pool, table, input.id)),
  };
}

function deleteProcedures(
  table: LeadTable,
  matchingSchema: typeof websiteDeleteMatchingSchema | typeof apiDeleteMatchingSchema,
  /** `/api/admin/leads` or `/api/admin/api-leads` */
  base: string,
) {
  return {
    /** "Select all N matching" (issue 26): every lead the filters match, in batches. */
    removeMatching: adminProcedure
      .meta(restAt('DELETE', `${base}/matching`))
      .input(matchingSchema)
      .output(leadsDeletedSchema)
      .mutation(({ ctx, input }) =>
        deleteMatchingLeads(ctx.services.db.pool, table, {
          filters: input.filters,
          expectedCount: input.expectedCount,
          timeZone: ctx.config.timeZone,
          actor: actorOf(ctx),
        }),
      ),
    remove: adminProcedure
      .meta(restAt('DELETE', `${base}/:id`))
      .input(leadIdSchema)
      .output(leadDeletedSchema)
      .mutation(({ ctx, input }) => deleteLead(ctx.services.db.pool, table, input.id, actorOf(ctx))),
    bulkRemove: adminProcedure
      .meta(restAt('DELETE', base, { bodyLimit: BULK_DELETE_BODY_LIMIT }))
      .input(bulkDeleteSchema)
      .output(leadsDeletedSchema)
      .mutation(({ ctx, input }) => deleteLeads(ctx.services.db.pool, table, input.ids, actorOf(ctx))),
  };
}

export function createAdminRouter() {
  return router({
    leads: router({
      list: listProcedure<AdminWebsiteLead, typeof websiteLeadListSchema>(
        websiteLeadListSchema,
        WEBSITE_LEADS,
      ),
      stats: adminProcedure
        .meta(restAt('GET', '/api/admin/stats'))
        .output(websiteLeadStatsSchema)
        .query(({ ctx }) => websiteLeadStats(ctx.services.db.pool, WEBSITE_LEADS, ctx.config.timeZone)),
      ...leadPageProcedures(WEBSITE_LEADS, '/api/admin/leads', websiteLeadDetailSchema),
      ...deleteProcedures(WEBSITE_LEADS, websiteDeleteMatchingSchema, '/api/admin/leads'),
      ...verdictProcedures(WEBSITE_LEADS, '/api/admin/leads'),
    }),
    apiLeads: router({
      list: listProcedure<AdminApiLead, typeof apiLeadListSchema>(apiLeadListSchema, API_LEADS),
      stats: adminProcedure
        .meta(restAt('GET', '/api/admin/api-stats'))
        .output(apiLeadStatsSchema)
        .query(({ ctx }) => apiLeadStats(ctx.services.db.pool, API_LEADS, ctx.config.timeZone)),
      ...leadPageProcedures(API_LEADS, '/api/admin/api-leads', apiLeadDetailSchema),
      ...deleteProcedures(API_LEADS, apiDeleteMatchingSchema, '/api/admin/api-leads'),
      ...verdictProcedures(API_LEADS, '/api/admin/api-leads'),
    }),
    quality: createQualityRouter(),
    backup: adminProcedure
      .meta(restAt('POST', '/api/admin/backup'))
      .output(backupWrittenSchema)
      .mutation(({ ctx }) =>
        backupDatabase(
          ctx.services.db.pool,
          ctx.services.backupSource,
          ctx.config.backupDir,
          actorOf(ctx),
          ctx.config.backupKeep,
        ),
      ),
    // The files in BACKUP_DIR (issue 26); the download streams (rest/admin-stream-routes.ts).
    backups: router({
      list: adminProcedure
        .meta(restAt('GET', '/api/admin/backups'))
        .output(backupFilesSchema)
        .query(({ ctx }) => listBackups(ctx.config.backupDir)),
      remove: adminProcedure
        .meta(restAt('DELETE', '/api/admin/backups/:name'))
        .input(backupNameSchema)
        .output(backupDeletedSchema)
        .mutation(({ ctx, input }) =>
          deleteBackup(ctx.services.db.pool, ctx.config.backupDir, input.name, actorOf(ctx)),
        ),
    }),
    auditLog: adminProcedure
      .meta(restAt('GET', '/api/admin/audit-log'))
      .input(auditLogQuerySchema)
      .output(auditEntriesSchema)
      .query(({ ctx, input }) => listAudit(ctx.services.db.pool, input)),
    webhooks: createWebhooksRouter(),
    buyers: createBuyersRouter(),
    adCosts: createAdCostsRouter(),
    experiments: createExperimentsRouter(),
  });
}
