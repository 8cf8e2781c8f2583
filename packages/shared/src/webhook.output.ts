import { z } from 'zod';
import { count, dateTime, flag, nullableText, text, uuid } from './output-fields';
import { webhookFiltersSchema } from './webhook.schema';
import { DELIVERY_STATES, WEBHOOK_EVENTS } from './webhooks';

// What the webhook admin operations answer (issue 23: their procedures' `.output()`). The view types of
// ./webhooks.ts (zod-free, for the web) must satisfy these.

export const webhookEndpointSchema = z.object({
  id: uuid(),
  url: text(),
  description: nullableText(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  // The filters as they were accepted (the create/update schema's own).
  filters: webhookFiltersSchema,
  enabled: flag(),
  disabledReason: nullableText('Why it was disabled (410, failing for 5 days, an admin)'),
  failingSince: nullableText('Start of the current run of failed attempts'),
  previousSecretUntil: nullableText('Until when the previous secret still signs (24 h after a rotation)'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export const webhookEndpointsSchema = z.array(webhookEndpointSchema);
/** Right after create or rotate: the only answers that carry the secret. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: text('whsec_…: shown only in this answer'),
});
export const webhookDeletedSchema = z.object({ id: text(), deleted: z.literal(true) });
export const webhookTestQueuedSchema = z.object({ deliveryId: uuid() });
export const webhookRequeuedSchema = z.object({ requeued: count() });

export const webhookDeliverySchema = z.object({
  id: uuid('The webhook-id of every attempt'),
  endpointId: uuid(),
  event: text(),
  leadId: nullableText(),
  leadType: nullableText(),
  state: z.enum(DELIVERY_STATES),
  attempts: count(),
  nextAttemptAt: nullableText(),
  lastStatus: z.int().nullable(),
  lastError: nullableText(),
  deliveredAt: nullableText(),
  createdAt: dateTime(),
  attemptLog: z.array(
    z.object({
      startedAt: dateTime(),
      durationMs: count(),
      statusCode: z.int().nullable(),
      responseExcerpt: nullableText('First 1 KB of the answer'),
      error: nullableText(),
      outcome: z.enum(['delivered', 'retrying', 'failed']),
    }),
  ),
});
export const webhookDeliveriesSchema = z.array(webhookDeliverySchema);
export const leadWebhookDeliveriesSchema = z.array(webhookDeliverySchema.extend({ endpointUrl: text() }));
