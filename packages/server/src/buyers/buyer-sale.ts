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
import { centsOf } from '@uf/shared/money';
import { rulesProblem } from '@uf/shared/rule-patterns';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import type { Mailer } from '../email/mailer';
import { sendOnce } from '../platform/outbound-request';
import { type LeadForSale, loadLeadForSale, type OfferedLead } from './buyer-lead';
import { type BuiltRequest, buildRequest, emailLines, maskRequest } from './buyer-request';
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
  /** Whole cents (bigint, as pg gives it: text). */
  price_cents: string;
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
  /**
   * Resolves when a post may start: while the process is busy serving, posts to buyers start at the pace
   * webhook attempts do (ADR 062, "The write path's share"), each post counting as one attempt.
   */
  admit?: () => Promise<void> | undefined;
  /** A buyer was just paused for its errors: tell the admins. Must not throw. */
  onBuyerPaused?(buyer: { id: string; name: string; reason: string }): Promise<unknown> | undefined;
};

/** Seconds a run holds a lead beyond its current post's timeout: another run waits that long. */
const LEASE_MARGIN_SECONDS = 30;

// Claims the lead's sale (pending, no run holding it), records the posts a crash interrupted as errors
// with their caps released, and reads the buyers not yet offered the lead, in waterfall order: one round
// trip. (A lead has at most one post in flight: its waterfall is sequential.)
const START_SQL = `
  with c as (
    update lead_sale set claimed_until = now() + make_interval(secs => $2), updated_at = now()
    where lead_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())
    returning lead_id
  ), i as (
    update sale_attempt set outcome = 'error', reason = 'interrupted: the server stopped before the answer was recorded'
    where lead_id = $1 and outcome = 'sending' and not test and exists (select 1 from c)
    returning buyer_id, cap_keys, reserved_cents
  ), r as (
    update buyer_cap_usage u set leads = u.leads - 1, amount_cents = u.amount_cents - i.reserved_cents
    from i where u.buyer_id = i.buyer_id and u.period_key = any(i.cap_keys)
  )
  select exists (select 1 from c) as claimed,
    coalesce((select json_agg(b order by b.priority, b.created_at, b.id) from (
      select b.id, b.name, b.status, b.priority, b.price_cents, b.config, b.consecutive_errors, b.created_at from buyer b
      where not exists (select 1 from sale_attempt s where s.lead_id = $1 and s.buyer_id = b.id and not s.test)
    ) b where exists (select 1 from c)), '[]'::json) as buyers`;

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
  /** The price the buyer named, whole cents. */
  priceCents: number | null;
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
  // Rules saved before ADR 072 that RE2 cannot run could not read the answer: the lead is not sent (the
  // buyer might take it and we could not tell), and the error counts towards pausing the buyer.
  const unrunnable = rulesProblem(buyer.config.responseRules);
  if (unrunnable) {
    return {
      outcome: 'error',
      reason: `not sent: ${unrunnable}; edit the buyer's response rules`,
      priceCents: null,
      reference: null,
      status: null,
      response: null,
      latencyMs: 0,
      request: null,
    };
  }
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
    priceCents: null,
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
    priceCents: parsed.priceCents,
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
  const pairs = emailLines(fields, lead);
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
    priceCents: null,
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

/**
 * Runs the waterfall for lead `leadId` (the `buyer_sell` job). Does nothing when the lead's sale is not
 * pending or another run holds it.
 */
export async function sellLead(pool: Pool, leadId: string, options: SaleOptions): Promise<void> {
  const { rows: started } = await pool.query<{ claimed: boolean; buyers: BuyerRow[] }>({
    name: 'sale_start',
    text: START_SQL,
    values: [leadId, LEASE_MARGIN_SECONDS],
  });
  if (!started[0]?.claimed) return;
  const sale = await loadLeadForSale(pool, leadId, options.clock());
  if (!sale?.sellable) {
    await pool.query(
      `update lead_sale set status = 'not_for_sale', claimed_until = null, updated_at = now() where lead_id = $1`,
      [leadId],
    );
    return;
  }
  // Skips are written with the next step's statement (or the last one's).
  let skips: { buyer: string; reason: SkipReason }[] = [];
  const flushSkips = () => {
    const out = [skips.map((x) => x.buyer), skips.map((x) => x.reason)];
    skips = [];
    return out;
  };
  for (const buyer of started[0].buyers) {
    if (options.signal?.aborted) return;
    const at = options.clock();
    const skip = skipReason(buyer, sale, at);
    if (skip) {
      skips.push({ buyer: buyer.id, reason: skip });
      continue;
    }
    const keys = capKeys(buyer.config.caps, at, buyerZone(buyer, options.timeZone));
    const keyList = keys.map((k) => k.key);
    const priceCents = Number(buyer.price_cents);
    const timeoutMs =
      buyer.config.delivery.kind === 'http'
        ? (buyer.config.delivery.timeoutMs ?? DEFAULT_BUYER_TIMEOUT_MS)
        : 30_000;
    const attemptId = crypto.randomUUID();
    const [skipBuyers, skipReasons] = flushSkips();
    const { rows } = await pool.query<{ full: string | null }>({
      name: 'sale_begin',
      text: 'select sale_begin($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) as full',
      values: [
        leadId,
        sale.kind,
        skipBuyers,
        skipReasons,
        attemptId,
        buyer.id,
        at,
        keyList,
        keys.map((k) => k.cap.leads ?? null),
        keys.map((k) => (k.cap.amount === undefined ? null : centsOf(k.cap.amount))),
        priceCents,
        Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS,
      ],
    });
    const fullKey = rows[0]?.full ?? null;
    if (fullKey) {
      const period = keys.find((k) => k.key === fullKey)?.cap.period ?? 'day';
      skips.push({ buyer: buyer.id, reason: `cap_${period}` as SkipReason });
      continue;
    }
    await options.admit?.();
    const result = await postToBuyer(buyer, sale.lead, options);
    // Cut short at a stop: the attempt stays `sending`, and the next run records it as interrupted.
    if (options.signal?.aborted && result.outcome !== 'accepted') return;
    const sold = result.outcome === 'accepted';
    const max = buyer.config.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
    const pausedReason = `${max} errors or timeouts in a row`;
    const { rows: finished } = await pool.query<{ paused: boolean }>({
      name: 'sale_finish',
      text: 'select sale_finish($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) as paused',
      values: [
        attemptId,
        leadId,
        buyer.id,
        result.outcome,
        result.reason,
        sold ? (result.priceCents ?? priceCents) : result.priceCents,
        result.reference,
        result.latencyMs,
        result.request,
        result.status,
        result.response,
        keyList,
        priceCents,
        options.clock(),
        max,
        pausedReason,
      ],
    });
    if (finished[0]?.paused) {
      await recordAudit(pool, {
        actor: 'system',
        action: 'buyers.paused',
        detail: { id: buyer.id, name: buyer.name, reason: pausedReason },
      });
      await options.onBuyerPaused?.({ id: buyer.id, name: buyer.name, reason: pausedReason });
    }
    if (sold) return;
  }
  const [skipBuyers, skipReasons] = flushSkips();
  await pool.query({
    name: 'sale_unsold',
    text: 'select sale_unsold($1, $2, $3, $4, $5)',
    values: [leadId, sale.kind, skipBuyers, skipReasons, options.clock()],
  });
}

function skipReason(buyer: BuyerRow, sale: LeadForSale, at: Date): SkipReason | undefined {
  if (buyer.status !== 'active') return 'paused';
  return filterMiss(buyer.config.filters, sale) ?? (isOpen(buyer.config.schedule, at) ? undefined : 'closed');
}
