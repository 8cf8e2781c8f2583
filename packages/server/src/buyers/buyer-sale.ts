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
// (lead, buyer) attempt). An outcome nobody knows (a cut answer; a crash mid-post leaves a `sending`
// attempt, which the lead's next run finds) is `unknown`: the caps stay reserved and the lead waits for an
// admin to settle it (buyer.service.ts settleLead).
//
// Pausing is immediate and auto-pause exact (issue 47): sale_begin() checks the buyer's status in the
// statement that reserves its caps, right before the post, and lets a post start only while the buyer's
// error streak plus its posts in flight stay under maxConsecutiveErrors. A lead that finds the buyer at
// that limit waits for a slot (its lease renewed by each ask) rather than moving down the waterfall.

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

// Claims the lead's sale (pending, no run holding it) and reads the buyers not yet offered the lead, in
// waterfall order: one round trip. A post a crash interrupted (a `sending` attempt: a lead has at most one
// in flight, its waterfall is sequential) may have reached the buyer, which may have taken the lead: it
// becomes `unknown` with its cap reservation kept, and the lead's sale `unknown` instead of claimed — it
// waits for an admin to settle it and is offered to no other buyer meanwhile (ADR 069, "Unknown outcomes").
const START_SQL = `
  with s as (
    select exists (select 1 from sale_attempt where lead_id = $1 and outcome = 'sending' and not test) as stuck
  ), c as (
    update lead_sale set status = case when s.stuck then 'unknown' else status end,
      claimed_until = case when s.stuck then null else now() + make_interval(secs => $2) end, updated_at = now()
    from s
    where lead_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())
    returning lead_id, s.stuck
  ), i as (
    update sale_attempt set outcome = 'unknown',
      reason = 'interrupted: the server stopped while the post was in flight; the buyer may have taken the lead'
    where lead_id = $1 and outcome = 'sending' and not test and exists (select 1 from c where c.stuck)
  )
  select exists (select 1 from c where not c.stuck) as claimed,
    coalesce((select json_agg(b order by b.priority, b.created_at, b.id) from (
      select b.id, b.name, b.status, b.priority, b.price_cents, b.config, b.consecutive_errors, b.created_at from buyer b
      where not exists (select 1 from sale_attempt s where s.lead_id = $1 and s.buyer_id = b.id and not s.test)
    ) b where exists (select 1 from c where not c.stuck)), '[]'::json) as buyers`;

/** How long a lead waits before asking again for a slot with a buyer whose posts in flight are at its limit. */
const BUSY_WAIT_MS = { first: 50, max: 500 };
/**
 * How long a lead waits for a slot inside its job before handing the job's slot back: it is queued again
 * (still pending, the busy buyer still next for it) BUSY_REQUEUE_SECONDS later, so leads waiting on a slow
 * buyer never hold the job queue's slots from webhook deliveries and other buyers' sales for long.
 */
const BUSY_HOLD_MS = 2_000;
const BUSY_REQUEUE_SECONDS = 1;

// Hands a waiting lead's run back to the queue: its claim released and a job for later, in one statement.
const REQUEUE_LATER_SQL = `
  with c as (
    update lead_sale set claimed_until = null, updated_at = now()
    where lead_id = $1 and status = 'pending' returning lead_id
  )
  select graphile_worker.add_job('buyer_sell', json_build_object('id', c.lead_id),
    run_at => now() + make_interval(secs => $2), max_attempts => 25) from c`;

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
  // Said in the reason of whatever outcome follows: the attempts log shows the retry.
  const retried = result.retried
    ? `sent again on a new connection (the reused one failed before any answer: ${result.retried})`
    : null;
  const withRetry = (reason: string | null) =>
    retried ? (reason ? `${reason}; ${retried}` : retried) : reason;
  if (result.cut) {
    // The buyer began to answer and the answer did not arrive whole: it may have taken the lead.
    return { ...base, outcome: 'unknown', reason: withRetry(result.error ?? 'the answer was cut') };
  }
  if (result.status === undefined) {
    return {
      ...base,
      outcome: result.timedOut ? 'timeout' : 'error',
      reason: withRetry(result.error ?? 'no answer'),
    };
  }
  // An answer longer than the excerpt is read from its first BUYER_RESPONSE_EXCERPT_BYTES: a status rule
  // still reads it, a JSON or XML rule finds no whole document there (error, with that reason).
  const parsed = evaluateRules(buyer.config.responseRules, {
    status: result.status,
    body: result.excerpt ?? '',
  });
  return {
    ...base,
    outcome: parsed.outcome,
    reason: withRetry(parsed.reason),
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
    const priceCents = Number(buyer.price_cents);
    const timeoutMs =
      buyer.config.delivery.kind === 'http'
        ? (buyer.config.delivery.timeoutMs ?? DEFAULT_BUYER_TIMEOUT_MS)
        : 30_000;
    const max = buyer.config.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS;
    const attemptId = crypto.randomUUID();
    // The pacer first: the buyer's status is read after it, in the statement that reserves the caps.
    await options.admit?.();
    let begun: { keys: ReturnType<typeof capKeys>; result: string | null };
    const waitingSince = performance.now();
    for (let wait = BUSY_WAIT_MS.first; ; wait = Math.min(wait * 2, BUSY_WAIT_MS.max)) {
      if (options.signal?.aborted) return;
      begun = await beginPost(pool, {
        leadId,
        kind: sale.kind,
        skips: flushSkips(),
        attemptId,
        buyer,
        at: options.clock(),
        timeZone: options.timeZone,
        priceCents,
        leaseSeconds: Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS,
        maxErrors: max,
      });
      if (begun.result !== BUSY) break;
      if (performance.now() - waitingSince > BUSY_HOLD_MS) {
        await pool.query({
          name: 'sale_requeue_later',
          text: REQUEUE_LATER_SQL,
          values: [leadId, BUSY_REQUEUE_SECONDS * (0.5 + Math.random())],
        });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random() / 2)));
    }
    const { keys, result: refused } = begun;
    const keyList = keys.map((k) => k.key);
    if (refused === PAUSED) {
      skips.push({ buyer: buyer.id, reason: 'paused' });
      continue;
    }
    if (refused) {
      const period = keys.find((k) => k.key === refused)?.cap.period ?? 'day';
      skips.push({ buyer: buyer.id, reason: `cap_${period}` as SkipReason });
      continue;
    }
    const result = await postToBuyer(buyer, sale.lead, options);
    // Cut short at a stop: the attempt stays `sending`, and the next run records it as unknown.
    if (options.signal?.aborted && result.outcome !== 'accepted') return;
    const sold = result.outcome === 'accepted';
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
    // Sold, or waiting for an admin to settle an unknown outcome: never offered on meanwhile.
    if (sold || result.outcome === 'unknown') return;
  }
  const [skipBuyers, skipReasons] = flushSkips();
  await pool.query({
    name: 'sale_unsold',
    text: 'select sale_unsold($1, $2, $3, $4, $5)',
    values: [leadId, sale.kind, skipBuyers, skipReasons, options.clock()],
  });
}

/** sale_begin()'s answers besides null (reserved) and a full cap's key. */
const PAUSED = '!paused';
const BUSY = '!busy';

/** Writes the skips so far and, unless the buyer is paused, busy or a cap full, reserves its caps. */
async function beginPost(
  pool: Pool,
  p: {
    leadId: string;
    kind: LeadForSale['kind'];
    skips: string[][];
    attemptId: string;
    buyer: BuyerRow;
    at: Date;
    timeZone: string;
    priceCents: number;
    leaseSeconds: number;
    maxErrors: number;
  },
) {
  // The periods are the post's own: a lead that waited for a slot may start in the next hour.
  const keys = capKeys(p.buyer.config.caps, p.at, buyerZone(p.buyer, p.timeZone));
  const { rows } = await pool.query<{ result: string | null }>({
    name: 'sale_begin',
    text: 'select sale_begin($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) as result',
    values: [
      p.leadId,
      p.kind,
      p.skips[0],
      p.skips[1],
      p.attemptId,
      p.buyer.id,
      p.at,
      keys.map((k) => k.key),
      keys.map((k) => k.cap.leads ?? null),
      keys.map((k) => (k.cap.amount === undefined ? null : centsOf(k.cap.amount))),
      p.priceCents,
      p.leaseSeconds,
      p.maxErrors,
    ],
  });
  return { keys, result: rows[0]?.result ?? null };
}

function skipReason(buyer: BuyerRow, sale: LeadForSale, at: Date): SkipReason | undefined {
  if (buyer.status !== 'active') return 'paused';
  return filterMiss(buyer.config.filters, sale) ?? (isOpen(buyer.config.schedule, at) ? undefined : 'closed');
}
