import { analyticsQuerySchema, trackEventSchema } from '@uf/shared/analytics.schema';
import { adminProcedure, mutationOf, operation, router } from './trpc';

/** POST /api/analytics/track: answered after the event's batch committed (or at once when it is not counted, e.g. a bot). */
export const trackOperation = operation(trackEventSchema, async (ctx, input) => {
  const { req } = ctx;
  const header = (name: string | undefined) => {
    const value = name ? req.headers[name] : undefined;
    return Array.isArray(value) ? value[0] : value;
  };
  await ctx.services.analytics.track(input, {
    userAgent: header('user-agent'),
    secChUa: header('sec-ch-ua'),
    ip: req.ip || null,
    countryHeader: header(ctx.config.analyticsCountryHeader),
    host: req.host,
  });
  return { ok: true as const };
});

export function createAnalyticsRouter() {
  return router({
    track: mutationOf(trackOperation),
    summary: adminProcedure
      .input(analyticsQuerySchema)
      .query(({ ctx, input }) => ctx.services.analytics.summary(input)),
  });
}
