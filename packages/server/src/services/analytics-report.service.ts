import {
  ANALYTICS_TOP_LIMIT,
  type AnalyticsQuery,
  type AnalyticsSummary,
  CLICK_EVENT_TYPES,
} from '@uf/shared/analytics.schema';
import type { AnalyticsEventType } from '@uf/shared/constants';
import type { Pool, PoolClient } from 'pg';

// The dashboard's numbers, read from the daily rollups only (ADR 020): the work depends on the number
// of days, countries and referrers in range, never on the number of events. A 'day' is a calendar day
// in TIME_ZONE; startDate and endDate are inclusive days in that zone.

type Where = { sql: string; params: unknown[] };

function whereOf(q: AnalyticsQuery, withCountry: boolean): Where {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    parts.push(clause.replace('?', `$${params.length}`));
  };
  if (q.startDate) add('day >= ?::date', q.startDate);
  if (q.endDate) add('day <= ?::date', q.endDate);
  if (q.eventType) add('event_type = ?', q.eventType);
  if (withCountry && q.country) add('country = ?', q.country);
  return { sql: parts.length ? `where ${parts.join(' and ')}` : '', params };
}

type CountRow = { count: string };

export async function getAnalyticsSummary(pool: Pool, q: AnalyticsQuery): Promise<AnalyticsSummary> {
  const byCountry = Boolean(q.country);
  const where = whereOf(q, true);
  const [activity, countries, referrers] = await Promise.all([
    pool.query<CountRow & { day: string; event_type: AnalyticsEventType }>(
      `select day::text as day, event_type, sum(count)::text as count
       from ${byCountry ? 'analytics_daily_country' : 'analytics_daily_type'} ${where.sql}
       group by day, event_type order by day`,
      where.params,
    ),
    pool.query<CountRow & { country: string }>(
      `select country, sum(count)::text as count from analytics_daily_country ${where.sql}
       group by country order by sum(count) desc, country`,
      where.params,
    ),
    pool.query<CountRow & { referrer: string }>(
      `select referrer, sum(count)::text as count
       from ${byCountry ? 'analytics_daily_country_referrer' : 'analytics_daily_referrer'} ${where.sql}
       group by referrer order by sum(count) desc, referrer limit ${ANALYTICS_TOP_LIMIT}`,
      where.params,
    ),
  ]);

  const clickTypes = new Set<string>(CLICK_EVENT_TYPES);
  const days = new Map<string, AnalyticsSummary['dailyViews'][number]>();
  let totalPageViews = 0;
  let totalClicks = 0;
  let totalSurveyStarts = 0;
  for (const row of activity.rows) {
    const count = Number(row.count);
    let entry = days.get(row.day);
    if (!entry) {
      entry = { date: row.day, views: 0, clicks: 0, surveyStarts: 0 };
      days.set(row.day, entry);
    }
    if (row.event_type === 'page_view') {
      entry.views += count;
      totalPageViews += count;
    } else if (row.event_type === 'survey_started') {
      entry.surveyStarts += count;
      totalSurveyStarts += count;
    } else if (clickTypes.has(row.event_type)) {
      entry.clicks += count;
      totalClicks += count;
    }
  }

  return {
    totalPageViews,
    totalClicks,
    totalSurveyStarts,
    uniqueCountries: countries.rows.length,
    topCountries: countries.rows
      .slice(0, ANALYTICS_TOP_LIMIT)
      .map((r) => ({ country: r.country, count: Number(r.count) })),
    topReferrers: referrers.rows.map((r) => ({ referrer: r.referrer, count: Number(r.count) })),
    dailyViews: [...days.values()],
  };
}

const ROLLUP_TABLES = [
  'analytics_daily_type',
  'analytics_daily_country',
  'analytics_daily_referrer',
  'analytics_daily_country_referrer',
] as const;

/**
 * Recomputes the rollups from the raw events, from `fromDay` on (default: the first day whose raw
 * events are all still there — retention may have cut into the oldest one). Days before it keep their
 * rollups: they are the only record left once raw events have expired. Ingestion waits meanwhile.
 */
export async function rebuildRollups(
  pool: Pool,
  options: { timeZone: string; retentionDays: number; fromDay?: string },
): Promise<{ fromDay: string | null; events: number }> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`lock table ${ROLLUP_TABLES.join(', ')} in exclusive mode`);
    const fromDay =
      options.fromDay ?? (await firstCompleteDay(client, options.timeZone, options.retentionDays));
    if (!fromDay) {
      await client.query('commit');
      return { fromDay: null, events: 0 };
    }
    const tz = options.timeZone;
    // Raw events whose local day is fromDay or later: the bound is the start of that day in tz.
    const source = `(select event_type, country, referrer_url, (created_at at time zone $1)::date as day
       from analytics_event where created_at >= ($2::date)::timestamp at time zone $1) e`;
    for (const table of ROLLUP_TABLES) {
      await client.query(`delete from ${table} where day >= $1::date`, [fromDay]);
    }
    const inserted = await client.query<{ count: string }>(
      `insert into analytics_daily_type (day, event_type, count)
       select day, event_type, count(*) from ${source} group by day, event_type
       returning count`,
      [tz, fromDay],
    );
    await client.query(
      `insert into analytics_daily_country (day, event_type, country, count)
       select day, event_type, country, count(*) from ${source} where country is not null
       group by day, event_type, country`,
      [tz, fromDay],
    );
    await client.query(
      `insert into analytics_daily_referrer (day, event_type, referrer, count)
       select day, event_type, coalesce(referrer_url, 'unknown'), count(*) from ${source}
       group by day, event_type, coalesce(referrer_url, 'unknown')`,
      [tz, fromDay],
    );
    await client.query(
      `insert into analytics_daily_country_referrer (country, day, event_type, referrer, count)
       select country, day, event_type, coalesce(referrer_url, 'unknown'), count(*) from ${source}
       where country is not null group by country, day, event_type, coalesce(referrer_url, 'unknown')`,
      [tz, fromDay],
    );
    await client.query('commit');
    return { fromDay, events: inserted.rows.reduce((sum, r) => sum + Number(r.count), 0) };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function firstCompleteDay(client: PoolClient, timeZone: string, retentionDays: number) {
  const { rows } = await client.query<{ first_day: string | null; complete: boolean | null }>(
    `select first_day::text as first_day,
            (first_day::timestamp at time zone $1) >= now() - make_interval(days => $2) as complete
     from (select (min(created_at) at time zone $1)::date as first_day from analytics_event) f`,
    [timeZone, retentionDays],
  );
  const row = rows[0];
  if (!row?.first_day) return null;
  if (row.complete) return row.first_day;
  const next = new Date(`${row.first_day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** Deletes raw events older than the retention period, oldest first, in bounded chunks. */
export async function purgeExpiredEvents(pool: Pool, retentionDays: number, chunk = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from analytics_event where (created_at, id) in (
         select created_at, id from analytics_event
         where created_at < now() - make_interval(days => $1)
         order by created_at limit $2)`,
      [retentionDays, chunk],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < chunk) return total;
  }
}
