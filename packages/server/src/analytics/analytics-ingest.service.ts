import type { TrackEvent } from '@uf/shared/analytics.schema';
import { firstClickId } from '@uf/shared/attribution';
import type { Channel } from '@uf/shared/channel';
import { ERROR_CODES } from '@uf/shared/errors';
import { normaliseReferrer } from '@uf/shared/referrer';
import type { Pool } from 'pg';
import { Counter, Histogram, type Registry } from 'prom-client';
import { AnalyticsEvent } from '../db/entities/analytics-event.entity';
import { columnsOf } from '../db/entity-columns';
import { AppError } from '../errors';
import { batchInsert, databaseCommitter } from '../platform/pg-batch';
import { FUNNEL_DEPTHS } from './analytics-sources';
import { DROP_REASONS, dropReason } from './bot-filter';
import type { CountryLookup } from './country-lookup';
import { type DeviceClass, deviceClass } from './device-class';
import { visitAttribution } from './visit-attribution';
import { createVisitorHasher } from './visitor-id';

// Ingestion of visitor events (ADR 020): validated by the shared schema, bots dropped with a counted
// reason, country and referrer derived, then written by group commit. One statement per batch inserts
// the raw rows and appends their counts to every daily and monthly rollup as delta rows (issue 23: no
// shared row, so batches never wait on each other's locks and several are written at once; the server
// folds each key's rows every minute, readers sum them), so the rollups can never disagree with the
// events they were built from, and a request is answered only after that statement committed.

/** What the request contributes besides the body. The client IP is used for the country only. */
export type TrackContext = {
  userAgent: string | undefined;
  secChUa: string | undefined;
  /** req.ip: forwarded headers count only from proxies in TRUST_PROXY. */
  ip: string | null;
  /** Value of the configured country header, if any. */
  countryHeader: string | undefined;
  /** The site's own host (self-referrals count as direct). */
  host: string | undefined;
};

/** An event as stored: its analytics_event columns, by the entity's property names (ADR 064). */
export type EventColumns = {
  eventType: string;
  page: string;
  referrer: string;
  referrerHost: string;
  referrerUrl: string;
  sessionId: string;
  country: string | null;
  /** hash(today's salt, IP, user agent) as a decimal string; null without an IP. */
  visitorId: string | null;
  channel: Channel;
  /** The source reported for the visit (utm_source, else the referrer host, else 'direct'). */
  source: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  clickIdType: string | null;
} & DeviceClass; // device type, browser and operating system from the user agent (issue 26; the agent is not stored)

/** One queued event: its columns (the batch insert reads each property of the entity from here). */
export type EventRow = { input: EventColumns };

export type TrackResult = { stored: boolean };

/** The funnel steps a visit's events reach, as bits of analytics_visit.steps. */
const STEP_BITS = `case event_type when 'page_view' then 1 when 'survey_started' then 2
  when 'form_submit' then 4 when 'button_click' then 8 else 0 end`;

/** The counts of the visit rollups (analytics_daily_source and analytics_monthly_source). */
const SOURCE_COUNTS = ['visits', 'visitors', ...FUNNEL_DEPTHS.map(([c]) => c)];
const countColumns = SOURCE_COUNTS.join(', ');
const sumCounts = SOURCE_COUNTS.map((c) => `sum(${c}) as ${c}`).join(', ');
/** Each funnel column counts the visits whose depth newly reached its step in this statement. */
const stepDeltas = FUNNEL_DEPTHS.map(
  ([c, depth]) =>
    `count(*) filter (where analytics_visit_depth(steps) >= ${depth} and analytics_visit_depth(prev_steps) < ${depth}) as ${c}`,
).join(', ');

/**
 * Visits by device type, browser and operating system (issue 26): a new visit counts once in each, with
 * the classes of its first batch's events, per day and month and country ('' when unknown).
 */
function deviceRollupsSql(): string {
  const parts = [
    ['analytics_daily_device', 'day', 'day'],
    ['analytics_monthly_device', 'month', "date_trunc('month', day)::date"],
  ].map(
    ([table, period, expr]) => `${table}_rollup as (
    insert into ${table} (${period}, dimension, value, country, count)
    select ${expr}, d.dimension, d.value, country, count(*) from new_visit_device
      cross join lateral (values ('device', device_type), ('browser', browser), ('os', os)) d(dimension, value)
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
  )`,
  );
  return `new_visit_device as (
    select b.day, b.country, b.device_type, b.browser, b.os
    from visit v join batch_visit b on b.day = v.day and b.session_id = v.session_id where v.prev_steps = 0
  ),
  ${parts.join(',\n  ')}`;
}
const REFERRER_ROLLUPS = [
  { table: 'analytics_daily_referrer', keys: ['day', "'visit'", 'referrer'], country: false },
  {
    table: 'analytics_daily_country_referrer',
    keys: ['country', 'day', "'visit'", 'referrer'],
    country: true,
  },
  { table: 'analytics_monthly_referrer', keys: ['month', "'visit'", 'referrer'], country: false },
  {
    table: 'analytics_monthly_country_referrer',
    keys: ['country', 'month', "'visit'", 'referrer'],
    country: true,
  },
] as const;

/** The visit rollups of one batch: `new_visit` and `new_visitor` rows counted into each table. */
function visitRollupsSql(): string {
  const referrerParts = REFERRER_ROLLUPS.map(({ table, keys, country }, i) => {
    const cols = keys.map((k) => (k === "'visit'" ? 'event_type' : k)).join(', ');
    const select = keys.join(', ');
    const n = keys.length;
    const ordinals = Array.from({ length: n }, (_, j) => j + 1).join(', ');
    return `visit_referrer_${i} as (
      insert into ${table} (${cols}, count)
      select ${select}, count(*) from new_visit_month ${country ? "where country <> ''" : ''}
      group by ${ordinals} order by ${ordinals}
    )`;
  });
  return `
  batch_visit as (
    select day, session_id, min(visitor_id) as visitor_id, coalesce(min(country), '') as country,
      min(channel) as channel, min(source) as source, coalesce(min(utm_campaign), '') as campaign,
      min(referrer_url) as referrer, bit_or(${STEP_BITS})::smallint as steps,
      coalesce(min(device_type), 'unknown') as device_type, coalesce(min(browser), 'Unknown') as browser,
      coalesce(min(os), 'Unknown') as os
    from ins group by day, session_id
  ),
  visit as (
    insert into analytics_visit as v (day, session_id, visitor_id, country, channel, source, campaign, referrer, steps)
    select day, session_id, visitor_id, country, channel, source, campaign, referrer, steps
    from batch_visit order by day, session_id
    on conflict (day, session_id) do update set prev_steps = v.steps, steps = v.steps | excluded.steps
      where (v.steps | excluded.steps) <> v.steps
    returning v.day, v.session_id, v.visitor_id, v.country, v.channel, v.source, v.campaign, v.referrer, v.steps,
      v.prev_steps
  ),
  new_visitor as (
    insert into analytics_day_visitor (day, visitor_id, country, channel, source, campaign)
    select distinct day, visitor_id, country, channel, source, campaign from visit
    where prev_steps = 0 and visitor_id is not null order by 1, 2, 3, 4, 5, 6
    on conflict do nothing
    returning day, country, channel, source, campaign
  ),
  source_delta as (
    select day, country, channel, source, campaign,
      count(*) filter (where prev_steps = 0) as visits, 0 as visitors, ${stepDeltas}
    from visit group by 1, 2, 3, 4, 5
    union all
    select day, country, channel, source, campaign, 0, count(*), ${FUNNEL_DEPTHS.map(() => '0').join(', ')}
    from new_visitor group by 1, 2, 3, 4, 5
  ),
  source_day as (
    select day, country, channel, source, campaign, ${sumCounts} from source_delta group by 1, 2, 3, 4, 5
  ),
  daily_source as (
    insert into analytics_daily_source (day, country, channel, source, campaign, ${countColumns})
    select * from source_day order by 1, 2, 3, 4, 5
  ),
  monthly_source as (
    insert into analytics_monthly_source (month, country, channel, source, campaign, ${countColumns})
    select date_trunc('month', day)::date, country, channel, source, campaign, ${sumCounts}
    from source_day group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  ),
  new_visit_month as (
    select day, date_trunc('month', day)::date as month, country, referrer from visit where prev_steps = 0
  ),
  ${referrerParts.join(',\n  ')},
  ${deviceRollupsSql()}`;
}

/**
 * The raw rows, one array parameter per column, named and typed by the entity (ADR 064): the key is
 * generated (created_at's default, the identity), every other property comes from the queued row.
 */
const EVENT_INSERT = batchInsert(columnsOf(AnalyticsEvent)).from<EventRow>({ createdAt: null, id: null });
/** The statement's own parameter after the columns: the business time zone that dates the rollups. */
const TZ = `$${EVENT_INSERT.next}`;

const BATCH_SQL = `
  with ins as (
    insert into ${EVENT_INSERT.into}
    select ${EVENT_INSERT.select()} from ${EVENT_INSERT.from}
    returning event_type, country, referrer_url, session_id, visitor_id, channel, source, utm_campaign,
      device_type, browser, os, (created_at at time zone ${TZ})::date as day
  ),
  by_type as (
    insert into analytics_daily_type (day, event_type, count)
    select day, event_type, count(*) from ins group by day, event_type order by day, event_type
  ),
  by_country as (
    insert into analytics_daily_country (day, event_type, country, count)
    select day, event_type, country, count(*) from ins where country is not null
    group by day, event_type, country order by day, event_type, country
  ),
  monthly_country as (
    insert into analytics_monthly_country (month, event_type, country, count)
    select date_trunc('month', day)::date as month, event_type, country, count(*) from ins
    where country is not null group by 1, 2, 3 order by 1, 2, 3
  ),
  ${visitRollupsSql()}
  select count(*)::int as inserted from ins`;

/** One batch as one statement: atomic and durable on return (PostgreSQL commits it on its own). */
export async function writeEventBatch(pool: Pool, rows: EventRow[], timeZone: string): Promise<void> {
  await pool.query({
    name: 'analytics_event_batch',
    text: BATCH_SQL,
    values: [...EVENT_INSERT.values(rows), timeZone],
  });
}

/** Track batches written at once (see `concurrency`). */
export const ANALYTICS_WRITERS = 3;

export type AnalyticsIngesterOptions = {
  pool: Pool;
  timeZone: string;
  lookupCountry: CountryLookup;
  registry: Registry;
  /** Rows per batch statement. */
  maxBatch?: number;
  /**
   * Batches written at once. Default 3: batches append delta rows and share no row, so they no longer
   * queue on each other's locks (issue 23); with one writer the route waited on its batches in turn.
   * Within the raw pool's budget (half of DB_POOL_MAX), beside lead and partner writers.
   */
  concurrency?: number;
  /** Queued events for which another writer starts while one is busy (default 8; see GroupCommitter). */
  minBatchWhileBusy?: number;
  /** Gather the events of one event-loop turn into a batch (default true; see GroupCommitter). */
  gatherTurn?: boolean;
  maxQueue?: number;
};

export function createAnalyticsIngester(options: AnalyticsIngesterOptions) {
  const { pool, timeZone, lookupCountry, registry } = options;
  const visitors = createVisitorHasher(pool, timeZone);

  const dropped = new Counter({
    name: 'analytics_events_dropped_total',
    help: 'Visitor events not counted, by reason (bots, headless browsers, no user agent)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of DROP_REASONS) dropped.inc({ reason }, 0);
  const stored = new Counter({
    name: 'analytics_events_stored_total',
    help: 'Visitor events committed to the database',
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: 'analytics_batch_size',
    help: 'Events per group-commit batch',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: 'analytics_batch_duration_seconds',
    help: 'Time to write one group-commit batch',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });

  const committer = databaseCommitter<EventRow>({
    pool,
    name: 'analytics events',
    write: async (rows) => {
      await writeEventBatch(pool, rows, timeZone);
      stored.inc(rows.length);
    },
    rowRejected: () => new AppError(ERROR_CODES.validation, 'This event could not be stored'),
    busyMessage: 'Too many analytics events right now. Please try again.',
    maxBatch: options.maxBatch ?? 500,
    concurrency: options.concurrency ?? ANALYTICS_WRITERS,
    // A batch statement costs PostgreSQL ~0.75 ms whatever its size, plus ~13 µs per event (issue 23,
    // 2026-11-25): under load more than half the batches were one event (the first arrival taking an
    // idle writer). A batch now gathers the events of the event loop's turn, and a second or third
    // writer starts only for 8 queued events or more; fewer wait for the running batch.
    gatherTurn: options.gatherTurn ?? true,
    minBatchWhileBusy: options.minBatchWhileBusy ?? 8,
    maxQueue: options.maxQueue ?? 20_000,
    onBatch: (size, seconds) => {
      batchSize.observe(size);
      batchSeconds.observe(seconds);
    },
  });

  return {
    /** Resolves after the event is committed ({stored: true}) or deliberately not counted. */
    async track(event: TrackEvent, ctx: TrackContext): Promise<TrackResult> {
      const reason = dropReason({ userAgent: ctx.userAgent, secChUa: ctx.secChUa });
      if (reason) {
        dropped.inc({ reason });
        return { stored: false };
      }
      const referrer = event.referrer.trim() === '' ? 'direct' : event.referrer;
      const { host, address } = normaliseReferrer(referrer, ctx.host);
      const [country, visitorId] = await Promise.all([
        lookupCountry({ headerValue: ctx.countryHeader, ip: ctx.ip }),
        visitors.visitorId(ctx.ip, ctx.userAgent),
      ]);
      const visit = visitAttribution(event.attribution, host, ctx.host);
      await committer.push({
        input: {
          eventType: event.eventType,
          page: event.page,
          referrer,
          referrerHost: host,
          referrerUrl: address,
          sessionId: event.sessionId,
          country,
          visitorId,
          channel: visit.channel,
          source: visit.source,
          utmSource: event.attribution.utm_source ?? null,
          utmMedium: event.attribution.utm_medium ?? null,
          utmCampaign: event.attribution.utm_campaign ?? null,
          utmTerm: event.attribution.utm_term ?? null,
          utmContent: event.attribution.utm_content ?? null,
          clickIdType: firstClickId(event.attribution)?.[0] ?? null,
          ...deviceClass(ctx.userAgent),
        },
      });
      return { stored: true };
    },
    /** Stops taking events and writes every queued one (graceful shutdown). */
    /** The cookieless visitor id of a request (issue 48: landing experiments assign arms by it). */
    visitorId: visitors.visitorId,
    close: () => committer.close(),
  };
}

export type AnalyticsIngester = ReturnType<typeof createAnalyticsIngester>;
