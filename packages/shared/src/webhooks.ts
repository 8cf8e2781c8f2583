// Webhooks (issue 24, ADR 062): the names and the answers' shapes, without zod, so the admin screen can
// use them without the schemas (which are the server's and the API's).

/** What an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = [
  'lead.created',
  'lead.beneficiary_updated',
  'api_lead.created',
  'lead.opted_out',
  'lead.deleted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The message POST …/test sends; not subscribable. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_LEAD_TYPES = ['website', 'api'] as const;
export type WebhookLeadType = (typeof WEBHOOK_LEAD_TYPES)[number];
export const DELIVERY_STATES = ['delivered', 'pending', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** An endpoint as the API answers it (never its secret, except once after create or rotate). */
export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  filters: { states?: string[]; leadTypes?: WebhookLeadType[]; utmSources?: string[] };
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** Until when the previous secret still signs beside the current one (24 h after a rotation). */
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
};

export type WebhookAttemptView = {
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'failed';
};

export type WebhookDeliveryView = {
  id: string;
  endpointId: string;
  event: string;
  leadId: string | null;
  leadType: string | null;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog: WebhookAttemptView[];
};
