import * as z from 'zod/mini';
import { LOGIN_MESSAGES } from './messages';

// zod/mini: the web ships this schema, and mini keeps zod's shared core small in every bundle (ADR 005).
export const loginSchema = z.object({
  username: z
    .string({ error: LOGIN_MESSAGES.usernameRequired })
    .check(
      z.trim(),
      z.minLength(1, LOGIN_MESSAGES.usernameRequired),
      z.maxLength(100, 'Username is too long'),
    ),
  password: z
    .string({ error: LOGIN_MESSAGES.passwordRequired })
    .check(z.minLength(1, LOGIN_MESSAGES.passwordRequired), z.maxLength(200, 'Password is too long')),
});
export type LoginInput = z.infer<typeof loginSchema>;

/**
 * The one way user names are compared (sign-in, its limits, admin creation and look-ups): trimmed,
 * Unicode-normalised and case-folded, so "Victim " and "victim" are one account everywhere (issue 22).
 */
export const usernameKey = (username: string) => username.trim().normalize('NFKC').toLowerCase();

/** A six-digit TOTP code as an authenticator app shows it (spaces allowed, e.g. "123 456"). */
export const totpCodeSchema = z.string({ error: 'Enter the 6-digit code' }).check(
  z.trim(),
  z.overwrite((v) => v.replace(/\s+/g, '')),
  z.regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
);

/** A recovery code as shown once at enrolment (xxxx-xxxx-xxxx-xxxx; case, spaces and dashes ignored). */
export const recoveryCodeSchema = z
  .string({ error: 'Enter a recovery code' })
  .check(z.trim(), z.minLength(1, 'Enter a recovery code'), z.maxLength(40, 'Recovery code is too long'));

/**
 * Sign-in (spec §6: username and password). An account with two-factor on also needs `totp` or
 * `recoveryCode` (issue 25); without either the answer is 401 `totp_required`.
 */
export const signInSchema = z.extend(loginSchema, {
  totp: z.optional(totpCodeSchema),
  recoveryCode: z.optional(recoveryCodeSchema),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const MIN_NEW_PASSWORD = 12;

export const confirmTotpSchema = z.object({ code: totpCodeSchema });
export const disableTotpSchema = z.object({
  password: z
    .string({ error: LOGIN_MESSAGES.passwordRequired })
    .check(z.minLength(1, LOGIN_MESSAGES.passwordRequired), z.maxLength(200, 'Password is too long')),
  /** The 6-digit code, or one of the recovery codes (a lost phone must not keep two-factor on). */
  code: z
    .string({ error: 'Enter a code' })
    .check(z.trim(), z.minLength(1, 'Enter a code'), z.maxLength(40, 'Code is too long')),
});
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .check(z.minLength(1, 'Current password is required'), z.maxLength(200, 'Password is too long')),
  newPassword: z
    .string({ error: 'New password is required' })
    .check(
      z.minLength(MIN_NEW_PASSWORD, `New password must be at least ${MIN_NEW_PASSWORD} characters`),
      z.maxLength(200, 'Password is too long'),
    ),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export const sessionIdSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
});

/**
 * A backup's file name (issue 26). Any text is accepted here: the server answers 404 for whatever is
 * not a backup in BACKUP_DIR (a path, `..`), so a probe learns nothing from a 400.
 */
export const backupNameSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(1000)),
});
