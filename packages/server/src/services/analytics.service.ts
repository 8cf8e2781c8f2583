import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import type { AnalyticsQuery } from '@uf/shared/analytics-query.schema';
import type { AppConfig } from '../config';
import type { Database } from '../db/database';
import type { Metrics } from '../metrics';
import { createAnalyticsIngester } from './analytics-ingest.service';
import { getAnalyticsSummary, purgeExpiredEvents } from './analytics-report.service';
import { type CountryLookup, createCountryLookup } from './country-lookup';

// Visitor analytics as the rest of the app sees it: ingestion (group commit), the dashboard summary,
// and retention of raw events. One instance per app; close() runs on shutdown (app onClose hook).

const RETENTION_EVERY_MS = 60 * 60 * 1000;
const RETENTION_FIRST_RUN_MS = 60 * 1000;

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

  let retentionTimer: NodeJS.Timeout | undefined;
  let retentionRun: Promise<unknown> | undefined;
  let reportError: (err: unknown) => void = () => {};
  const runRetention = () => {
    retentionRun ??= purgeExpiredEvents(db.pool, config.analyticsRetentionDays)
      // The next hourly run tries again; ingestion never depends on this.
      .catch((err: unknown) => reportError(err))
      .finally(() => {
        retentionRun = undefined;
      });
    return retentionRun;
  };

  return {
    track: ingester.track,
    /** The visitor's country as analytics derives it (also stored on website leads, issue 15). */
    lookupCountry,
    summary: (query: AnalyticsQuery): Promise<AnalyticsSummary> =>
      getAnalyticsSummary(db.pool, query, config.timeZone),
    /** Deletes raw events past ANALYTICS_RETENTION_DAYS a minute after start, then hourly. */
    startRetention(onError: (err: unknown) => void) {
      reportError = onError;
      const first = setTimeout(() => {
        void runRetention();
        retentionTimer = setInterval(() => void runRetention(), RETENTION_EVERY_MS);
        retentionTimer.unref();
      }, RETENTION_FIRST_RUN_MS);
      first.unref();
      retentionTimer = first;
    },
    runRetention,
    /** Graceful shutdown: stop the retention timer, then write every queued event. */
    async close() {
      clearTimeout(retentionTimer);
      clearInterval(retentionTimer);
      await retentionRun;
      await ingester.close();
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
