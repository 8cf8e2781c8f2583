import {
  AD_ADJUSTMENT_EXPORTS,
  AD_CONVERSION_EXPORTS,
  AD_PLATFORMS,
  type AdPlatform,
} from '@uf/shared/ad-conversions';
import { backupNameSchema } from '@uf/shared/admin.schema';
import {
  adAdjustmentsQuerySchema,
  adConversionsQuerySchema,
  apiLeadFiltersSchema,
  apiLeadListSchema,
  websiteLeadFiltersSchema,
  websiteLeadListSchema,
} from '@uf/shared/admin-leads.schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { z } from 'zod';
import { openBackup } from '../backups/backup-files.service';
import {
  type ConversionExport,
  exportAdAdjustments,
  exportAdConversions,
} from '../leads/ad-conversions.service';
import type { ConversionSettings } from '../leads/ad-conversions-csv';
import { API_LEADS, type LeadTable, WEBSITE_LEADS } from '../leads/admin-lead-tables';
import { listLeads, streamLeadsJson } from '../leads/admin-leads.service';
import { exportLeadsCsv } from '../leads/lead-export.service';
import { requireAdmin, type SignedInAdmin } from '../plugins/admin-guard';
import { clientIp } from '../trpc/request-meta';
import { replyWithError } from './rest-adapter';

// The admin paths whose answer is a stream, not one value (ADR 003's documented exception): they are
// plain Fastify routes that check the session the way adminProcedure does and call the same services.
//
// GET /api/admin/leads and /api/admin/api-leads answer the spec's array. Without page/pageSize it is
// every matching lead, streamed from a cursor; with them, one page, and X-Total-Count has the total.

type ListSchema = typeof websiteLeadListSchema | typeof apiLeadListSchema;
type FilterSchema = typeof websiteLeadFiltersSchema | typeof apiLeadFiltersSchema;
type Route = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type Handler = (req: FastifyRequest, reply: FastifyReply, admin: SignedInAdmin) => Promise<unknown>;

export type AdminStreamRoutesOptions = {
  pool: Pool;
  timeZone: string;
  backupDir: string;
  /** ADS_CONVERSION_NAME / _VALUE / _CURRENCY. */
  adsConversion: ConversionSettings;
};

function guarded(handler: Handler): Route {
  return async (req, reply) => {
    try {
      return await handler(req, reply, await requireAdmin(req));
    } catch (err) {
      return replyWithError(req, reply, err);
    }
  };
}

export async function adminStreamRoutes(app: FastifyInstance, opts: AdminStreamRoutesOptions) {
  const list =
    (table: LeadTable, schema: ListSchema): Handler =>
    async (req, reply) => {
      const { page, pageSize, sort, order, ...filters } = schema.parse(req.query) as z.output<ListSchema>;
      const options = { filters, sort, order, timeZone: opts.timeZone };
      if (page === undefined && pageSize === undefined) {
        return reply.type('application/json; charset=utf-8').send(streamLeadsJson(opts.pool, table, options));
      }
      const result = await listLeads(opts.pool, table, { ...options, page, pageSize });
      return reply.header('x-total-count', String(result.total)).send(result.items);
    };

  const exportCsv =
    (table: LeadTable, schema: FilterSchema): Handler =>
    async (req, reply, admin) => {
      const filters = schema.parse(req.query);
      const { fileName, stream } = await exportLeadsCsv(opts.pool, table, {
        filters,
        timeZone: opts.timeZone,
        actor: { username: admin.username, ipAddress: clientIp(req) },
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    };

  const sendConversionsFile = (reply: FastifyReply, { fileName, stream }: ConversionExport) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(stream);

  // Offline conversions for an ad platform (issue 24, ADR 059): its import file for a range of days.
  const exportConversions =
    (platform: AdPlatform): Handler =>
    async (req, reply, admin) => {
      const query = adConversionsQuerySchema.parse(req.query);
      const file = await exportAdConversions(opts.pool, platform, {
        query,
        timeZone: opts.timeZone,
        settings: opts.adsConversion,
        actor: { username: admin.username, ipAddress: clientIp(req) },
      });
      return sendConversionsFile(reply, file);
    };

  // The returns of a range of days as the platform's retractions (issue 35; Microsoft's: issue 47).
  const exportAdjustments =
    (platform: AdPlatform): Handler =>
    async (req, reply, admin) => {
      const query = adAdjustmentsQuerySchema.parse(req.query);
      const file = await exportAdAdjustments(opts.pool, platform, {
        query,
        timeZone: opts.timeZone,
        settings: opts.adsConversion,
        actor: { username: admin.username, ipAddress: clientIp(req) },
      });
      return sendConversionsFile(reply, file);
    };

  // A backup file as a download (issue 26): 404 for anything that is not a backup in BACKUP_DIR.
  app.get(
    '/api/admin/backups/:name',
    guarded(async (req, reply, admin) => {
      const { name } = backupNameSchema.parse(req.params);
      const { stream, sizeBytes } = await openBackup(opts.pool, opts.backupDir, name, {
        username: admin.username,
        ipAddress: clientIp(req),
      });
      return reply
        .type('application/octet-stream')
        .header('content-length', String(sizeBytes))
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(stream);
    }),
  );

  app.get('/api/admin/leads', guarded(list(WEBSITE_LEADS, websiteLeadListSchema)));
  app.get('/api/admin/api-leads', guarded(list(API_LEADS, apiLeadListSchema)));
  app.get('/api/admin/export', guarded(exportCsv(WEBSITE_LEADS, websiteLeadFiltersSchema)));
  app.get('/api/admin/export-api-leads', guarded(exportCsv(API_LEADS, apiLeadFiltersSchema)));
  for (const platform of AD_PLATFORMS) {
    app.get(AD_CONVERSION_EXPORTS[platform].path, guarded(exportConversions(platform)));
    app.get(AD_ADJUSTMENT_EXPORTS[platform].path, guarded(exportAdjustments(platform)));
  }
}
