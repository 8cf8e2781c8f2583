import { dataRequestSchema } from '@uf/shared/data-request.schema';
import { leadIdSchema } from '@uf/shared/lead.schema';
import {
  consentReceiptSchema,
  personalDataDeletedSchema,
  personalDataExportSchema,
  personalDataLookupSchema,
  unsubscribedSchema,
} from '@uf/shared/privacy.output';
import { createUnsubscribeSchema } from '@uf/shared/unsubscribe.schema';
import { getConsentReceipt } from '../privacy/consent.service';
import { deletePersonalData, exportPersonalData, lookupPersonalData } from '../privacy/data-request.service';
import { unsubscribe } from '../privacy/suppression.service';
import { clientIp } from './request-meta';
import { adminProcedure, anonymousProcedure, restAt, router } from './trpc';

// Opt-outs, consent receipts and data subject requests.
export function createPrivacyRouter(supportEmail: string) {
  const actorOf = (ctx: { admin: { username: string }; req: Parameters<typeof clientIp>[0] }) => ({
    username: ctx.admin.username,
    ipAddress: clientIp(ctx.req),
  });
  return router({
    unsubscribe: anonymousProcedure
      .meta(restAt('POST', '/api/unsubscribe'))
      .input(createUnsubscribeSchema(supportEmail))
      .output(unsubscribedSchema)
      .mutation(({ ctx, input }) =>
        unsubscribe(ctx.services.db.pool, input.email, { ip: clientIp(ctx.req) }),
      ),
    consentReceipt: adminProcedure
      .meta(restAt('GET', '/api/admin/leads/:id/consent-receipt'))
      .input(leadIdSchema)
      .output(consentReceiptSchema)
      .query(({ ctx, input }) => getConsentReceipt(ctx.services.em(), input.id)),
    lookup: adminProcedure
      .meta(restAt('POST', '/api/admin/data-requests/lookup'))
      .input(dataRequestSchema)
      .output(personalDataLookupSchema)
      .mutation(({ ctx, input }) => lookupPersonalData(ctx.services.db.pool, input, actorOf(ctx))),
    export: adminProcedure
      .meta(restAt('POST', '/api/admin/data-requests/export'))
      .input(dataRequestSchema)
      .output(personalDataExportSchema)
      .mutation(({ ctx, input }) => exportPersonalData(ctx.services.db.pool, input, actorOf(ctx))),
    delete: adminProcedure
      .meta(restAt('DELETE', '/api/admin/data-requests'))
      .input(dataRequestSchema)
      .output(personalDataDeletedSchema)
      .mutation(({ ctx, input }) => deletePersonalData(ctx.services.db.pool, input, actorOf(ctx))),
  });
}
