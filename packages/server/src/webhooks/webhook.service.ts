import { ERROR_CODES } from '@uf/shared/errors';
import {
  type DeliveryState,
  WEBHOOK_TEST_EVENT,
  type WebhookCreateInput,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookFilters,
  type WebhookUpdateInput,
} from '@uf/shared/webhook.schema';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import type { SummarySectionSource } from '../email/email-reports.service';
import { AppError } from '../errors';
import type { Actor } from '../leads/admin-leads.service';
import { outboundUrlProblem } from '../platform/outbound-address';
import { inTransaction } from '../platform/pg-transaction';
import { newWebhookSecret } from './webhook-signing';

// Webhook endpoints and their delivery log (issue 24, ADR 062): what the admin API does. Sending is
// webhook-delivery.ts, run by the job queue (webhook-worker.ts).

/** How long the previous secret keeps signing beside the new one after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  filters: WebhookFilters;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
};

const ENDPOINT_COLUMNS =
  'id, url, description, events, filters, enabled, disabled_reason, failing_since, previous_secret_until, created_at, updated_at';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function viewOf(r: EndpointRow): WebhookEndpointView {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEndpointView['events'],
    filters: r.filters,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    failingSince: iso(r.failing_since),
    previousSecretUntil:
      r.previous_secret_until && r.previous_secret_until > new Date() ? iso(r.previous_secret_until) : null,
    createdAt: iso(r.created_at) as string,
    updatedAt: iso(r.updated_at) as string,
  };
}

function checkUrl(url: string, allowPrivate: boolean) {
  const problem = outboundUrlProblem(url, allowPrivate);
  if (problem) throw new AppError(ERROR_CODES.validation, problem, [{ field: 'url', message: problem }]);
}

/** Only the filters that say something (an empty list would match nothing, so it means "no filter"). */
function cleanFilters(filters: WebhookFilters | undefined): WebhookFilters {
  const out: WebhookFilters = {};
  if (filters?.states?.length) out.states = [...new Set(filters.states)];
  if (filters?.leadTypes?.length) out.leadTypes = [...new Set(filters.leadTypes)];
  if (filters?.utmSources?.length) out.utmSources = [...new Set(filters.utmSources)];
  return out;
}

const notFound = () => new AppError(ERROR_CODES.notFound, 'Webhook endpoint not found');

export async function listEndpoints(pool: Pool): Promise<WebhookEndpointView[]> {
  const { rows } = await pool.query<EndpointRow>(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoint order by created_at, id`,
  );
  return rows.map(viewOf);
}

export async function createEndpoint(
  pool: Pool,
  input: WebhookCreateInput,
  options: { allowPrivateUrls: boolean; actor: Actor },
): Promise<WebhookEndpointView & { secret: string }> {
  checkUrl(input.url, options.allowPrivateUrls);
  const secret = newWebhookSecret();
  const { rows } = await pool.query<EndpointRow>(
    `insert into webhook_endpoint (id, url, description, events, filters, secret)
     values (gen_random_uuid(), $1, $2, $3, $4, $5) returning ${ENDPOINT_COLUMNS}`,
    [input.url, input.description || null, [...new Set(input.events)], cleanFilters(input.filters), secret],
  );
  const endpoint = viewOf(rows[0] as EndpointRow);
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'webhooks.create',
    detail: { id: endpoint.id, url: endpoint.url, events: endpoint.events },
    ipAddress: options.actor.ipAddress,
  });
  return { ...endpoint, secret };
}

export async function updateEndpoint(
  pool: Pool,
  input: WebhookUpdateInput,
  options: { allowPrivateUrls: boolean; actor: Actor },
): Promise<WebhookEndpointView> {
  if (input.url !== undefined) checkUrl(input.url, options.allowPrivateUrls);
  const { rows } = await pool.query<EndpointRow>(
    `update webhook_endpoint set
       url = coalesce($2, url),
       events = coalesce($3, events),
       description = case when $4 then $5 else description end,
       filters = coalesce($6, filters),
       enabled = coalesce($7, enabled),
       -- Enabling again starts afresh: no reason, no failing streak.
       disabled_reason = case when $7 is true then null when $7 is false then 'Disabled by an admin' else disabled_reason end,
       failing_since = case when $7 is true then null else failing_since end,
       updated_at = now()
     where id = $1 returning ${ENDPOINT_COLUMNS}`,
    [
      input.id,
      input.url ?? null,
      input.events ? [...new Set(input.events)] : null,
      input.description !== undefined,
      input.description || null,
      input.filters ? cleanFilters(input.filters) : null,
      input.enabled ?? null,
    ],
  );
  if (!rows[0]) throw notFound();
  const { id: _id, ...changed } = input;
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'webhooks.update',
    detail: { id: input.id, changed: Object.keys(changed) },
    ipAddress: options.actor.ipAddress,
  });
  return viewOf(rows[0]);
}

export async function deleteEndpoint(pool: Pool, id: string, actor: Actor) {
  // Its deliveries and their attempts go with it (on delete cascade); their waiting jobs find nothing.
  const { rowCount } = await pool.query('delete from webhook_endpoint where id = $1', [id]);
  if (!rowCount) throw notFound();
  await recordAudit(pool, {
    actor: actor.username,
    action: 'webhooks.delete',
    detail: { id },
    ipAddress: actor.ipAddress,
  });
  return { id, deleted: true as const };
}

/** A new secret; the old one keeps signing beside it for ROTATION_OVERLAP_HOURS. */
export async function rotateSecret(pool: Pool, id: string, actor: Actor) {
  const secret = newWebhookSecret();
  const { rows } = await pool.query<EndpointRow>(
    `update webhook_endpoint set previous_secret = secret, secret = $2,
       previous_secret_until = now() + make_interval(hours => $3), updated_at = now()
     where id = $1 returning ${ENDPOINT_COLUMNS}`,
    [id, secret, ROTATION_OVERLAP_HOURS],
  );
  if (!rows[0]) throw notFound();
  await recordAudit(pool, {
    actor: actor.username,
    action: 'webhooks.rotate_secret',
    detail: { id },
    ipAddress: actor.ipAddress,
  });
  return { ...viewOf(rows[0]), secret };
}

/** Queues a `webhook.test` message to the endpoint (enabled or not: a test is how one checks it). */
export async function sendTest(pool: Pool, id: string) {
  return inTransaction(pool, [], async (client) => {
    const { rows } = await client.query<{ id: string; enabled: boolean }>(
      'select id, enabled from webhook_endpoint where id = $1',
      [id],
    );
    if (!rows[0]) throw notFound();
    if (!rows[0].enabled) {
      throw new AppError(ERROR_CODES.conflict, 'The endpoint is disabled: enable it before sending a test.');
    }
    const deliveryId = crypto.randomUUID();
    await client.query(
      `insert into webhook_delivery (id, endpoint_id, event, data, next_attempt_at)
       values ($1, $2, $3, $4, now())`,
      [
        deliveryId,
        id,
        WEBHOOK_TEST_EVENT,
        { endpointId: id, message: 'This is a test message: your endpoint receives signed webhooks.' },
      ],
    );
    await client.query('select webhook_queue($1::uuid[])', [[deliveryId]]);
    return { deliveryId };
  });
}

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event: string;
  lead_id: string | null;
  lead_kind: string | null;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  attempt_log: {
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    response_excerpt: string | null;
    error: string | null;
    outcome: 'delivered' | 'retrying' | 'failed';
  }[];
};

const DELIVERY_SELECT = `
  select d.id, d.endpoint_id, d.event, d.lead_id, d.lead_kind, d.state, d.attempts, d.next_attempt_at,
    d.last_status, d.last_error, d.delivered_at, d.created_at,
    coalesce((select json_agg(a order by a.started_at) from (
      select started_at, duration_ms, status_code, response_excerpt, error, outcome
      from webhook_attempt where delivery_id = d.id) a), '[]'::json) as attempt_log
  from webhook_delivery d`;

function deliveryView(r: DeliveryRow): WebhookDeliveryView {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    event: r.event,
    leadId: r.lead_id,
    leadType: r.lead_kind,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.state === 'pending' ? iso(r.next_attempt_at) : null,
    lastStatus: r.last_status,
    lastError: r.last_error,
    deliveredAt: iso(r.delivered_at),
    createdAt: iso(r.created_at) as string,
    attemptLog: r.attempt_log.map((a) => ({
      startedAt: new Date(a.started_at).toISOString(),
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      responseExcerpt: a.response_excerpt,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}

/** The endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(
  pool: Pool,
  input: { id: string; state?: DeliveryState; limit?: number },
): Promise<WebhookDeliveryView[]> {
  const exists = await pool.query('select 1 from webhook_endpoint where id = $1', [input.id]);
  if (!exists.rowCount) throw notFound();
  const { rows } = await pool.query<DeliveryRow>(
    `${DELIVERY_SELECT} where d.endpoint_id = $1 and ($2::text is null or d.state = $2)
     order by d.created_at desc, d.id limit $3`,
    [input.id, input.state ?? null, input.limit ?? 100],
  );
  return rows.map(deliveryView);
}

/** Where a lead went: every delivery of its messages, to every endpoint. */
export async function leadDeliveries(pool: Pool, leadId: string) {
  const { rows } = await pool.query<DeliveryRow & { url: string }>(
    `select x.*, e.url from (${DELIVERY_SELECT} where d.lead_id = $1) x
     join webhook_endpoint e on e.id = x.endpoint_id order by x.created_at, x.id`,
    [leadId],
  );
  return rows.map((r) => ({ ...deliveryView(r), endpointUrl: r.url }));
}

/**
 * Sends deliveries again from the first attempt, with the same webhook-id (receivers dedupe on it).
 * Deliveries with an attempt running are left alone.
 */
async function resend(pool: Pool, endpointId: string, where: string, params: unknown[]) {
  return inTransaction(pool, [], async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `update webhook_delivery d set state = 'pending', attempts = 0, next_attempt_at = now(),
         delivered_at = null, updated_at = now()
       where d.endpoint_id = $1 and ${where}
         and not (d.state = 'pending' and d.attempt_started_at > now() - interval '30 seconds')
       returning d.id`,
      [endpointId, ...params],
    );
    const ids = rows.map((r) => r.id);
    if (ids.length) await client.query('select webhook_queue($1::uuid[])', [ids]);
    return ids;
  });
}

export async function resendDelivery(pool: Pool, endpointId: string, deliveryId: string, actor: Actor) {
  const ids = await resend(pool, endpointId, 'd.id = $2', [deliveryId]);
  if (ids.length === 0) {
    const found = await pool.query('select 1 from webhook_delivery where id = $1 and endpoint_id = $2', [
      deliveryId,
      endpointId,
    ]);
    if (!found.rowCount) throw new AppError(ERROR_CODES.notFound, 'Delivery not found');
    throw new AppError(
      ERROR_CODES.conflict,
      'An attempt of this delivery is running; try again in a moment.',
    );
  }
  await recordAudit(pool, {
    actor: actor.username,
    action: 'webhooks.resend',
    detail: { id: endpointId, deliveries: ids },
    ipAddress: actor.ipAddress,
  });
  return { requeued: ids.length };
}

export async function resendFailed(pool: Pool, endpointId: string, since: string, actor: Actor) {
  const exists = await pool.query('select 1 from webhook_endpoint where id = $1', [endpointId]);
  if (!exists.rowCount) throw notFound();
  const ids = await resend(pool, endpointId, `d.state = 'failed' and d.created_at >= $2`, [since]);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'webhooks.resend',
    detail: { id: endpointId, failedSince: since, count: ids.length },
    ipAddress: actor.ipAddress,
  });
  return { requeued: ids.length };
}

/** The e-mail summaries' webhook section (ADR 063): deliveries that failed for good in the period. */
export const failedDeliveriesSection: SummarySectionSource = async (pool, { from, to }) => {
  const { rows } = await pool.query<{ failed: number; endpoints: number }>(
    `select count(*)::int as failed, count(distinct endpoint_id)::int as endpoints from webhook_delivery
     where state = 'failed' and updated_at >= $1 and updated_at < $2`,
    [from, to],
  );
  const r = rows[0] ?? { failed: 0, endpoints: 0 };
  return {
    title: 'Webhook deliveries',
    rows: [
      { label: 'Failed', value: r.failed.toLocaleString('en-US') },
      { label: 'Endpoints with failures', value: r.endpoints.toLocaleString('en-US') },
    ],
  };
};
