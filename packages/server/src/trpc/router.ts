import { createAdminRouter } from './admin.router';
import { createAdminAccountRouter } from './admin-account.router';
import { createAdminAuthRouter } from './admin-auth.router';
import { createAnalyticsRouter, trackOperation } from './analytics.router';
import { createLeadRouter, submitLeadOperation } from './lead.router';
import { createPartnerLeadOperation, createPartnerRouter } from './partner.router';
import { createPrivacyRouter } from './privacy.router';
import { router } from './trpc';

/** The operations the REST table's hot public rows run directly (ADR 051); the router serves them too. */
export function createOperations(options: { supportEmail: string }) {
  return {
    'lead.submit': submitLeadOperation(options.supportEmail),
    'analytics.track': trackOperation,
    'partner.createLead': createPartnerLeadOperation,
  };
}
export type Operations = ReturnType<typeof createOperations>;

export function createAppRouter(options: { supportEmail: string }, operations = createOperations(options)) {
  return router({
    lead: createLeadRouter(operations['lead.submit']),
    analytics: createAnalyticsRouter(),
    adminAuth: createAdminAuthRouter(),
    adminAccount: createAdminAccountRouter(),
    privacy: createPrivacyRouter(options.supportEmail),
    partner: createPartnerRouter(),
    admin: createAdminRouter(),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
