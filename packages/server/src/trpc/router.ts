import { createAdminRouter } from './admin.router';
import { createAdminAuthRouter } from './admin-auth.router';
import { createAnalyticsRouter } from './analytics.router';
import { createLeadRouter } from './lead.router';
import { createPartnerRouter } from './partner.router';
import { createPrivacyRouter } from './privacy.router';
import { router } from './trpc';

export function createAppRouter(options: { supportEmail: string }) {
  return router({
    lead: createLeadRouter(options.supportEmail),
    analytics: createAnalyticsRouter(),
    adminAuth: createAdminAuthRouter(),
    privacy: createPrivacyRouter(options.supportEmail),
    partner: createPartnerRouter(),
    admin: createAdminRouter(),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
