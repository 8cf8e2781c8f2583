import type { TrackEvent } from '@uf/shared/analytics.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import { normaliseReferrer } from '@uf/shared/referrer';
import type { Pool } from 'pg';
import { Counter, Histogram, type Registry } from 'prom-client';
import { AppError } from '../errors';
import { DROP_REASONS, dropReason } from './bot-filter';
import type { CountryLookup } from './country-lookup';
import { GroupCommitter } from './group-commit';

// Ingestion of visitor events (ADR 020): validated by the shared schema, bots dropped with a counted
// reason, country and referrer derived, then written by group commit. One statement per batch inserts
// the raw rows and adds them to every daily and monthly rollup, so the rollups can never disagree with
// the events they were built from, and a request is answered only after that statement committed.

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

export type EventRow = {
  eventType: string;
  page: string;
  referrer: string;
  referrerHost: string;
  referrerUrl: string;
  sessionId: string;
  country: string | null;
};

export type TrackResult = { stored: boolean };

const BATCH_SQL = `
  with ins as (
    insert into analytics_event (event_type, page, referrer, referrer_host, referrer_url, session_id, country)
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
    returning event_type, country, referrer_url, (created_at at time zone $8)::date as day
  ),
  by_type as (
    insert into analytics_daily_type as r (day, event_type, count)
    select day, event_type, count(*) from ins group by day, event_type order by day, event_type
    on conflict (day, event_type) do update set count = r.count + excluded.count
  ),
  by_country as (
    insert into analytics_daily_country as r (day, event_type, country, count)
    select day, event_type, country, count(*) from ins where country is not null
    group by day, event_type, country order by day, event_type, country
    on conflict (day, event_type, country) do update set count = r.count + excluded.count
  ),
  by_referrer as (
    insert into analytics_daily_referrer as r (day, event_type, referrer, count)
    select day, event_type, referrer_url, count(*) from ins
    group by day, event_type, referrer_url order by day, event_type, referrer_url
    on conflict (day, event_type, referrer) do update set count = r.count + excluded.count
  ),
  by_country_referrer as (
    insert into analytics_daily_country_referrer as r (country, day, event_type, referrer, count)
    select country, day, event_type, referrer_url, count(*) from ins where country is not null
    group by country, day, event_type, referrer_url order by country, day, event_type, referrer_url
    on conflict (country, day, event_type, referrer) do update set count = r.count + excluded.count
  ),
  monthly_country as (
    insert into analytics_monthly_country as r (month, event_type, country, count)
    select date_trunc('month', day)::date as month, event_type, country, count(*) from ins
    where country is not null group by 1, 2, 3 order by 1, 2, 3
    on conflict (month, event_type, country) do update set count = r.count + excluded.count
  ),
  monthly_referrer as (
    insert into analytics_monthly_referrer as r (month, event_type, referrer, count)
    select date_trunc('month', day)::date as month, event_type, referrer_url, count(*) from ins
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (month, event_type, referrer) do update set count = r.count + excluded.count
  ),
  monthly_country_referrer as (
    insert into analytics_monthly_country_referrer as r (country, month, event_type, referrer, count)
    select country, date_trunc('month', day)::date as month, event_type, referrer_url, count(*) from ins
    where country is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (country, month, event_type, referrer) do update set count = r.count + excluded.count
  )
  select count(*)::int as inserted from ins`;

/** One batch as one statement: atomic and durable on return (PostgreSQL commits it on its own). */
export async function writeEventBatch(pool: Pool, rows: EventRow[], timeZone: string): Promise<void> {
  await pool.query({
    name: 'analytics_event_batch',
    text: BATCH_SQL,
    values: [
      rows.map((r) => r.eventType),
      rows.map((r) => r.page),
      rows.map((r) => r.referrer),
      rows.map((r) => r.referrerHost),
      rows.map((r) => r.referrerUrl),
      rows.map((r) => r.sessionId),
      rows.map((r) => r.country),
      timeZone,
    ],
  });
}

const sqlState = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

/** Class 22 (data exception) and 23 (constraint violation) come from a row's values. */
const isRowError = (err: unknown) => /^2[23]/.test(sqlState(err));
/** Deadlock and serialization failure: the same batch may succeed when tried again. */
const isTransient = (err: unknown) => sqlState(err) === '40P01' || sqlState(err) === '40001';

export type AnalyticsIngesterOptions = {
  pool: Pool;
  timeZone: string;
  lookupCountry: CountryLookup;
  registry: Registry;
  /** Rows per batch statement. */
  maxBatch?: number;
  /**
   * Batches written at once. Default 1: every batch upserts the same rollup rows (today's counts), so a
   * second concurrent batch only waits for the first one's row locks until its commit; one writer
   * with larger batches stored 30 % more events a second (ADR 051).
   */
  concurrency?: number;
  maxQueue?: number;
};

export function createAnalyticsIngester(options: AnalyticsIngesterOptions) {
  const { pool, timeZone, lookupCountry, registry } = options;

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

  const committer = new GroupCommitter<EventRow>({
    write: async (rows) => {
      await writeEventBatch(pool, rows, timeZone);
      stored.inc(rows.length);
    },
    isRowError,
    isTransient,
    rowRejected: () => new AppError(ERROR_CODES.validation, 'This event could not be stored'),
    unavailable: (reason) =>
      reason === 'closed'
        ? new AppError(ERROR_CODES.internal, 'The server is shutting down')
        : new AppError(ERROR_CODES.rateLimited, 'Too many analytics events right now. Please try again.'),
    maxBatch: options.maxBatch ?? 500,
    concurrency: options.concurrency ?? 1,
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
      const country = await lookupCountry({ headerValue: ctx.countryHeader, ip: ctx.ip });
      await committer.push({
        eventType: event.eventType,
        page: event.page,
        referrer,
        referrerHost: host,
        referrerUrl: address,
        sessionId: event.sessionId,
        country,
      });
      return { stored: true };
    },
    /** Stops taking events and writes every queued one (graceful shutdown). */
    close: () => committer.close(),
  };
}

export type AnalyticsIngester = ReturnType<typeof createAnalyticsIngester>;
