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

/**
 * A backup's file name (issue 26). Any text is accepted here: the server answers 404 for whatever is
 * not a backup in BACKUP_DIR (a path, `..`), so a probe learns nothing from a 400.
 */
export const backupNameSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(1000)),
});
