import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import type { AnalyticsQuery } from '@uf/shared/analytics-query.schema';
import type { AppConfig } from '../config';
import type { Database } from '../db/database';
import type { Metrics } from '../metrics';
import { periodicJob } from '../platform/periodic-job';
import { createAnalyticsIngester } from './analytics-ingest.service';
import { getAnalyticsSummary, purgeExpiredEvents } from './analytics-report.service';
import { type CountryLookup, createCountryLookup } from './country-lookup';

// Visitor analytics as the rest of the app sees it: ingestion (group commit), the dashboard summary,
// and its upkeep: retention of raw events, and folding the lead rollups' delta rows (ADR 055). One
// instance per app; close() runs on shutdown (app onClose hook).

const MINUTE_MS = 60 * 1000;

export function createAnalyticsService(options: {
  db: Database;
  config: AppConfig;
  metrics: Metrics;
  /** Defaults to the configured header, then the offline country database. */
  lookupCountry?: CountryLookup;
}) {
  const { db, config } = options;
  const lookupCountry = options.lookupCountry ?? createCountryLookup(config.analyticsCountryHeader);
  const ingester = createAnalyticsIngester({
    pool: db.pool,
    timeZone: config.timeZone,
    lookupCountry,
    registry: options.metrics.registry,
  });
  // Raw events past ANALYTICS_RETENTION_DAYS: a minute after start, then hourly.
  const retention = periodicJob(
    () => purgeExpiredEvents(db.pool, config.analyticsRetentionDays),
    MINUTE_MS,
    60 * MINUTE_MS,
  );
  // Lead submissions and track batches append delta rows to their rollups; each minute folds them to
  // one row per key (issue 23 for the analytics ones).
  const leadRollups = periodicJob(
    async () => {
      await db.pool.query('select compact_lead_source_rollups()');
      await db.pool.query('select compact_lead_quality_rollups()');
      await db.pool.query('select compact_analytics_rollups()');
    },
    MINUTE_MS,
    MINUTE_MS,
  );

  return {
    track: ingester.track,
    /** The cookieless visitor id, as the events are counted by (ADR 055; landing experiments, ADR 075). */
    visitorId: ingester.visitorId,
    /** The visitor's country as analytics derives it (also stored on website leads, issue 15). */
    lookupCountry,
    summary: (query: AnalyticsQuery): Promise<AnalyticsSummary> =>
      getAnalyticsSummary(db.pool, query, config.timeZone),
    /** Starts the periodic upkeep: event retention and lead-rollup compaction. */
    startUpkeep(onError: (err: unknown) => void) {
      retention.start(onError);
      leadRollups.start(onError);
    },
    runRetention: retention.run,
    compactLeadRollups: leadRollups.run,
    /** Graceful shutdown: stop the upkeep, then write every queued event. */
    async close() {
      await Promise.all([retention.stop(), leadRollups.stop()]);
      await ingester.close();
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
