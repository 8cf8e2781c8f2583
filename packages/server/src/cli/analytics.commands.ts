import { purgeExpiredEvents, rebuildRollups } from '../analytics/analytics-report.service';
import { type CliCommand, stringFlag, UsageError } from './command';

export const analyticsCommands: CliCommand[] = [
  {
    name: 'analytics:rebuild-rollups',
    options: {
      from: {
        type: 'string',
        value: 'YYYY-MM-DD',
        description: 'Rebuild from this day on (default: all days).',
      },
    },
    description:
      "Recompute the dashboard's daily analytics counts from the raw events, and the sales' money by day (e.g. after changing TIME_ZONE).",
    async run(ctx, args) {
      const fromDay = stringFlag(args, 'from');
      if (fromDay !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(fromDay)) {
        throw new UsageError('--from must be a date in the form YYYY-MM-DD');
      }
      const result = await ctx.withDatabase(({ db }) =>
        rebuildRollups(db.pool, {
          timeZone: ctx.config.timeZone,
          retentionDays: ctx.config.analyticsRetentionDays,
          fromDay,
        }),
      );
      ctx.out(
        result.fromDay
          ? `Rebuilt analytics rollups from ${result.fromDay} (${ctx.config.timeZone}): ${result.events} events.`
          : 'No raw analytics events: nothing to rebuild.',
      );
    },
  },
  {
    name: 'analytics:purge',
    description:
      'Delete raw analytics events older than ANALYTICS_RETENTION_DAYS now (the server does this hourly).',
    async run(ctx) {
      const deleted = await ctx.withDatabase(({ db }) =>
        purgeExpiredEvents(db.pool, ctx.config.analyticsRetentionDays),
      );
      ctx.out(
        `Deleted ${deleted} raw analytics events older than ${ctx.config.analyticsRetentionDays} days.`,
      );
    },
  },
];
