import { zoneLabel } from '@uf/shared/business-time';
import type {
  BuyerCapUse,
  BuyerView,
  CapPeriod,
  LeadSaleView,
  SaleAttemptView,
  SaleStatus,
  SkipReason,
} from '@uf/shared/buyers';

// Lead buyers in the admin's words (issue 34): money, outcomes, skip reasons, cap use, a lead's sale and
// the revenue card's three figures. Pure: unit-tested beside.

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 8.5 → '$8.50'; null or undefined → '—'. */
export function usd(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '—' : USD.format(amount);
}

type Outcome = SaleAttemptView['outcome'];

/** Each outcome's badge: its word and colour. */
export const OUTCOME_WORDS: Record<Outcome, { label: string; color: string }> = {
  accepted: { label: 'Accepted', color: 'green' },
  rejected: { label: 'Rejected', color: 'orange' },
  duplicate: { label: 'Duplicate', color: 'yellow' },
  error: { label: 'Error', color: 'red' },
  timeout: { label: 'Timeout', color: 'red' },
  unknown: { label: 'Unknown', color: 'grape' },
  skipped: { label: 'Skipped', color: 'gray' },
  sending: { label: 'Sending', color: 'blue' },
};

/** An outcome the server may add later is shown as it is, in grey. */
export function outcomeWords(outcome: string): { label: string; color: string } {
  return OUTCOME_WORDS[outcome as Outcome] ?? { label: outcome, color: 'gray' };
}

const SKIP_WORDS: Record<SkipReason, string> = {
  paused: 'the buyer is paused',
  filter_state: "the lead's state is not one the buyer takes",
  filter_age: "the person's age is outside the buyer's range",
  filter_lead_type: 'the buyer does not take this type of lead',
  filter_source: "the lead's source is not one the buyer takes",
  closed: "outside the buyer's hours",
  cap_hour: "the buyer's hourly cap was reached",
  cap_day: "the buyer's daily cap was reached",
  cap_week: "the buyer's weekly cap was reached",
  cap_month: "the buyer's monthly cap was reached",
  cap_total: "the buyer's total cap was reached",
};

/** A skip's reason code in plain words ('closed' → "outside the buyer's hours"); an unknown code as it is. */
export function skipReasonWords(code: string | null): string {
  if (!code) return 'no reason given';
  return SKIP_WORDS[code as SkipReason] ?? code;
}

/** What the reason column says for an attempt: a skip's words, or the buyer's own reason (and who settled it). */
export function attemptReason(
  attempt: Pick<SaleAttemptView, 'outcome' | 'reason'> & { settled?: SaleAttemptView['settled'] },
): string {
  if (attempt.outcome === 'skipped') return `Skipped: ${skipReasonWords(attempt.reason)}`;
  if (attempt.settled) {
    const said = attempt.outcome === 'accepted' ? 'the buyer took it' : 'the buyer did not take it';
    return `${attempt.reason ?? 'Unknown outcome'} — settled by ${attempt.settled.by}: ${said}`;
  }
  return attempt.reason ?? '';
}

/** 120 → '120 ms', 2400 → '2.4 s'; null → '—'. */
export function latencyWords(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The Caps section's help (issue 49): which clock a cap's hours, days, weeks and months are counted in —
 * the zone of the buyer's hours, and for a buyer without hours the business time zone (buyer-sale.ts's
 * buyerZone, ADR 069 over ADR 060), named as the admin's clock names it.
 */
export function capsHelp(business: { zone: string; timeZone: string }): string {
  return `At most this many leads, or this much revenue, per period; then the buyer is skipped until the next one. Hours, days, weeks (from Monday) and months are counted in the time zone of the buyer's hours; a buyer without hours counts them in the business time zone, ${business.zone} (${business.timeZone}).`;
}

/**
 * Whether a buyer's hours take leads now, as the Buyers list says it (issue 49): 'Open now', or 'Closed
 * until Mon 9:00 AM CT' — the day and time in the buyer's own zone, named — or 'Closed: no hours open'.
 */
export function openingWords(
  b: Pick<BuyerView, 'openNow' | 'opensAt'> & { schedule?: { timeZone: string } | undefined },
): string {
  if (b.openNow) return 'Open now';
  if (!b.opensAt || !b.schedule) return 'Closed: no hours open';
  const at = new Date(b.opensAt);
  const { timeZone } = b.schedule;
  try {
    const when = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
    }).format(at);
    return `Closed until ${when} ${zoneLabel(timeZone, at)}`;
  } catch {
    return `Closed until ${b.opensAt}`;
  }
}

const PERIOD_WORDS: Record<CapPeriod, string> = {
  hour: 'this hour',
  day: 'today',
  week: 'this week',
  month: 'this month',
  total: 'in total',
};

/** A cap and its use in the current period: '7 / 10 today', '$70.00 / $100.00 this week', or both. */
export function capUseWords(
  cap: Pick<BuyerCapUse, 'period' | 'leads' | 'amount' | 'usedLeads' | 'usedAmount'>,
) {
  const parts: string[] = [];
  if (cap.leads !== undefined)
    parts.push(`${cap.usedLeads.toLocaleString()} / ${cap.leads.toLocaleString()}`);
  if (cap.amount !== undefined) parts.push(`${usd(cap.usedAmount)} / ${usd(cap.amount)}`);
  return `${parts.join(' and ')} ${PERIOD_WORDS[cap.period as CapPeriod] ?? cap.period}`;
}

export const SALE_STATUS_WORDS: Record<SaleStatus, { label: string; color: string }> = {
  sold: { label: 'Sold', color: 'green' },
  unsold: { label: 'Unsold', color: 'gray' },
  pending: { label: 'Pending', color: 'blue' },
  not_for_sale: { label: 'Not for sale', color: 'gray' },
  unknown: { label: 'Unknown', color: 'grape' },
};

/** A lead's sale in one sentence: 'Sold to Acme for $8.50', 'Unsold: …', 'Pending: …', 'Not for sale: …'. */
export function saleSentence(
  sale: Pick<LeadSaleView, 'status' | 'buyerName' | 'price' | 'attempts'>,
): string {
  switch (sale.status) {
    case 'sold':
      return `Sold to ${sale.buyerName ?? 'a deleted buyer'} for ${usd(sale.price)}`;
    case 'unsold':
      return 'Unsold: every buyer passed on it or refused it.';
    case 'pending':
      return 'Pending: being offered to the buyers now.';
    case 'unknown':
      return `Unknown — waiting for settlement with ${sale.buyerName ?? 'a deleted buyer'}: it may have taken the lead (its answer was cut, or the server stopped mid-post). Ask the buyer, then settle it.`;
    default:
      return sale.attempts.length > 0
        ? 'Not for sale.'
        : 'Not for sale: held or rejected by the quality checks, without consent, opted out, or no buyer was active when it came.';
  }
}

/** Whether a schedule window runs past midnight into the next day (its end is before its start). */
export function crossesMidnight(start: string, end: string): boolean {
  return /^\d\d:\d\d$/.test(start) && /^\d\d:\d\d$/.test(end) && end < start;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The lead id in what was pasted: the id itself, or the lead page's address (its last id). */
export function leadIdOf(pasted: string): string {
  const ids = pasted.match(UUID);
  return ids ? (ids[ids.length - 1] as string).toLowerCase() : pasted.trim();
}
