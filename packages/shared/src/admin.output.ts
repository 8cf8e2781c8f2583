import { z } from 'zod';
import { count, dateTime, flag, instant, nullableText, text } from './output-fields';

// What the admin's own operations answer (issue 23: their procedures' `.output()`): sign-in, the
// account (two-factor, password, sessions, e-mail settings) and the backups.

export const signInOutputSchema = z.object({
  username: text(),
  twoFactorSetupRequired: z.literal(true).optional().describe('Only with ADMIN_REQUIRE_2FA'),
});
export const meOutputSchema = z.object({ username: text() });

export const twoFactorStatusSchema = z.object({
  enabled: flag(),
  recoveryCodesLeft: count('Unused recovery codes'),
  required: flag('ADMIN_REQUIRE_2FA is on'),
});
export const totpEnrolmentSchema = z.object({
  secret: text('Base32'),
  otpauthUrl: text('otpauth://totp/…'),
});
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(text('xxxx-xxxx-xxxx-xxxx')).min(10).max(10),
});
export const passwordChangedSchema = z.object({ ok: z.literal(true), endedSessions: count() });
export const adminSessionsSchema = z.array(
  z.object({
    id: text(),
    createdAt: instant(),
    lastSeenAt: instant(),
    ip: nullableText(),
    userAgent: nullableText(),
    browser: text('Chrome on Windows'),
    current: flag('The session of this request'),
  }),
);
export const sessionsEndedSchema = z.object({ ended: count() });

export const emailSettingsOutputSchema = z.object({
  email: text("The admin's address; empty when none"),
  dailySummary: flag(),
  weeklySummary: flag(),
  monthlySummary: flag(),
  alerts: flag(),
  configured: flag('SMTP_URL is set: the server can send e-mail'),
});
export const testEmailSentSchema = z.object({ ok: z.literal(true), to: text('The address it went to') });

export const backupWrittenSchema = z.object({ filepath: text() });
export const backupFilesSchema = z.array(
  z.object({
    name: text('File name in BACKUP_DIR'),
    createdAt: dateTime('When the file was written, ISO 8601 UTC'),
    sizeBytes: count('Size in bytes'),
    source: z.enum(['app', 'scheduled', 'other']).describe('Who made it'),
  }),
);
export const backupDeletedSchema = z.object({ name: text(), deleted: z.literal(true) });
