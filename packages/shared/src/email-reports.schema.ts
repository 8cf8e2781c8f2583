import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './lead.schema';

// An admin's e-mail reports and alerts (issue 24, ADR 063): the address they go to and what the admin
// opted in to. The server validates with it, the Account page's form too.

export const EMAIL_SETTINGS_MESSAGES = {
  emailInvalid: 'Enter a valid e-mail address, e.g. admin@example.com',
  emailTooLong: 'E-mail address must be at most 254 characters',
  emailNeeded: 'Add your e-mail address to receive reports or alerts',
} as const;

export const emailSettingsSchema = z
  .object({
    /** '' means no address (and then nothing can be opted in). */
    email: z.string({ error: EMAIL_SETTINGS_MESSAGES.emailInvalid }).check(
      z.trim(),
      z.maxLength(254, EMAIL_SETTINGS_MESSAGES.emailTooLong),
      z.refine((v) => v === '' || EMAIL_PATTERN.test(v), EMAIL_SETTINGS_MESSAGES.emailInvalid),
    ),
    dailySummary: z.boolean(),
    weeklySummary: z.boolean(),
    /** Left out: kept as it is (clients from before the monthly summary send only the other three). */
    monthlySummary: z.optional(z.boolean()),
    alerts: z.boolean(),
  })
  .check(
    z.refine((v) => v.email !== '' || !(v.dailySummary || v.weeklySummary || v.monthlySummary || v.alerts), {
      message: EMAIL_SETTINGS_MESSAGES.emailNeeded,
      path: ['email'],
    }),
  );
export type EmailSettingsInput = z.infer<typeof emailSettingsSchema>;

/** What the Account page shows: the settings, and whether the server can send mail at all (SMTP_URL). */
export type EmailSettings = Required<EmailSettingsInput> & { configured: boolean };
