import { defineEntity, p } from '@mikro-orm/core';

// Webhook endpoints, deliveries and attempts (issue 24, ADR 062). The app reads and writes them with SQL
// (webhook.service.ts, webhook-delivery.ts and the webhook_enqueue() function the lead statements call);
// the entities describe the tables for the ORM's schema tools.

export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  properties: {
    id: p.uuid().primary(),
    url: p.text(),
    description: p.text().nullable(),
    events: p.array(),
    filters: p.json<Record<string, string[]>>(),
    enabled: p.boolean().default(true),
    secret: p.text().hidden(),
    previousSecret: p.text().nullable().hidden(),
    previousSecretUntil: p.datetime().nullable(),
    failingSince: p.datetime().nullable(),
    disabledReason: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});

export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  properties: {
    /** The `webhook-id` of every attempt. */
    id: p.uuid().primary(),
    endpointId: p.uuid(),
    event: p.text(),
    leadKind: p.text().nullable(),
    leadId: p.uuid().nullable(),
    /** The message's data when it is not read from the lead at send time (tests, opt-outs, deletions). */
    data: p.json<Record<string, unknown>>().nullable(),
    state: p.text().default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    attemptStartedAt: p.datetime().nullable(),
    lastStatus: p.integer().nullable(),
    lastError: p.text().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});

export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  properties: {
    id: p.bigint().primary().autoincrement(),
    deliveryId: p.uuid(),
    startedAt: p.datetime(),
    durationMs: p.integer(),
    statusCode: p.integer().nullable(),
    responseExcerpt: p.text().nullable(),
    error: p.text().nullable(),
    outcome: p.text(),
  },
});
