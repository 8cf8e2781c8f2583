import { MAX_BULK_DELETE } from '@uf/shared/admin-leads';
import type { FastifyRequest } from 'fastify';
import type { AppRouter, Operations } from '../trpc/router';

// The REST surface of the spec (§7) as a table: each row names a path and the tRPC procedure that
// answers it, plus how the request becomes the procedure's input. No behaviour lives here. The hot
// public rows name an operation instead: the same schema and body as that procedure, run without a
// tRPC caller per request (ADR 051).

export type Caller = ReturnType<AppRouter['createCaller']>;

type Params = Record<string, string>;
const params = (req: FastifyRequest) => req.params as Params;
const body = (req: FastifyRequest) => (req.body ?? {}) as Record<string, unknown>;

// A bulk delete of MAX_BULK_DELETE ids is ≈ 8 MB of JSON; everything else keeps the small default.
const BULK_DELETE_BODY_LIMIT = 40 * MAX_BULK_DELETE + 1024;

export type RestRoute = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  /** HTTP status of a successful answer. */
  status?: number;
  /** Request body limit in bytes when a row needs more than the app's default. */
  bodyLimit?: number;
  /** Errors as RFC 9457 application/problem+json (the partner API) instead of {error, message}. */
  problem?: boolean;
  /**
   * An admin row that needs no session (sign-in, sign-out). Every other /api/admin/ row checks the
   * session before the body is read or validated: no session → 401, whatever the body.
   */
  withoutSession?: true;
  /** Answers also an admin who must still set up two-factor sign-in (ADMIN_REQUIRE_2FA, issue 25). */
  whileEnrolling?: true;
} & (
  | { call: (caller: Caller, req: FastifyRequest) => Promise<unknown> }
  /** Runs the operation on the request body. */
  | { operation: keyof Operations }
);

export const restRoutes: RestRoute[] = [
  {
    method: 'POST',
    url: '/api/submit-search',
    operation: 'lead.submit',
  },
  {
    method: 'GET',
    url: '/api/leads/:id',
    call: (c, req) => c.lead.byId({ id: params(req).id ?? '' }),
  },
  {
    method: 'PATCH',
    url: '/api/leads/:id/beneficiary',
    call: (c, req) => c.lead.setBeneficiary({ ...body(req), id: params(req).id ?? '' } as never),
  },
  {
    method: 'POST',
    url: '/api/analytics/track',
    operation: 'analytics.track',
  },
  {
    method: 'GET',
    url: '/api/admin/analytics',
    call: (c, req) => c.analytics.summary(req.query as never),
  },
  {
    method: 'POST',
    url: '/api/unsubscribe',
    call: (c, req) => c.privacy.unsubscribe(req.body as never),
  },
  // Partner API (issue 6): Bearer API key, Idempotency-Key, problem+json errors.
  {
    method: 'POST',
    url: '/api/partner/leads',
    status: 201,
    problem: true,
    operation: 'partner.createLead',
  },
  // Consent evidence and data subject requests (admins).
  {
    method: 'GET',
    url: '/api/admin/leads/:id/consent-receipt',
    call: (c, req) => c.privacy.consentReceipt({ id: params(req).id ?? '' }),
  },
  {
    method: 'POST',
    url: '/api/admin/data-requests/lookup',
    call: (c, req) => c.privacy.lookup(req.body as never),
  },
  {
    method: 'POST',
    url: '/api/admin/data-requests/export',
    call: (c, req) => c.privacy.export(req.body as never),
  },
  {
    method: 'DELETE',
    url: '/api/admin/data-requests',
    call: (c, req) => c.privacy.delete(req.body as never),
  },
  {
    method: 'POST',
    url: '/api/admin/login',
    withoutSession: true,
    call: (c, req) => c.adminAuth.login(req.body as never),
  },
  {
    method: 'POST',
    url: '/api/admin/logout',
    withoutSession: true,
    call: (c) => c.adminAuth.logout(),
  },
  {
    method: 'GET',
    url: '/api/admin/me',
    whileEnrolling: true,
    call: (c) => c.adminAuth.me(),
  },
  // The admin's own account (issue 25): two-factor, password, sessions.
  { method: 'GET', url: '/api/admin/me/totp', whileEnrolling: true, call: (c) => c.adminAccount.twoFactor() },
  {
    method: 'POST',
    url: '/api/admin/me/totp',
    whileEnrolling: true,
    call: (c) => c.adminAccount.startTotp(),
  },
  {
    method: 'POST',
    url: '/api/admin/me/totp/confirm',
    whileEnrolling: true,
    call: (c, req) => c.adminAccount.confirmTotp(body(req) as never),
  },
  {
    method: 'DELETE',
    url: '/api/admin/me/totp',
    call: (c, req) => c.adminAccount.disableTotp(body(req) as never),
  },
  {
    method: 'POST',
    url: '/api/admin/me/totp/recovery-codes',
    call: (c, req) => c.adminAccount.regenerateRecoveryCodes(body(req) as never),
  },
  {
    method: 'POST',
    url: '/api/admin/me/password',
    call: (c, req) => c.adminAccount.changePassword(body(req) as never),
  },
  { method: 'GET', url: '/api/admin/me/sessions', call: (c) => c.adminAccount.sessions() },
  {
    method: 'DELETE',
    url: '/api/admin/me/sessions/:id',
    call: (c, req) => c.adminAccount.endSession({ id: params(req).id ?? '' }),
  },
  {
    method: 'POST',
    url: '/api/admin/me/sessions/revoke-others',
    call: (c) => c.adminAccount.endOtherSessions(),
  },
  // Admin dashboard (issue 4). GET /api/admin/leads, /api/admin/api-leads and the two CSV exports
  // stream and are registered in rest/admin-stream-routes.ts (ADR 003's documented exception).
  { method: 'GET', url: '/api/admin/stats', call: (c) => c.admin.leads.stats() },
  { method: 'GET', url: '/api/admin/api-stats', call: (c) => c.admin.apiLeads.stats() },
  // A lead's own page (issue 26): the lead whole and the audit entries that concern it.
  {
    method: 'GET',
    url: '/api/admin/leads/:id',
    call: (c, req) => c.admin.leads.get({ id: params(req).id ?? '' }),
  },
  {
    method: 'GET',
    url: '/api/admin/leads/:id/audit-log',
    call: (c, req) => c.admin.leads.auditLog({ id: params(req).id ?? '' }),
  },
  {
    method: 'GET',
    url: '/api/admin/api-leads/:id',
    call: (c, req) => c.admin.apiLeads.get({ id: params(req).id ?? '' }),
  },
  {
    method: 'GET',
    url: '/api/admin/api-leads/:id/audit-log',
    call: (c, req) => c.admin.apiLeads.auditLog({ id: params(req).id ?? '' }),
  },
  {
    method: 'DELETE',
    url: '/api/admin/leads/:id',
    call: (c, req) => c.admin.leads.remove({ id: params(req).id ?? '' }),
  },
  {
    method: 'DELETE',
    url: '/api/admin/leads',
    bodyLimit: BULK_DELETE_BODY_LIMIT,
    call: (c, req) => c.admin.leads.bulkRemove(body(req) as never),
  },
  // "Select all N matching" (issue 26): {filters, expectedCount} instead of ids.
  {
    method: 'DELETE',
    url: '/api/admin/leads/matching',
    call: (c, req) => c.admin.leads.removeMatching(body(req) as never),
  },
  {
    method: 'DELETE',
    url: '/api/admin/api-leads/matching',
    call: (c, req) => c.admin.apiLeads.removeMatching(body(req) as never),
  },
  {
    method: 'DELETE',
    url: '/api/admin/api-leads/:id',
    call: (c, req) => c.admin.apiLeads.remove({ id: params(req).id ?? '' }),
  },
  {
    method: 'DELETE',
    url: '/api/admin/api-leads',
    bodyLimit: BULK_DELETE_BODY_LIMIT,
    call: (c, req) => c.admin.apiLeads.bulkRemove(body(req) as never),
  },
  { method: 'POST', url: '/api/admin/backup', call: (c) => c.admin.backup() },
  // The backup files (issue 26); GET /api/admin/backups/:name streams (rest/admin-stream-routes.ts).
  { method: 'GET', url: '/api/admin/backups', call: (c) => c.admin.backups.list() },
  {
    method: 'DELETE',
    url: '/api/admin/backups/:name',
    call: (c, req) => c.admin.backups.remove({ name: params(req).name ?? '' }),
  },
  { method: 'GET', url: '/api/admin/audit-log', call: (c, req) => c.admin.auditLog(req.query as never) },
];
