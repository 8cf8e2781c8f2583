import { randomInt } from 'node:crypto';
import { usernameKey } from '@uf/shared/admin.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import { Secret, TOTP } from 'otpauth';
import type { Pool } from 'pg';
import { AppError, rateLimitedError } from '../errors';
import { hitRateLimit, refundRateLimit } from '../platform/rate-limit.service';
import { sha256Hex } from '../platform/sha256';
import { recordAudit } from './audit.service';

// TOTP two-factor sign-in (RFC 6238: SHA-1, 6 digits, 30-second steps, one step either side) and single-use
// recovery codes (issue 25, ADR 058). Knows nothing of HTTP; the account and sign-in services call it.

export const TOTP_ISSUER = 'Unclaimed Funds Finder';
const PERIOD_SECONDS = 30;
const WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
// 32 letters and digits without I, O, 0, 1: 16 of them are 80 random bits, beyond guessing or brute force
// of the stored SHA-256 (so no slow hash is needed for them).
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function totpOf(secretBase32: string, label: string) {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended length) and its otpauth:// URL for the QR code. */
export function newTotpSecret(label: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, label).toString() };
}

/** The 30-second step a code belongs to if it is valid now (±1 step), else null. */
export function totpStepOf(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secretBase32, 'x').validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Accepts a TOTP code for an admin with two-factor on, once: the step is recorded in the same statement
 * that checks it is newer than the last one accepted, so a code (or an older one) is never accepted twice,
 * not even by two replicas at the same moment.
 */
export async function acceptTotp(pool: Pool, adminId: string, code: string): Promise<boolean> {
  const { rows } = await pool.query<{ totp_secret: string | null }>(
    'select totp_secret from admin_user where id = $1',
    [adminId],
  );
  const secret = rows[0]?.totp_secret;
  if (!secret) return false;
  const step = totpStepOf(secret, code);
  if (step === null) return false;
  const updated = await pool.query(
    `update admin_user set totp_last_step = $2
     where id = $1 and totp_secret = $3 and (totp_last_step is null or totp_last_step < $2)`,
    [adminId, step, secret],
  );
  return updated.rowCount === 1;
}

export function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

const hashRecoveryCode = (code: string) => sha256Hex(normaliseRecoveryCode(code));

function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < 16; i++) raw += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return raw.match(/.{4}/g)?.join('-') ?? raw;
}

/** Replaces an admin's recovery codes with ten new ones; answers them in clear, the only time. */
export async function replaceRecoveryCodes(pool: Pool, adminId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await pool.query(
    `with gone as (delete from admin_recovery_code where admin_id = $1)
     insert into admin_recovery_code (admin_id, code_hash) select $1, unnest($2::text[])`,
    [adminId, codes.map(hashRecoveryCode)],
  );
  return codes;
}

/** Uses up one recovery code (atomically: a code works once). Answers the codes left, or null. */
/** Uses a recovery code: the codes left, 'used' for one of this admin's codes already used, else null. */
export async function useRecoveryCode(
  pool: Pool,
  adminId: string,
  code: string,
): Promise<number | 'used' | null> {
  const hash = hashRecoveryCode(code);
  const used = await pool.query(
    `update admin_recovery_code set used_at = now()
     where admin_id = $1 and code_hash = $2 and used_at is null`,
    [adminId, hash],
  );
  if (used.rowCount === 1) return countRecoveryCodes(pool, adminId);
  // Said as such (issue 37): only someone who knows the password gets this far.
  const before = await pool.query(
    'select 1 from admin_recovery_code where admin_id = $1 and code_hash = $2',
    [adminId, hash],
  );
  return before.rowCount ? 'used' : null;
}

export async function countRecoveryCodes(pool: Pool, adminId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'select count(*)::int as n from admin_recovery_code where admin_id = $1 and used_at is null',
    [adminId],
  );
  return rows[0]?.n ?? 0;
}

/** Turns two-factor off (secret, pending enrolment and recovery codes gone). Answers whether it was on. */
export async function clearTwoFactor(pool: Pool, adminId: string): Promise<void> {
  await pool.query(
    `update admin_user set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null,
       totp_last_step = null where id = $1`,
    [adminId],
  );
  await pool.query('delete from admin_recovery_code where admin_id = $1', [adminId]);
}

export function wrongCode(field: string, message: string): AppError {
  return new AppError(ERROR_CODES.validation, message, [{ field, message }]);
}

/**
 * The second factor's own limit, per account across every address (issue 38, ADR 066): the per-address
 * limits alone let 30 addresses try 300 codes. After `failures` wrong codes (TOTP or recovery) in the
 * window the code step answers 429 to every address until the window ends, the right code included.
 * Only someone who knows the password reaches this step, so a stranger cannot lock the admin out; the
 * password step itself keeps the limits of ADR 056.
 */
export const SECOND_FACTOR_LIMITS = { failures: 5, windowSeconds: 15 * 60 };

/** Tells the admin their code step was locked (an e-mail when SMTP is set). Must not throw. */
export type SecondFactorAlert = (input: {
  adminId: string;
  username: string;
  ip: string;
  failures: number;
  retryAfterSeconds: number;
}) => Promise<unknown>;

/**
 * Runs `check` (does the code pass?) behind the account's second-factor limit. Each attempt reserves its
 * place in the count before the code is checked, so a burst of parallel guesses gets no more tries than
 * a sequence; a code that passes gives its place back. The wrong code that reaches the limit is audited
 * (`admin.second_factor_locked`) and the admin alerted.
 */
export async function checkSecondFactor(
  deps: { pool: Pool; alert?: SecondFactorAlert },
  who: { adminId: string; username: string; ip: string },
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { failures, windowSeconds } = SECOND_FACTOR_LIMITS;
  const key = `second-factor:${usernameKey(who.username)}`;
  const hit = await hitRateLimit(deps.pool, key, failures, windowSeconds);
  if (!hit.allowed) {
    throw rateLimitedError(
      `Too many wrong codes for this account. Please try again in ${Math.ceil(hit.retryAfterSeconds / 60)} minute(s).`,
      hit.retryAfterSeconds,
    );
  }
  if (await check()) {
    await refundRateLimit(deps.pool, key);
    return true;
  }
  if (hit.count === failures) {
    await recordAudit(deps.pool, {
      actor: who.username,
      action: 'admin.second_factor_locked',
      detail: { failures, minutes: Math.ceil(hit.retryAfterSeconds / 60) },
      ipAddress: who.ip,
    });
    // Not awaited: the answer must not wait for a mail server (its own timeouts run to 20 s).
    void deps.alert?.({ ...who, failures, retryAfterSeconds: hit.retryAfterSeconds });
  }
  return false;
}
