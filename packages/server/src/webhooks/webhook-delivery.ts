import { type Attribution, LEAD_CLICK_ID_FIELDS, UTM_KEYS } from '@uf/shared/attribution';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { ApiLead } from '../db/entities/api-lead.entity';
import { ConsentReceipt } from '../db/entities/consent-receipt.entity';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { columnsOf, jsonObjectSql } from '../db/entity-columns';
import type { LookupAll } from '../platform/outbound-address';
import { type SendResult, sendOnce } from '../platform/outbound-request';
import { inTransaction } from '../platform/pg-transaction';
import { signatureHeader } from './webhook-signing';

// One attempt of one webhook delivery (issue 24, ADR 062), run by the job queue. A delivery's id is the
// `webhook-id` of all its attempts. The body is `{type, timestamp, data}`, where `timestamp` is when the
// event happened (the delivery's creation) and the `webhook-timestamp` header is when this attempt was
// signed. A lead's data is read when the attempt runs, so nothing personal is copied into the queue, and
// a lead erased before its delivery is never sent.

/** An attempt gives up after this long (Standard Webhooks: 2xx within 15 s). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Bytes of the receiver's answer kept in the log; the rest is never read. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** A delivery whose attempt started longer ago than this is taken to have lost its runner (crash). */
export const ATTEMPT_LEASE_SECONDS = 30;
/** An endpoint failing this long is disabled. */
export const DISABLE_AFTER_FAILING_DAYS = 5;

export type DeliveryOptions = {
  allowPrivateUrls: boolean;
  /** Seconds before each retry after the first attempt. */
  retrySchedule: readonly number[];
  timeoutMs?: number;
  onError?(err: unknown): void;
  /** Aborted when the process stops: an attempt still waiting for its answer ends at once. */
  signal?: AbortSignal;
  /** An endpoint was just disabled (410, failing for days): tell the admins. Must not throw. */
  onEndpointDisabled?(endpoint: { url: string; reason: string }): Promise<unknown> | undefined;
};

/** Where a lead's visit came from, as its messages say it: the captured attribution and the landing page. */
function leadAttribution(attribution: Attribution | null, pageUrl: string | null) {
  const a: Attribution = attribution ?? {};
  const out: Record<string, string | null> = {};
  for (const key of UTM_KEYS) out[key.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())] = a[key] ?? null;
  out.referrer = a.landingReferrer ?? null;
  out.landingUrl = pageUrl;
  for (const key of LEAD_CLICK_ID_FIELDS) out[key] = a[key] ?? null;
  return out;
}

const WEBSITE = columnsOf(WebsiteLead);
const API = columnsOf(ApiLead);
const RECEIPT = columnsOf(ConsentReceipt);

// The `data` of a lead's messages, built by PostgreSQL from the entities' columns (ADR 064), in the
// message's key order; a website lead's attribution is added when the message is sent.
const WEBSITE_DATA = jsonObjectSql(WEBSITE, 'l', [
  'id',
  ['leadType', { sql: "'website'::text" }],
  'firstName',
  'lastName',
  'email',
  'phone',
  'streetAddress',
  'zipCode',
  'state',
  'birthMonth',
  'birthDay',
  'birthYear',
  'beneficiary',
  'createdAt',
  // Issue 48: the landing experiment (by name) and arm (by key) the lead's page was served in.
  [
    'experiment',
    {
      sql: `coalesce((select e.name from experiment e where e.id = l.${WEBSITE.columns.experimentId.name}), l.${WEBSITE.columns.experimentId.name}::text)`,
    },
  ],
  ['arm', 'experimentArm'],
  [
    'consent',
    {
      // The evidence of the lead's consent: its receipt and the disclosure it agreed to.
      sql: jsonObjectSql(RECEIPT, 'r', [
        ['given', 'consentGiven'],
        ['text', { sql: 't.body' }],
        ['textVersion', 'consentTextVersion'],
        ['at', 'createdAt'],
        'ipAddress',
        'userAgent',
        'pageUrl',
        ['receiptId', 'id'],
        'trustedFormUrl',
      ]),
    },
  ],
]);
const API_DATA = jsonObjectSql(API, 'a', [
  'id',
  ['leadType', { sql: "'api'::text" }],
  'firstName',
  'lastName',
  'phone',
  'streetAddress',
  'city',
  'state',
  'birthMonth',
  'birthDay',
  'birthYear',
  'beneficiary',
  'createdAt',
  ['experiment', { sql: 'null::text' }],
  ['arm', { sql: 'null::text' }],
  ['consent', { sql: jsonObjectSql(API, 'a', ['trustedFormUrl']) }],
  ['attribution', { sql: 'null' }],
]);

// Claims the delivery (state pending, no attempt running or its lease expired) and reads what the
// attempt needs in the same round trip: the endpoint, and the lead when the message carries one.
const CLAIM_SQL = `
  with c as (
    update webhook_delivery d set attempt_started_at = now(), updated_at = now()
    from webhook_endpoint e
    where d.id = $1 and e.id = d.endpoint_id and d.state = 'pending'
      and (d.attempt_started_at is null or d.attempt_started_at < now() - make_interval(secs => $2))
    returning d.id, d.endpoint_id, d.event, d.lead_kind, d.lead_id, d.data, d.attempts, d.created_at,
      e.url, e.enabled, e.secret, case when e.previous_secret_until > now() then e.previous_secret end as previous_secret
  )
  select c.*,
    case when c.data is null and c.lead_kind = 'website' then (
      select json_build_object('data', ${WEBSITE_DATA}, 'attribution', l.${WEBSITE.columns.attribution.name},
        'pageUrl', r.${RECEIPT.columns.pageUrl.name})
      from website_lead l
      left join consent_receipt r on r.lead_id = l.id
      left join consent_text t on t.hash = r.consent_text_hash
      where l.id = c.lead_id)
    when c.data is null and c.lead_kind = 'api' then (
      select json_build_object('data', ${API_DATA}) from api_lead a where a.id = c.lead_id)
    end as lead
  from c`;

/** A lead as the claim reads it: its message's `data`, and for a website lead what its attribution is made of. */
type ClaimedLead = {
  data: Record<string, unknown>;
  attribution?: Attribution | null;
  pageUrl?: string | null;
};

type Claimed = {
  id: string;
  endpoint_id: string;
  event: string;
  lead_kind: string | null;
  lead_id: string | null;
  data: unknown;
  attempts: number;
  created_at: Date;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  lead: ClaimedLead | null;
};

export type { SendResult } from '../platform/outbound-request';

/** POSTs a webhook's JSON `body` once (platform/outbound-request.ts: no redirect, capped answer, timeout). */
export function postOnce(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivateUrls: boolean; timeoutMs: number; lookup?: LookupAll; signal?: AbortSignal },
): Promise<SendResult> {
  return sendOnce(
    { method: 'POST', url: rawUrl, headers: { ...headers, 'content-type': 'application/json' }, body },
    { ...options, excerptBytes: RESPONSE_EXCERPT_BYTES },
  );
}

type Outcome = 'delivered' | 'retrying' | 'failed';

const RECORD_SQL = `
  with a as (
    insert into webhook_attempt (delivery_id, started_at, duration_ms, status_code, response_excerpt, error, outcome)
    select $1, $2, $3, $4, $5, $6, $7 where $13
  ), d as (
    update webhook_delivery set
      state = case $7 when 'retrying' then 'pending' else $7 end,
      attempts = attempts + case when $13 then 1 else 0 end,
      next_attempt_at = $8, attempt_started_at = null, last_status = $4, last_error = $6,
      delivered_at = case when $7 = 'delivered' then now() end, updated_at = now()
    where id = $1
  )
  update webhook_endpoint set
    failing_since = case when $7 = 'delivered' then null else coalesce(failing_since, now()) end,
    enabled = enabled and not ($9 or coalesce(failing_since < now() - make_interval(days => $10) and $7 <> 'delivered', false)),
    disabled_reason = case
      when not enabled then disabled_reason
      when $9 then $11
      when failing_since < now() - make_interval(days => $10) and $7 <> 'delivered' then $12
      else disabled_reason end,
    updated_at = now()
  -- Only when something changes: every success writing its endpoint's row would queue all attempts to
  -- one endpoint on that row's lock, one commit after another.
  where id = $14 and $13 and (
    ($7 = 'delivered' and failing_since is not null)
    or ($7 <> 'delivered' and (failing_since is null or $9 or failing_since < now() - make_interval(days => $10))))
  returning enabled`;

/** Runs one attempt of delivery `id`; does nothing when it is not pending or another runner holds it. */
export async function runDeliveryAttempt(pool: Pool, id: string, options: DeliveryOptions): Promise<void> {
  const { rows } = await pool.query<Claimed>({
    name: 'webhook_claim',
    text: CLAIM_SQL,
    values: [id, ATTEMPT_LEASE_SECONDS],
  });
  const d = rows[0];
  if (!d) return;
  const started = new Date();
  const record = async (
    outcome: Outcome,
    result: SendResult | undefined,
    nextAt: Date | null,
    gone?: { reason: string },
  ) => {
    const wasAttempt = result !== undefined;
    const values = [
      d.id,
      started,
      result?.ms ?? 0,
      result?.status ?? null,
      result?.excerpt ?? null,
      result?.error ?? gone?.reason ?? null,
      outcome,
      nextAt,
      result?.status === 410,
      DISABLE_AFTER_FAILING_DAYS,
      'The receiver answered 410 Gone',
      `Failing for ${DISABLE_AFTER_FAILING_DAYS} days`,
      wasAttempt,
      d.endpoint_id,
    ];
    const write = (sql: Pick<Pool, 'query'>) =>
      sql.query<{ enabled: boolean }>({ name: 'webhook_record', text: RECORD_SQL, values });
    // A retry's job is queued in the transaction that records the failure: never one without the other.
    const { rows: ep } =
      outcome === 'retrying'
        ? await inTransaction(pool, [], async (client) => {
            const answer = await write(client);
            await client.query('select webhook_queue($1::uuid[])', [[d.id]]);
            return answer;
          })
        : await write(pool);
    if (wasAttempt && d.enabled && ep[0] && !ep[0].enabled) {
      // The admins are told: the audit log, and an e-mail to those who opted in to alerts (ADR 063).
      await recordAudit(pool, {
        actor: 'system',
        action: 'webhooks.disabled',
        detail: {
          id: d.endpoint_id,
          url: d.url,
          status: result?.status ?? null,
          error: result?.error ?? null,
        },
      });
      await options.onEndpointDisabled?.({
        url: d.url,
        reason:
          result?.status === 410
            ? 'The receiver answered 410 Gone'
            : `Its deliveries have failed for ${DISABLE_AFTER_FAILING_DAYS} days`,
      });
    }
  };

  if (!d.enabled) return record('failed', undefined, null, { reason: 'The endpoint is disabled' });
  let data: unknown = d.data;
  if (data == null) {
    if (!d.lead) return record('failed', undefined, null, { reason: 'The lead no longer exists' });
    const { data: lead, attribution, pageUrl } = d.lead;
    data =
      d.lead_kind === 'api'
        ? lead
        : { ...lead, attribution: leadAttribution(attribution ?? null, pageUrl ?? null) };
  }
  const body = JSON.stringify({ type: d.event, timestamp: new Date(d.created_at).toISOString(), data });
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = d.previous_secret ? [d.secret, d.previous_secret] : [d.secret];
  const result = await postOnce(
    d.url,
    body,
    {
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, d.id, timestamp, body),
      'user-agent': 'unclaimed-funds-webhooks/1',
    },
    {
      allowPrivateUrls: options.allowPrivateUrls,
      timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      signal: options.signal,
    },
  );
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  if (ok) return record('delivered', result, null);
  const delay = options.retrySchedule[d.attempts];
  if (result.status === 410 || delay === undefined) return record('failed', result, null);
  return record('retrying', result, new Date(Date.now() + delay * 1000));
}
