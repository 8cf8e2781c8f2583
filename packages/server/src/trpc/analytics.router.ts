import { trackEventSchema } from '@uf/shared/analytics.schema';
import { trackEvent } from '../services/analytics.service';
import { publicProcedure, router } from './trpc';

export function createAnalyticsRouter() {
  return router({
    track: publicProcedure.input(trackEventSchema).mutation(async ({ ctx, input }) => {
      await trackEvent(ctx.services.db, input);
      return { ok: true as const };
    }),
  });
}
