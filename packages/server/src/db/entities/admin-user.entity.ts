import { defineEntity, p } from '@mikro-orm/core';

export const AdminUser = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_user',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    username: p.text(),
    passwordHash: p.text().hidden(),
    /** Base32 TOTP secret once two-factor is confirmed (issue 25); null while it is off. */
    totpSecret: p.text().nullable().hidden(),
    /** Secret of an enrolment started but not yet confirmed with a code. */
    totpPendingSecret: p.text().nullable().hidden(),
    totpEnabledAt: p.datetime().nullable(),
    /** The last 30-second step whose code was accepted: a code is never accepted twice. */
    totpLastStep: p.integer().nullable(),
    /** Where this admin's e-mail reports and alerts go (issue 24, ADR 063); null: none. */
    email: p.text().nullable(),
    emailDailySummary: p.boolean().default(false),
    emailWeeklySummary: p.boolean().default(false),
    emailMonthlySummary: p.boolean().default(false),
    emailAlerts: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
