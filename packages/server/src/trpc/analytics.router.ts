import { analyticsSummarySchema, trackedSchema } from '@uf/shared/analytics.output';
import { trackEventSchema } from '@uf/shared/analytics.schema';
import { analyticsQuerySchema } from '@uf/shared/analytics-query.schema';
import { clientIp, headerValue } from './request-meta';
import { adminProcedure, mutationOf, operation, restAt, router } from './trpc';

/** POST /api/analytics/track: answered after the event's batch committed (or at once when it is not counted, e.g. a bot). */
export const trackOperation = operation(trackEventSchema, async (ctx, input) => {
  const { req } = ctx;
  await ctx.services.analytics.track(input, {
    userAgent: headerValue(req, 'user-agent'),
    secChUa: headerValue(req, 'sec-ch-ua'),
    ip: clientIp(req),
    countryHeader: headerValue(req, ctx.config.analyticsCountryHeader),
    host: req.host,
  });
  return { ok: true as const };
});

export function createAnalyticsRouter() {
  return router({
    track: mutationOf(trackOperation, restAt('POST', '/api/analytics/track'), trackedSchema),
    summary: adminProcedure
      .meta(restAt('GET', '/api/admin/analytics'))
      .input(analyticsQuerySchema)
      .output(analyticsSummarySchema)
      .query(({ ctx, input }) => ctx.services.analytics.summary(input)),
  });
}
