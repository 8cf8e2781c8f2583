import { createAdminAuthRouter } from './admin-auth.router';
import { createAnalyticsRouter } from './analytics.router';
import { createLeadRouter } from './lead.router';
import { router } from './trpc';

export function createAppRouter(options: { supportEmail: string }) {
  return router({
    lead: createLeadRouter(options.supportEmail),
    analytics: createAnalyticsRouter(),
    adminAuth: createAdminAuthRouter(),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
