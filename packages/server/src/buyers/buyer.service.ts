import type { BuyerCreateInput, BuyerUpdateInput } from '@uf/shared/buyer.schema';
import {
  type BuyerConfig,
  type BuyerDelivery,
  type BuyerSchedule,
  type BuyerView,
  DEFAULT_RETURN_WINDOW_DAYS,
  type LeadSaleView,
  MASK,
  type RevenueGroup,
  type RevenueRow,
  type SaleAttemptView,
} from '@uf/shared/buyers';
import { ERROR_CODES } from '@uf/shared/errors';
import { centsOf, dollarsOf } from '@uf/shared/money';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import type { Mailer } from '../email/mailer';
import { AppError } from '../errors';
import type { Actor } from '../leads/admin-leads.service';
import { outboundUrlProblem } from '../platform/outbound-address';
import { dateAndTimeIn } from '../platform/time';
import { loadLeadForSale, testLead } from './buyer-lead';
import { buildRequest, emailLines, isSecretHeader, maskRequest } from './buyer-request';
import { type BuyerRow, buyerZone, capKeys, postToBuyer } from './buyer-sale';
import { isOpen, nextOpening } from './buyer-schedule';

// Lead buyers (issue 34, ADR 069): what the admin API does — the buyers, their log, a lead's sale, returns
// and revenue. Selling is buyer-sale.ts, run by the job queue.

type Row = BuyerRow & {
  paused_reason: string | null;
  created_at: Date;
  updated_at: Date;
  usage: Record<string, { leads: number; amount_cents: string }> | null;
  today_offered: number;
  today_sold: number;
  today_returned: number;
  today_revenue_cents: string | null;
  today_credited_cents: string | null;
  to_settle: number;
};

const notFound = () => new AppError(ERROR_CODES.notFound, 'Buyer not found');
const invalid = (field: string, message: string) =>
  new AppError(ERROR_CODES.validation, message, [{ field, message }]);
const iso = (d: Date | string) => new Date(d).toISOString();

/** The buyer's config with every secret header masked (and any plain header whose value looks like a key). */
export function maskDelivery(delivery: BuyerDelivery): BuyerDelivery {
  if (delivery.kind !== 'http') return delivery;
  const masked = { ...delivery };
  if (delivery.headers) {
    masked.headers = Object.fromEntries(
      Object.entries(delivery.headers).map(([k, v]) => [k, isSecretHeader(k, v) ? MASK : v]),
    );
  }
  if (delivery.secretHeaders) {
    masked.secretHeaders = Object.fromEntries(Object.keys(delivery.secretHeaders).map((k) => [k, MASK]));
  }
  return masked;
}

/** A changed delivery: a header sent back as •••• keeps the value stored under its name. */
function keepMaskedSecrets(next: BuyerDelivery, stored: BuyerDelivery | undefined): BuyerDelivery {
  if (next.kind !== 'http') return next;
  const old = stored?.kind === 'http' ? stored : undefined;
  const restore = (headers: Record<string, string> | undefined, field: string) => {
    if (!headers) return headers;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== MASK) {
        out[name] = value;
        continue;
      }
      const kept = old?.secretHeaders?.[name] ?? old?.headers?.[name];
      if (kept === undefined)
        throw invalid(field, `${field}: no stored value for '${name}' to keep; enter it`);
      out[name] = kept;
    }
    return out;
  };
  return {
    ...next,
    headers: restore(next.headers, 'delivery.headers'),
    secretHeaders: restore(next.secretHeaders, 'delivery.secretHeaders'),
  };
}

function checkUrls(delivery: BuyerDelivery, allowPrivate: boolean) {
  if (delivery.kind !== 'http') return;
  for (const field of ['url', 'testUrl'] as const) {
    const url = delivery[field];
    if (url === undefined) continue;
    const problem = outboundUrlProblem(url, allowPrivate);
    if (problem) throw invalid(`delivery.${field}`, `delivery.${field}: ${problem}`);
  }
}

const SELECT = `
  select b.id, b.name, b.status, b.priority, b.price_cents, b.config, b.consecutive_errors, b.paused_reason,
    b.created_at, b.updated_at,
    (select json_object_agg(u.period_key, json_build_object('leads', u.leads, 'amount_cents', u.amount_cents))
       from buyer_cap_usage u where u.buyer_id = b.id and u.period_key = any($1::text[])) as usage,
    (select count(*) filter (where s.outcome not in ('skipped'))::int from sale_attempt s
       where s.buyer_id = b.id and not s.test and s.at >= $2) as today_offered,
    t.sold as today_sold, t.returned as today_returned, t.revenue_cents as today_revenue_cents,
    t.credited_cents as today_credited_cents,
    (select count(*)::int from sale_attempt s where s.buyer_id = b.id and s.outcome = 'unknown' and not s.test) as to_settle
  from buyer b
  -- Today's sales as GET /api/admin/revenue counts them (issue 47, ADR 073): the leads offered today (the
  -- business day of the offer), sold to the buyer, returned ones included; their returns beside them.
  cross join lateral (
    select count(*)::int as sold, count(*) filter (where l.returned_at is not null)::int as returned,
      sum(l.price_cents) as revenue_cents,
      sum(l.price_cents) filter (where l.returned_at is not null) as credited_cents
    from lead_sale l where l.buyer_id = b.id and l.status = 'sold' and l.created_at >= $2) t`;

/** Midnight of `at`'s day in the zone, as an instant (the wall time elapsed since, taken off). */
export function startOfDayIn(at: Date, timeZone: string): Date {
  const [h, m, sec] = dateAndTimeIn(at, timeZone).time.split(':').map(Number);
  const since = ((h ?? 0) * 3600 + (m ?? 0) * 60 + (sec ?? 0)) * 1000 + at.getMilliseconds();
  return new Date(at.getTime() - since);
}

type ViewContext = { timeZone: string; now: Date };

/** Whether the buyer's hours take leads now, and when they next do (issue 49: the list's "Closed until"). */
function openingOf(schedule: BuyerSchedule | undefined, now: Date): Pick<BuyerView, 'openNow' | 'opensAt'> {
  if (isOpen(schedule, now)) return { openNow: true, opensAt: null };
  const next = nextOpening(schedule, now);
  return { openNow: false, opensAt: next ? next.toISOString() : null };
}

function viewOf(r: Row, ctx: ViewContext): BuyerView {
  const zone = buyerZone(r, ctx.timeZone);
  const keys = capKeys(r.config.caps, ctx.now, zone);
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    priority: r.priority,
    price: dollarsOf(Number(r.price_cents)),
    ...r.config,
    delivery: maskDelivery(r.config.delivery),
    caps: keys.map(({ cap, key }) => ({
      ...cap,
      usedLeads: r.usage?.[key]?.leads ?? 0,
      usedAmount: dollarsOf(Number(r.usage?.[key]?.amount_cents ?? 0)),
    })),
    pausedReason: r.paused_reason,
    consecutiveErrors: r.consecutive_errors,
    ...openingOf(r.config.schedule, ctx.now),
    today: {
      offered: r.today_offered,
      sold: r.today_sold,
      returned: r.today_returned,
      revenue: dollarsOf(Number(r.today_revenue_cents ?? 0)),
      net: dollarsOf(Number(r.today_revenue_cents ?? 0) - Number(r.today_credited_cents ?? 0)),
    },
    toSettle: r.to_settle,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

async function selectBuyers(pool: Pool, ctx: ViewContext, where: string, params: unknown[]) {
  // Every period key any buyer's caps could be on now: its own zone's.
  const { rows: configs } = await pool.query<Pick<Row, 'config'>>('select config from buyer');
  const keys = new Set<string>();
  for (const c of configs)
    for (const k of capKeys(c.config.caps, ctx.now, buyerZone(c, ctx.timeZone))) keys.add(k.key);
  const { rows } = await pool.query<Row>(`${SELECT} ${where} order by b.priority, b.created_at, b.id`, [
    [...keys],
    startOfDayIn(ctx.now, ctx.timeZone),
    ...params,
  ]);
  return rows.map((r) => viewOf(r, ctx));
}

export const listBuyers = (pool: Pool, ctx: ViewContext) => selectBuyers(pool, ctx, '', []);

export async function getBuyer(pool: Pool, id: string, ctx: ViewContext): Promise<BuyerView> {
  const [buyer] = await selectBuyers(pool, ctx, 'where b.id = $3', [id]);
  if (!buyer) throw notFound();
  return buyer;
}

const configOf = (input: Omit<BuyerConfig, 'name' | 'status' | 'priority' | 'price'>) => ({
  delivery: input.delivery,
  fields: input.fields,
  responseRules: input.responseRules,
  ...(input.filters ? { filters: input.filters } : {}),
  ...(input.schedule ? { schedule: input.schedule } : {}),
  ...(input.caps?.length ? { caps: input.caps } : {}),
  ...(input.returnWindowDays !== undefined ? { returnWindowDays: input.returnWindowDays } : {}),
  ...(input.maxConsecutiveErrors !== undefined ? { maxConsecutiveErrors: input.maxConsecutiveErrors } : {}),
});

type WriteOptions = { allowPrivateUrls: boolean; actor: Actor } & ViewContext;

export async function createBuyer(pool: Pool, input: BuyerCreateInput, options: WriteOptions) {
  checkUrls(input.delivery, options.allowPrivateUrls);
  const delivery = keepMaskedSecrets(input.delivery, undefined);
  const id = crypto.randomUUID();
  await pool.query(
    `insert into buyer (id, name, status, priority, price_cents, config, paused_reason)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      input.name,
      input.status,
      input.priority,
      centsOf(input.price),
      configOf({ ...input, schedule: input.schedule ?? undefined, delivery }),
      input.status === 'paused' ? 'Paused by an admin' : null,
    ],
  );
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'buyers.create',
    detail: { id, name: input.name },
    ipAddress: options.actor.ipAddress,
  });
  return getBuyer(pool, id, options);
}

export async function updateBuyer(pool: Pool, input: BuyerUpdateInput, options: WriteOptions) {
  const { rows } = await pool.query<Pick<Row, 'config' | 'status'>>(
    'select config, status from buyer where id = $1',
    [input.id],
  );
  const stored = rows[0];
  if (!stored) throw notFound();
  const config = { ...stored.config };
  if (input.delivery) {
    checkUrls(input.delivery, options.allowPrivateUrls);
    config.delivery = keepMaskedSecrets(input.delivery, stored.config.delivery);
  }
  if (input.fields) config.fields = input.fields;
  if (input.responseRules) config.responseRules = input.responseRules;
  if (input.filters !== undefined) config.filters = input.filters ?? undefined;
  if (input.schedule !== undefined) config.schedule = input.schedule ?? undefined;
  if (input.caps !== undefined) config.caps = input.caps?.length ? input.caps : undefined;
  if (input.returnWindowDays !== undefined) config.returnWindowDays = input.returnWindowDays;
  if (input.maxConsecutiveErrors !== undefined) config.maxConsecutiveErrors = input.maxConsecutiveErrors;
  await pool.query(
    `update buyer set name = coalesce($2, name), status = coalesce($3, status), priority = coalesce($4, priority),
       price_cents = coalesce($5, price_cents), config = $6,
       -- Resuming starts afresh: no reason, no error streak.
       paused_reason = case when $3 = 'active' then null when $3 = 'paused' and status = 'active' then 'Paused by an admin' else paused_reason end,
       consecutive_errors = case when $3 = 'active' then 0 else consecutive_errors end,
       idle_reported_at = case when $3 = 'active' then null else idle_reported_at end,
       idle_since = case when $3 = 'active' and status = 'paused' then now() else idle_since end,
       updated_at = now()
     where id = $1`,
    [
      input.id,
      input.name ?? null,
      input.status ?? null,
      input.priority ?? null,
      input.price === undefined ? null : centsOf(input.price),
      configOf(config),
    ],
  );
  const { id: _id, ...changed } = input;
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'buyers.update',
    detail: { id: input.id, changed: Object.keys(changed) },
    ipAddress: options.actor.ipAddress,
  });
  return getBuyer(pool, input.id, options);
}

/** Deletes a buyer that never bought a lead; one with sales is paused instead (its revenue stays). */
export async function deleteBuyer(pool: Pool, id: string, actor: Actor) {
  const { rows } = await pool.query<{ sold: boolean }>(
    `select exists (select 1 from lead_sale where buyer_id = $1)
       or exists (select 1 from sale_attempt where buyer_id = $1 and outcome = 'unknown' and not test) as sold
     from buyer where id = $1`,
    [id],
  );
  if (!rows[0]) throw notFound();
  if (rows[0].sold) {
    throw new AppError(
      ERROR_CODES.conflict,
      'This buyer has bought leads, or has sales to settle: its sales and revenue must stay. Pause it instead.',
    );
  }
  await pool.query('delete from buyer where id = $1', [id]);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'buyers.delete',
    detail: { id },
    ipAddress: actor.ipAddress,
  });
  return { id, deleted: true as const };
}

type AttemptRow = {
  id: string;
  buyer_id: string;
  buyer_name: string;
  lead_id: string | null;
  lead_kind: 'website' | 'api' | null;
  at: Date;
  test: boolean;
  outcome: SaleAttemptView['outcome'];
  reason: string | null;
  price_cents: string | null;
  reference: string | null;
  latency_ms: number | null;
  request: SaleAttemptView['request'];
  status: number | null;
  response: string | null;
  settled_by: string | null;
  settled_at: Date | null;
};

const ATTEMPT_SELECT = `
  select s.id, s.buyer_id, b.name as buyer_name, s.lead_id, s.lead_kind, s.at, s.test, s.outcome, s.reason,
    s.price_cents, s.reference, s.latency_ms, s.request, s.status, s.response, s.settled_by, s.settled_at
  from sale_attempt s join buyer b on b.id = s.buyer_id`;

const attemptView = (r: AttemptRow): SaleAttemptView => ({
  id: r.id,
  buyerId: r.buyer_id,
  buyerName: r.buyer_name,
  leadId: r.lead_id,
  leadType: r.lead_kind,
  at: iso(r.at),
  test: r.test,
  outcome: r.outcome,
  reason: r.reason,
  price: r.price_cents === null ? null : dollarsOf(Number(r.price_cents)),
  reference: r.reference,
  latencyMs: r.latency_ms,
  request: r.request,
  status: r.status,
  response: r.response,
  settled: r.settled_at ? { by: r.settled_by ?? '', at: iso(r.settled_at) } : null,
});

export async function listAttempts(
  pool: Pool,
  input: { id: string; limit?: number; test?: 'true' | 'false' },
) {
  const exists = await pool.query('select 1 from buyer where id = $1', [input.id]);
  if (!exists.rowCount) throw notFound();
  const { rows } = await pool.query<AttemptRow>(
    `${ATTEMPT_SELECT} where s.buyer_id = $1 and ($2::boolean is null or s.test = $2)
     order by s.at desc, s.seq desc limit $3`,
    [input.id, input.test === undefined ? null : input.test === 'true', input.limit ?? 100],
  );
  return rows.map(attemptView);
}

/**
 * GET /api/admin/buyers/{id}/to-settle: the buyer's posts whose outcome is unknown (a cut answer, or the
 * server stopped while they were in flight), oldest first — each lead waits there until settled.
 */
export async function listToSettle(pool: Pool, id: string) {
  const exists = await pool.query('select 1 from buyer where id = $1', [id]);
  if (!exists.rowCount) throw notFound();
  const { rows } = await pool.query<AttemptRow>(
    `${ATTEMPT_SELECT} where s.buyer_id = $1 and s.outcome = 'unknown' and not s.test order by s.at, s.seq`,
    [id],
  );
  return rows.map(attemptView);
}

/**
 * POST /api/admin/leads/{id}/settle: an admin settles a post whose outcome is unknown with what the buyer
 * says. Taken: the lead is sold to it at the price reserved for the post (the buyer's price), the
 * reservation becoming the sale. Not taken: the attempt is closed (rejected, its caps released) and the
 * lead goes on down the waterfall from where it stopped (a new job; buyers already offered it never are
 * again). One statement (sale_settle()): of two admins settling at once, one does and the other gets 409.
 */
export async function settleLead(
  pool: Pool,
  input: { id: string; buyerId: string; taken: boolean },
  options: { now: Date; actor: Actor },
) {
  const { rows } = await pool.query<{ lead_id: string; buyer_id: string; price_cents: string }>(
    'select * from sale_settle($1, $2, $3, $4, $5)',
    [input.id, input.buyerId, input.taken, options.actor.username, options.now],
  );
  const settled = rows[0];
  if (!settled) {
    const { rows: known } = await pool.query<{ outcome: string }>(
      'select outcome from sale_attempt where lead_id = $1 and buyer_id = $2 and not test',
      [input.id, input.buyerId],
    );
    if (!known[0]) throw new AppError(ERROR_CODES.notFound, 'This lead was never posted to this buyer.');
    throw new AppError(
      ERROR_CODES.conflict,
      `This sale is not waiting to be settled (its outcome is ${known[0].outcome}): it may just have been settled by someone else.`,
    );
  }
  const price = dollarsOf(Number(settled.price_cents));
  await recordAudit(pool, {
    actor: options.actor.username,
    action: input.taken ? 'leads.settle_taken' : 'leads.settle_not_taken',
    detail: { id: input.id, buyerId: input.buyerId, ...(input.taken ? { price } : {}) },
    ipAddress: options.actor.ipAddress,
  });
  return {
    leadId: input.id,
    buyerId: input.buyerId,
    status: input.taken ? ('sold' as const) : ('pending' as const),
    price: input.taken ? price : null,
  };
}

async function buyerRow(pool: Pool, id: string): Promise<BuyerRow> {
  const { rows } = await pool.query<BuyerRow>(
    'select id, name, status, priority, price_cents, config, consecutive_errors from buyer where id = $1',
    [id],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** The request that would be sent for the lead, secrets masked; nothing is sent. */
export async function previewBuyer(pool: Pool, input: { id: string; leadId: string }, now: Date) {
  const buyer = await buyerRow(pool, input.id);
  const sale = await loadLeadForSale(pool, input.leadId, now);
  if (!sale) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  const delivery = buyer.config.delivery;
  if (delivery.kind === 'email') {
    const text = emailLines(buyer.config.fields, sale.lead).join('\n');
    return { request: { method: 'EMAIL', url: `mailto:${delivery.to.join(',')}`, headers: {}, body: text } };
  }
  return { request: maskRequest(buildRequest(delivery, buyer.config.fields, sale.lead), delivery) };
}

/** Sends a made-up test lead to the buyer's testUrl (else its url); never counts against caps or revenue. */
export async function testBuyer(
  pool: Pool,
  id: string,
  options: { allowPrivateUrls: boolean; mailer?: Mailer; now: Date; actor: Actor },
): Promise<SaleAttemptView> {
  const buyer = await buyerRow(pool, id);
  const result = await postToBuyer(buyer, testLead(options.now), { ...options, test: true });
  const { rows } = await pool.query<AttemptRow>(
    `with s as (
       insert into sale_attempt (id, buyer_id, test, at, outcome, reason, price_cents, reference, latency_ms, request, status, response)
       values (gen_random_uuid(), $1, true, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *
     ) select s.*, b.name as buyer_name from s join buyer b on b.id = s.buyer_id`,
    [
      id,
      options.now,
      result.outcome,
      result.reason,
      result.priceCents,
      result.reference,
      result.latencyMs,
      result.request,
      result.status,
      result.response,
    ],
  );
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'buyers.test',
    detail: { id, outcome: result.outcome },
    ipAddress: options.actor.ipAddress,
  });
  return attemptView(rows[0] as AttemptRow);
}

type SaleRow = {
  status: LeadSaleView['status'];
  buyer_id: string | null;
  buyer_name: string | null;
  price_cents: string | null;
  sold_at: Date | null;
  returned_at: Date | null;
  return_reason: string | null;
  return_note: string | null;
};

/** GET /api/admin/leads/{id}/sale (website and API leads alike). */
export async function leadSale(pool: Pool, leadId: string): Promise<LeadSaleView> {
  // The lead, and whether its batch is still in the outbox (accepted, its sale about to be queued).
  const { rows: leads } = await pool.query<{ queued: boolean }>(
    `select exists (select 1 from webhook_event where $1 = any(ids) and event in ('lead.created', 'api_lead.created')) as queued
     from (select id from website_lead where id = $1 union all select id from api_lead where id = $1) l`,
    [leadId],
  );
  const { rows } = await pool.query<SaleRow>(
    `select l.status, l.buyer_id, b.name as buyer_name, l.price_cents, l.sold_at, l.returned_at, l.return_reason, l.return_note
     from lead_sale l left join buyer b on b.id = l.buyer_id where l.lead_id = $1`,
    [leadId],
  );
  const sale = rows[0];
  if (!sale && leads.length === 0) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  const { rows: attempts } = await pool.query<AttemptRow>(
    `${ATTEMPT_SELECT} where s.lead_id = $1 and not s.test order by s.seq`,
    [leadId],
  );
  // No sale row: about to be offered (still in the outbox), or never offered (held, rejected, no consent,
  // or no buyer was active then).
  const status = sale?.status ?? (leads[0]?.queued ? 'pending' : 'not_for_sale');
  const view: LeadSaleView = { status, attempts: attempts.map(attemptView) };
  if (sale?.buyer_id) view.buyerId = sale.buyer_id;
  if (sale?.buyer_name) view.buyerName = sale.buyer_name;
  // Waiting for settlement: the buyer is the one whose post's outcome is unknown.
  const waiting = status === 'unknown' ? attempts.find((a) => a.outcome === 'unknown') : undefined;
  if (waiting) {
    view.buyerId = waiting.buyer_id;
    view.buyerName = waiting.buyer_name;
  }
  if (sale?.price_cents != null) view.price = dollarsOf(Number(sale.price_cents));
  if (sale?.sold_at) view.soldAt = iso(sale.sold_at);
  if (sale?.returned_at) {
    view.returned = { at: iso(sale.returned_at), reason: sale.return_reason ?? '', note: sale.return_note };
  }
  return view;
}

/** POST /api/admin/leads/{id}/return: within the buyer's return window, the sale is credited. */
export async function returnLead(
  pool: Pool,
  input: { id: string; reason: string; note?: string },
  options: { now: Date; actor: Actor },
) {
  const { rows } = await pool.query<{
    status: string;
    buyer_id: string | null;
    price_cents: string | null;
    sold_at: Date | null;
    returned_at: Date | null;
    config: BuyerRow['config'] | null;
  }>(
    `select l.status, l.buyer_id, l.price_cents, l.sold_at, l.returned_at, b.config
     from lead_sale l left join buyer b on b.id = l.buyer_id where l.lead_id = $1`,
    [input.id],
  );
  const sale = rows[0];
  if (sale?.status !== 'sold' || !sale.buyer_id || !sale.sold_at) {
    throw invalid('id', 'This lead was not sold: there is nothing to return.');
  }
  if (sale.returned_at) throw new AppError(ERROR_CODES.conflict, 'This lead was already returned.');
  const days = sale.config?.returnWindowDays ?? DEFAULT_RETURN_WINDOW_DAYS;
  const closes = new Date(new Date(sale.sold_at).getTime() + days * 86_400_000);
  if (options.now > closes) {
    throw invalid(
      'id',
      `The buyer's return window of ${days} days closed on ${closes.toISOString().slice(0, 10)}: this lead can no longer be returned.`,
    );
  }
  const { rowCount } = await pool.query(
    `update lead_sale set returned_at = $2, return_reason = $3, return_note = $4, returned_by = $5, updated_at = now()
     where lead_id = $1 and returned_at is null`,
    [input.id, options.now, input.reason, input.note ?? null, options.actor.username],
  );
  if (!rowCount) throw new AppError(ERROR_CODES.conflict, 'This lead was already returned.');
  await recordAudit(pool, {
    actor: options.actor.username,
    action: 'leads.return',
    detail: { id: input.id, buyerId: sale.buyer_id, reason: input.reason },
    ipAddress: options.actor.ipAddress,
  });
  return {
    leadId: input.id,
    buyerId: sale.buyer_id,
    credited: dollarsOf(Number(sale.price_cents ?? 0)),
    returnedAt: options.now.toISOString(),
  };
}

const GROUP_KEY: Record<Exclude<RevenueGroup, 'buyer'>, string> = {
  day: `to_char((l.created_at at time zone $3)::date, 'YYYY-MM-DD')`,
  source: `coalesce(l.source, 'direct')`,
  campaign: `case when coalesce(l.campaign, '') = '' then '(none)' else l.campaign end`,
};

const RANGE = `l.created_at >= ($1::date::timestamp at time zone $3) and l.created_at < (($2::date + 1)::timestamp at time zone $3)`;

/**
 * GET /api/admin/revenue: per day (of the offer, in the business time zone), buyer, source or campaign —
 * leads offered, sold (returned ones included), returned (a count), revenue (gross, at their price),
 * credited (the returned leads' prices) and net (revenue − credited): the words of ADR 073. Per buyer,
 * "offered" counts the leads posted to that buyer; otherwise the leads offered to any buyer.
 */
export async function revenue(
  pool: Pool,
  input: { from: string; to: string; groupBy: RevenueGroup },
  timeZone: string,
): Promise<RevenueRow[]> {
  const sql =
    input.groupBy === 'buyer'
      ? `select b.name as key,
           (select count(*) from sale_attempt s join lead_sale l on l.lead_id = s.lead_id
             where s.buyer_id = b.id and not s.test and s.outcome <> 'skipped' and ${RANGE})::int as offered,
           count(l.lead_id)::int as sold,
           count(l.lead_id) filter (where l.returned_at is not null)::int as returned,
           coalesce(sum(l.price_cents), 0) as revenue,
           coalesce(sum(l.price_cents) filter (where l.returned_at is not null), 0) as credited
         from buyer b left join lead_sale l on l.buyer_id = b.id and l.status = 'sold' and ${RANGE}
         group by b.id, b.name
         having count(l.lead_id) > 0 or exists (
           select 1 from sale_attempt s join lead_sale l on l.lead_id = s.lead_id
           where s.buyer_id = b.id and not s.test and s.outcome <> 'skipped' and ${RANGE})
         order by 5 desc, 1`
      : `select ${GROUP_KEY[input.groupBy]} as key,
           count(*) filter (where l.status <> 'not_for_sale')::int as offered,
           count(*) filter (where l.status = 'sold')::int as sold,
           count(*) filter (where l.status = 'sold' and l.returned_at is not null)::int as returned,
           coalesce(sum(l.price_cents) filter (where l.status = 'sold'), 0) as revenue,
           coalesce(sum(l.price_cents) filter (where l.status = 'sold' and l.returned_at is not null), 0) as credited
         from lead_sale l where ${RANGE}
         group by 1 order by ${input.groupBy === 'day' ? '1' : '5 desc, 1'}`;
  // Sums in whole cents (bigint: text from pg); dollars only in the answer.
  const { rows } = await pool.query<{
    key: string;
    offered: number;
    sold: number;
    returned: number;
    revenue: string;
    credited: string;
  }>(sql, [input.from, input.to, timeZone]);
  return rows.map((r) => {
    const rev = Number(r.revenue);
    const credited = Number(r.credited);
    return {
      key: r.key,
      offered: r.offered,
      sold: r.sold,
      returned: r.returned,
      revenue: dollarsOf(rev),
      credited: dollarsOf(credited),
      net: dollarsOf(rev - credited),
    };
  });
}
