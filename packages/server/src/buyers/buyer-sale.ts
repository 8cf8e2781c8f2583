import {
  BUYER_RESPONSE_EXCERPT_BYTES,
  type BuyerCap,
  type BuyerConfig,
  type BuyerFilters,
  CAP_PERIODS,
  DEFAULT_BUYER_TIMEOUT_MS,
  DEFAULT_MAX_CONSECUTIVE_ERRORS,
  type SaleOutcome,
  type SkipReason,
} from '@uf/shared/buyers';
import type { Pool } from 'pg';
import type { Mailer } from '../email/mailer';
import { sendOnce } from '../platform/outbound-request';
import { inTransaction } from '../platform/pg-transaction';
import { type LeadForSale, loadLeadForSale, type OfferedLead } from './buyer-lead';
import { type BuiltRequest, buildRequest, maskRequest } from './buyer-request';
import { evaluateRules } from './buyer-response';
import { capPeriodKey, isOpen } from './buyer-schedule';

// Selling one lead (issue 34, ADR 069): the exclusive waterfall. The active buyers are offered the lead in
// priority order; each is skipped with a reason code when it is paused, its filters do not match, it is
// closed in its own time zone or a cap is full; otherwise its caps are reserved (one statement, counters
// locked in a fixed order) together with a `sending` attempt, the lead is posted, and the answer's outcome
// recorded — the caps released unless the buyer accepted. The first acceptance sells the lead; rejected,
// duplicate, error and timeout go on to the next buyer, never back to one already offered it (the unique
// (lead, buyer) attempt). A crash mid-post leaves a `sending` attempt: the next run of the lead's job marks
// it `error` (interrupted), releases its caps and goes on with the buyers not yet offered the lead.

/** A buyer as the sale reads it. */
export type BuyerRow = {
  id: string;
  name: string;
  status: 'active' | 'paused';
  priority: number;
  price: string;
  config: Omit<BuyerConfig, 'name' | 'status' | 'priority' | 'price'>;
  consecutive_errors: number;
};

export type SaleOptions = {
  allowPrivateUrls: boolean;
  /** The business time zone: caps of a buyer without a schedule count its days there. */
  timeZone: string;
  clock: () => Date;
  mailer?: Mailer;
  signal?: AbortSignal;
  /** A buyer was just paused for its errors: tell the admins. Must not throw. */
  onBuyerPaused?(buyer: { id: string; name: string; reason: string }): Promise<unknown> | undefined;
};

/** Seconds a run holds a lead beyond its current post's timeout: another run waits that long. */
const LEASE_MARGIN_SECONDS = 30;

const CLAIM_SQL = `
  update lead_sale set claimed_until = now() + make_interval(secs => $2), updated_at = now()
  where lead_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())
  returning lead_kind`;

// The posts a crash interrupted: recorded as errors, their caps released.
const INTERRUPTED_SQL = `
  with i as (
    update sale_attempt set outcome = 'error', reason = 'interrupted: the server stopped before the answer was recorded'
    where lead_id = $1 and outcome = 'sending' and not test
    returning buyer_id, cap_keys, reserved
  ), r as (
    update buyer_cap_usage u set leads = u.leads - 1, amount = u.amount - i.reserved
    from i where u.buyer_id = i.buyer_id and u.period_key = any(i.cap_keys)
  )
  select count(*)::int as n from i`;

const BUYERS_SQL = `
  select b.id, b.name, b.status, b.priority, b.price, b.config, b.consecutive_errors from buyer b
  where not exists (select 1 from sale_attempt s where s.lead_id = $1 and s.buyer_id = b.id and not s.test)
  order by b.priority, b.created_at, b.id`;

/** Why the lead does not suit the buyer's filters, or undefined when it does. */
export function filterMiss(filters: BuyerFilters | undefined, sale: LeadForSale): SkipReason | undefined {
  if (!filters) return undefined;
  if (filters.states?.length && !(sale.lead.state && filters.states.includes(sale.lead.state))) {
    return 'filter_state';
  }
  if (filters.minAge !== undefined || filters.maxAge !== undefined) {
    const age = sale.ageYears;
    if (age === null) return 'filter_age';
    if (filters.minAge !== undefined && age < filters.minAge) return 'filter_age';
    if (filters.maxAge !== undefined && age > filters.maxAge) return 'filter_age';
  }
  if (filters.leadTypes?.length && !filters.leadTypes.includes(sale.kind)) return 'filter_lead_type';
  if (filters.sources?.length && !filters.sources.includes(sale.source)) return 'filter_source';
  return undefined;
}

/** The caps' counters for `at`, in a fixed order (period order): the order reservations lock them in. */
export function capKeys(caps: BuyerCap[] | undefined, at: Date, timeZone: string) {
  const sorted = [...(caps ?? [])].sort(
    (a, b) => CAP_PERIODS.indexOf(a.period) - CAP_PERIODS.indexOf(b.period),
  );
  return sorted.map((c) => ({ cap: c, key: capPeriodKey(c.period, at, timeZone) }));
}

export const buyerZone = (buyer: Pick<BuyerRow, 'config'>, fallback: string) =>
  buyer.config.schedule?.timeZone ?? fallback;

export type PostResult = {
  outcome: SaleOutcome;
  reason: string | null;
  price: number | null;
  reference: string | null;
  status: number | null;
  response: string | null;
  latencyMs: number;
  /** What was sent, secrets masked (null for e-mail). */
  request: BuiltRequest | null;
};

/** Posts `lead` to the buyer once and reads the outcome from its answer by the buyer's rules. */
export async function postToBuyer(
  buyer: Pick<BuyerRow, 'config'>,
  lead: OfferedLead,
  options: Pick<SaleOptions, 'allowPrivateUrls' | 'mailer' | 'signal'> & { test?: boolean },
): Promise<PostResult> {
  const delivery = buyer.config.delivery;
  if (delivery.kind === 'email') return emailToBuyer(delivery.to, buyer.config.fields, lead, options);
  const request = buildRequest(delivery, buyer.config.fields, lead, { test: options.test });
  const logged = maskRequest(request, delivery);
  const result = await sendOnce(request, {
    allowPrivateUrls: options.allowPrivateUrls,
    timeoutMs: delivery.timeoutMs ?? DEFAULT_BUYER_TIMEOUT_MS,
    excerptBytes: BUYER_RESPONSE_EXCERPT_BYTES,
    signal: options.signal,
  });
  const base = {
    status: result.status ?? null,
    response: result.excerpt ?? null,
    latencyMs: result.ms,
    request: logged,
    price: null,
    reference: null,
  };
  if (result.status === undefined) {
    return { ...base, outcome: result.timedOut ? 'timeout' : 'error', reason: result.error ?? 'no answer' };
  }
  const parsed = evaluateRules(buyer.config.responseRules, {
    status: result.status,
    body: result.excerpt ?? '',
  });
  return {
    ...base,
    outcome: parsed.outcome,
    reason: parsed.reason,
    price: parsed.price,
    reference: parsed.reference,
  };
}

/** An e-mail buyer: the mapped fields as a plain-text message; accepted once the mail server took it. */
async function emailToBuyer(
  to: string[],
  fields: BuyerConfig['fields'],
  lead: OfferedLead,
  options: Pick<SaleOptions, 'mailer'> & { test?: boolean },
): Promise<PostResult> {
  const started = performance.now();
  const lines = buildRequest(
    { kind: 'http', method: 'POST', url: 'https://mail.invalid/', encoding: 'form' },
    fields,
    lead,
  );
  const pairs = [...new URLSearchParams(lines.body ?? '').entries()].map(([k, v]) => `${k}: ${v}`);
  const subject = `${options.test ? '[TEST] ' : ''}New lead ${lead.leadId}`;
  const text = [`A lead for you${options.test ? ' (a test, not a real person)' : ''}:`, '', ...pairs].join(
    '\n',
  );
  const request: BuiltRequest = {
    method: 'EMAIL' as 'POST',
    url: `mailto:${to.join(',')}`,
    headers: {},
    body: text,
  };
  const done = (outcome: SaleOutcome, reason: string | null) => ({
    outcome,
    reason,
    price: null,
    reference: null,
    status: null,
    response: null,
    latencyMs: Math.round(performance.now() - started),
    request,
  });
  if (!options.mailer?.configured)
    return done('error', 'E-mail is not configured on this server (SMTP_URL).');
  try {
    const html = `<pre>${escapeHtml(text)}</pre>`;
    for (const address of to) await options.mailer.send(address, { subject, text, html });
    return done('accepted', null);
  } catch (err) {
    return done('error', (err as Error).message);
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const money = (n: number) => Math.round(n * 100) / 100;

/**
 * Runs the waterfall for lead `leadId` (the `buyer_sell` job). Does nothing when the lead's sale is not
 * pending or another run holds it.
 */
export async function sellLead(pool: Pool, leadId: string, options: SaleOptions): Promise<void> {
  const claimed = await pool.query(CLAIM_SQL, [leadId, LEASE_MARGIN_SECONDS + 60]);
  if (!claimed.rowCount) return;
  await pool.query(INTERRUPTED_SQL, [leadId]);
  const now = options.clock();
  const sale = await loadLeadForSale(pool, leadId, now);
  if (!sale?.sellable) {
    await pool.query(
      `update lead_sale set status = 'not_for_sale', claimed_until = null, updated_at = now() where lead_id = $1`,
      [leadId],
    );
    return;
  }
  const { rows: buyers } = await pool.query<BuyerRow>(BUYERS_SQL, [leadId]);
  for (const buyer of buyers) {
    if (options.signal?.aborted) return;
    const at = options.clock();
    const skip = skipReason(buyer, sale, at);
    if (skip) {
      await recordSkip(pool, buyer.id, sale, skip);
      continue;
    }
    const zone = buyerZone(buyer, options.timeZone);
    const keys = capKeys(buyer.config.caps, at, zone);
    const price = Number(buyer.price);
    const timeoutMs =
      buyer.config.delivery.kind === 'http'
        ? (buyer.config.delivery.timeoutMs ?? DEFAULT_BUYER_TIMEOUT_MS)
        : 30_000;
    const attemptId = crypto.randomUUID();
    // The caps and the `sending` attempt together: a crash leaves no reservation without its attempt.
    const full = await inTransaction(pool, [], async (client) => {
      const { rows } = await client.query<{ full: string | null }>(
        'select buyer_reserve($1, $2::text[], $3::integer[], $4::numeric[], $5::numeric) as full',
        [
          buyer.id,
          keys.map((k) => k.key),
          keys.map((k) => k.cap.leads ?? null),
          keys.map((k) => k.cap.amount ?? null),
          price,
        ],
      );
      const fullKey = rows[0]?.full ?? null;
      if (fullKey) return keys.find((k) => k.key === fullKey)?.cap.period ?? 'day';
      await client.query(
        `insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, cap_keys, reserved)
         values ($1, $2, $3, $4, $5, 'sending', $6, $7)`,
        [attemptId, buyer.id, leadId, sale.kind, at, keys.map((k) => k.key), price],
      );
      await client.query(
        'update lead_sale set claimed_until = now() + make_interval(secs => $2) where lead_id = $1',
        [leadId, Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS],
      );
      return undefined;
    });
    if (full) {
      await recordSkip(pool, buyer.id, sale, `cap_${full}` as SkipReason);
      continue;
    }
    const result = await postToBuyer(buyer, sale.lead, options);
    if (options.signal?.aborted && result.outcome !== 'accepted') return;
    const sold = result.outcome === 'accepted';
    const soldPrice = sold ? money(result.price ?? price) : null;
    const paused = await inTransaction(pool, [], async (client) => {
      await client.query(
        `update sale_attempt set outcome = $2, reason = $3, price = $4, reference = $5, latency_ms = $6,
           request = $7, status = $8, response = $9
         where id = $1`,
        [
          attemptId,
          result.outcome,
          result.reason,
          soldPrice,
          result.reference,
          result.latencyMs,
          result.request,
          result.status,
          result.response,
        ],
      );
      // Released unless accepted; an accepted sale's amount counts its real price.
      await client.query(
        `update buyer_cap_usage set leads = leads - case when $3 then 0 else 1 end,
           amount = amount - $4::numeric + coalesce($5::numeric, 0)
         where buyer_id = $1 and period_key = any($2)`,
        [buyer.id, keys.map((k) => k.key), sold, price, soldPrice],
      );
      if (sold) {
        await client.query(
          `update lead_sale set status = 'sold', buyer_id = $2, price = $3, sold_at = $4, claimed_until = null,
             updated_at = now() where lead_id = $1`,
          [leadId, buyer.id, soldPrice, options.clock()],
        );
      }
      return buyerHealth(client, buyer, result.outcome);
    });
    if (paused) {
      await options.onBuyerPaused?.({ id: buyer.id, name: buyer.name, reason: paused });
    }
    if (sold) return;
  }
  await pool.query(
    `update lead_sale set status = 'unsold', claimed_until = null, updated_at = now()
     where lead_id = $1 and status = 'pending'`,
    [leadId],
  );
}

function skipReason(buyer: BuyerRow, sale: LeadForSale, at: Date): SkipReason | undefined {
  if (buyer.status !== 'active') return 'paused';
  return filterMiss(buyer.config.filters, sale) ?? (isOpen(buyer.config.schedule, at) ? undefined : 'closed');
}

async function recordSkip(pool: Pool, buyerId: string, sale: LeadForSale, reason: SkipReason) {
  await pool.query(
    `insert into sale_attempt (id, buyer_id, lead_id, lead_kind, outcome, reason)
     values (gen_random_uuid(), $1, $2, $3, 'skipped', $4) on conflict do nothing`,
    [buyerId, sale.lead.leadId, sale.kind, reason],
  );
}

/**
 * The buyer's error streak after an outcome: errors and timeouts in a row pause it at its
 * maxConsecutiveErrors (the reason is returned then); any answer the rules understood ends the streak.
 */
async function buyerHealth(
  client: Pick<Pool, 'query'>,
  buyer: BuyerRow,
  outcome: SaleOutcome,
): Promise<string | undefined> {
  const failed = outcome === 'error' || outcome === 'timeout';
  const max = buyer.config.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
  const reason = `${max} errors or timeouts in a row`;
  const { rows } = await client.query<{ paused: boolean }>(
    `update buyer set
       consecutive_errors = case when $2 then consecutive_errors + 1 else 0 end,
       idle_since = case when $4 then now() else idle_since end,
       status = case when $2 and consecutive_errors + 1 >= $3 then 'paused' else status end,
       paused_reason = case when $2 and consecutive_errors + 1 >= $3 and status = 'active' then $5 else paused_reason end,
       updated_at = now()
     where id = $1
     returning $2 and consecutive_errors = $3 as paused`,
    [buyer.id, failed, max, outcome === 'accepted', reason],
  );
  return rows[0]?.paused ? reason : undefined;
}
