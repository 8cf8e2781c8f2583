import * as z from 'zod/mini';
import { US_STATE_CODES } from './state-sites';
import { DELIVERY_STATES, WEBHOOK_EVENTS, WEBHOOK_LEAD_TYPES } from './webhooks';

export * from './webhooks';

// Webhook endpoints (issue 24, ADR 062): what an admin may send to create or change one (zod/mini, as the
// other shared schemas; the admin screen imports only ./webhooks, zod-free). The URL's reachability rules (https,
// public address) depend on the server's configuration and are checked by the server.

const urlField = z
  .string({ error: 'url is required' })
  .check(z.trim(), z.minLength(1, 'url is required'), z.maxLength(2000, 'url is too long'));

const eventsField = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `events: unknown event (known: ${WEBHOOK_EVENTS.join(', ')})` }), {
    error: 'events must be a list of event names',
  })
  .check(z.minLength(1, 'events: choose at least one event'));

const stateField = z.enum(US_STATE_CODES as unknown as [string, ...string[]], {
  error: 'filters.states: unknown state (two-letter US state code)',
});

export const webhookFiltersSchema = z.object({
  states: z.optional(z.array(stateField).check(z.maxLength(60))),
  leadTypes: z.optional(
    z
      .array(z.enum(WEBHOOK_LEAD_TYPES, { error: "filters.leadTypes: 'website' or 'api'" }))
      .check(z.maxLength(2)),
  ),
  utmSources: z.optional(
    z
      .array(
        z
          .string()
          .check(
            z.trim(),
            z.toLowerCase(),
            z.minLength(1, 'filters.utmSources: empty source'),
            z.maxLength(100),
          ),
      )
      .check(z.maxLength(100)),
  ),
});
export type WebhookFilters = z.infer<typeof webhookFiltersSchema>;

const descriptionField = z.optional(
  z.nullable(z.string().check(z.trim(), z.maxLength(500, 'description is too long'))),
);

export const webhookCreateSchema = z.object({
  url: urlField,
  events: eventsField,
  description: descriptionField,
  filters: z.optional(webhookFiltersSchema),
});
export type WebhookCreateInput = z.infer<typeof webhookCreateSchema>;

const endpointId = z.uuid({ error: 'id must be a UUID' });

export const webhookIdSchema = z.object({ id: endpointId });

export const webhookUpdateSchema = z.object({
  id: endpointId,
  url: z.optional(urlField),
  events: z.optional(eventsField),
  description: descriptionField,
  filters: z.optional(webhookFiltersSchema),
  enabled: z.optional(z.boolean({ error: 'enabled must be true or false' })),
});
export type WebhookUpdateInput = z.infer<typeof webhookUpdateSchema>;

export const webhookDeliveriesQuerySchema = z.object({
  id: endpointId,
  state: z.optional(z.enum(DELIVERY_STATES, { error: "state: 'delivered', 'pending' or 'failed'" })),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500))),
});

export const webhookResendSchema = z.object({
  id: endpointId,
  deliveryId: z.uuid({ error: 'deliveryId must be a UUID' }),
});

export const webhookResendFailedSchema = z.object({
  id: endpointId,
  since: z.iso.datetime({ error: 'since must be an ISO 8601 date-time', offset: true }),
});

export const leadDeliveriesSchema = z.object({ id: z.uuid({ error: 'id must be a UUID' }) });
