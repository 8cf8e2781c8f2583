import {
  adminSessionsSchema,
  emailSettingsOutputSchema,
  passwordChangedSchema,
  recoveryCodesSchema,
  sessionsEndedSchema,
  testEmailSentSchema,
  totpEnrolmentSchema,
  twoFactorStatusSchema,
} from '@uf/shared/admin.output';
import {
  changePasswordSchema,
  confirmTotpSchema,
  disableTotpSchema,
  sessionIdSchema,
} from '@uf/shared/admin.schema';
import { emailSettingsSchema } from '@uf/shared/email-reports.schema';
import { okSchema } from '@uf/shared/output-fields';
import * as z from 'zod/mini';
import {
  type AccountDeps,
  changePassword,
  confirmTotpEnrolment,
  disableTotp,
  endMyOtherSessions,
  endMySession,
  mySessions,
  regenerateRecoveryCodes,
  startTotpEnrolment,
  twoFactorStatus,
} from '../admin/admin-account.service';
import type { SignedInAdmin } from '../plugins/admin-guard';
import type { Context } from './context';
import { applyOutcome } from './outcome';
import { adminProcedure, enrollingAdminProcedure, restAt, router } from './trpc';

// The signed-in admin's own account (issue 25). Two-factor status and enrolment answer also an admin who
// must still enrol (ADMIN_REQUIRE_2FA); everything else needs the enrolment done when it is required.

const deps = (ctx: Context & { admin: SignedInAdmin }): AccountDeps => ({
  em: ctx.services.em(),
  pool: ctx.services.db.pool,
  admin: ctx.admin,
  ip: ctx.req.ip,
  sessionId: ctx.req.session.sessionId,
  scryptLogN: ctx.config.adminPasswordScryptLogN,
  requireTwoFactor: ctx.config.adminRequireTwoFactor,
  secondFactorAlert: (locked) => ctx.services.emailReports.alerts.secondFactorLocked(locked),
});

const acting = (ctx: Context & { admin: SignedInAdmin }) => ({
  id: ctx.admin.id,
  username: ctx.admin.username,
  ip: ctx.req.ip,
});

export function createAdminAccountRouter() {
  return router({
    twoFactor: enrollingAdminProcedure
      .meta(restAt('GET', '/api/admin/me/totp'))
      .output(twoFactorStatusSchema)
      .query(({ ctx }) => twoFactorStatus(deps(ctx))),
    startTotp: enrollingAdminProcedure
      .meta(restAt('POST', '/api/admin/me/totp'))
      .output(totpEnrolmentSchema)
      .mutation(({ ctx }) => startTotpEnrolment(deps(ctx))),
    confirmTotp: enrollingAdminProcedure
      .meta(restAt('POST', '/api/admin/me/totp/confirm'))
      .input(confirmTotpSchema)
      .output(recoveryCodesSchema)
      .mutation(async ({ ctx, input }) =>
        applyOutcome(ctx.req, await confirmTotpEnrolment(deps(ctx), input)),
      ),
    disableTotp: adminProcedure
      .meta(restAt('DELETE', '/api/admin/me/totp'))
      .input(disableTotpSchema)
      .output(okSchema)
      .mutation(async ({ ctx, input }) => applyOutcome(ctx.req, await disableTotp(deps(ctx), input))),
    regenerateRecoveryCodes: adminProcedure
      .meta(restAt('POST', '/api/admin/me/totp/recovery-codes'))
      .input(z.object({ code: confirmTotpSchema.shape.code }))
      .output(recoveryCodesSchema)
      .mutation(({ ctx, input }) => regenerateRecoveryCodes(deps(ctx), input)),
    changePassword: adminProcedure
      .meta(restAt('POST', '/api/admin/me/password'))
      .input(changePasswordSchema)
      .output(passwordChangedSchema)
      .mutation(({ ctx, input }) => changePassword(deps(ctx), input)),
    sessions: adminProcedure
      .meta(restAt('GET', '/api/admin/me/sessions'))
      .output(adminSessionsSchema)
      .query(({ ctx }) => mySessions(deps(ctx))),
    endSession: adminProcedure
      .meta(restAt('DELETE', '/api/admin/me/sessions/:id'))
      .input(sessionIdSchema)
      .output(okSchema)
      .mutation(({ ctx, input }) => endMySession(deps(ctx), input)),
    endOtherSessions: adminProcedure
      .meta(restAt('POST', '/api/admin/me/sessions/revoke-others'))
      .output(sessionsEndedSchema)
      .mutation(({ ctx }) => endMyOtherSessions(deps(ctx))),
    // E-mail reports and alerts (issue 24, ADR 063): the admin's address and opt-ins, and a test e-mail.
    emailSettings: adminProcedure
      .meta(restAt('GET', '/api/admin/me/email'))
      .output(emailSettingsOutputSchema)
      .query(({ ctx }) => ctx.services.emailReports.settings(ctx.admin.id)),
    updateEmailSettings: adminProcedure
      .meta(restAt('PATCH', '/api/admin/me/email'))
      .input(emailSettingsSchema)
      .output(emailSettingsOutputSchema)
      .mutation(({ ctx, input }) => ctx.services.emailReports.updateSettings(acting(ctx), input)),
    sendTestEmail: adminProcedure
      .meta(restAt('POST', '/api/admin/me/email/test'))
      .output(testEmailSentSchema)
      .mutation(({ ctx }) => ctx.services.emailReports.sendTest(acting(ctx))),
  });
}
