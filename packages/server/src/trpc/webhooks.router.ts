import {
  leadWebhookDeliveriesSchema,
  webhookDeletedSchema,
  webhookDeliveriesSchema,
  webhookEndpointSchema,
  webhookEndpointsSchema,
  webhookEndpointWithSecretSchema,
  webhookRequeuedSchema,
  webhookTestQueuedSchema,
} from '@uf/shared/webhook.output';
import {
  leadDeliveriesSchema,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookIdSchema,
  webhookResendFailedSchema,
  webhookResendSchema,
  webhookUpdateSchema,
} from '@uf/shared/webhook.schema';
import {
  createEndpoint,
  deleteEndpoint,
  leadDeliveries,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  resendFailed,
  rotateSecret,
  sendTest,
  updateEndpoint,
} from '../webhooks/webhook.service';
import type { Context } from './context';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';

// Webhook endpoints and their delivery log (issue 24, ADR 062): the admin API, one service call each.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });
const BASE = '/api/admin/webhooks';

export function createWebhooksRouter() {
  return router({
    list: adminProcedure
      .meta(restAt('GET', BASE))
      .output(webhookEndpointsSchema)
      .query(({ ctx }) => listEndpoints(ctx.services.db.pool)),
    create: adminProcedure
      .meta(restAt('POST', BASE, { status: 201 }))
      .input(webhookCreateSchema)
      .output(webhookEndpointWithSecretSchema)
      .mutation(({ ctx, input }) =>
        createEndpoint(ctx.services.db.pool, input, {
          allowPrivateUrls: ctx.config.webhooksAllowPrivateUrls,
          actor: actorOf(ctx),
        }),
      ),
    update: adminProcedure
      .meta(restAt('PATCH', `${BASE}/:id`))
      .input(webhookUpdateSchema)
      .output(webhookEndpointSchema)
      .mutation(({ ctx, input }) =>
        updateEndpoint(ctx.services.db.pool, input, {
          allowPrivateUrls: ctx.config.webhooksAllowPrivateUrls,
          actor: actorOf(ctx),
        }),
      ),
    remove: adminProcedure
      .meta(restAt('DELETE', `${BASE}/:id`))
      .input(webhookIdSchema)
      .output(webhookDeletedSchema)
      .mutation(({ ctx, input }) => deleteEndpoint(ctx.services.db.pool, input.id, actorOf(ctx))),
    rotateSecret: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/rotate-secret`))
      .input(webhookIdSchema)
      .output(webhookEndpointWithSecretSchema)
      .mutation(({ ctx, input }) => rotateSecret(ctx.services.db.pool, input.id, actorOf(ctx))),
    test: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/test`, { status: 202 }))
      .input(webhookIdSchema)
      .output(webhookTestQueuedSchema)
      .mutation(({ ctx, input }) => sendTest(ctx.services.db.pool, input.id)),
    deliveries: adminProcedure
      .meta(restAt('GET', `${BASE}/:id/deliveries`))
      .input(webhookDeliveriesQuerySchema)
      .output(webhookDeliveriesSchema)
      .query(({ ctx, input }) => listDeliveries(ctx.services.db.pool, input)),
    resend: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/deliveries/:deliveryId/resend`, { status: 202 }))
      .input(webhookResendSchema)
      .output(webhookRequeuedSchema)
      .mutation(({ ctx, input }) =>
        resendDelivery(ctx.services.db.pool, input.id, input.deliveryId, actorOf(ctx)),
      ),
    resendFailed: adminProcedure
      .meta(restAt('POST', `${BASE}/:id/deliveries/resend-failed`, { status: 202 }))
      .input(webhookResendFailedSchema)
      .output(webhookRequeuedSchema)
      .mutation(({ ctx, input }) => resendFailed(ctx.services.db.pool, input.id, input.since, actorOf(ctx))),
    /** Where a lead (website or partner) went: its deliveries to every endpoint. */
    leadDeliveries: adminProcedure
      .meta(restAt('GET', '/api/admin/leads/:id/deliveries'))
      .input(leadDeliveriesSchema)
      .output(leadWebhookDeliveriesSchema)
      .query(({ ctx, input }) => leadDeliveries(ctx.services.db.pool, input.id)),
  });
}
