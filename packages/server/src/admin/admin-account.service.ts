import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangePasswordInput, usernameKey } from '@uf/shared/admin.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { AdminUser } from '../db/entities/admin-user.entity';
import { AppError, rateLimitedError } from '../errors';
import type { Outcome } from '../platform/outcome';
import { hitRateLimit } from '../platform/rate-limit.service';
import { LOGIN_LIMITS } from './admin-auth.service';
import { endOtherSessions, endSession, listSessions } from './admin-sessions.service';
import {
  acceptTotp,
  checkSecondFactor,
  clearTwoFactor,
  countRecoveryCodes,
  newTotpSecret,
  replaceRecoveryCodes,
  type SecondFactorAlert,
  totpStepOf,
  useRecoveryCode,
  wrongCode,
} from './admin-two-factor.service';
import { recordAudit } from './audit.service';
import { hashPassword, verifyPassword } from './password';

// The signed-in admin's own account (issue 25): two-factor enrolment, password, sessions.

export type AccountDeps = {
  em: EntityManager;
  pool: Pool;
  admin: { id: string; username: string };
  /** The client's address and the id of the session the admin acts in. */
  ip: string;
  sessionId: string;
  /** log2 of scrypt's N for new password hashes (ADMIN_PASSWORD_SCRYPT_LOG_N). */
  scryptLogN: number;
  requireTwoFactor: boolean;
  /** Tells the admin when wrong codes lock their second factor (an e-mail when SMTP is set). */
  secondFactorAlert?: SecondFactorAlert;
};

async function load(d: AccountDeps) {
  const user = await d.em.findOne(AdminUser, { id: d.admin.id });
  if (!user) throw new AppError(ERROR_CODES.unauthorized, 'Please sign in');
  return user;
}

const audit = (d: AccountDeps, action: Parameters<typeof recordAudit>[1]['action'], detail?: object) =>
  recordAudit(d.pool, { actor: d.admin.username, action, detail: { ...detail }, ipAddress: d.ip });

/**
 * Password and code checks on the account screen go behind the sign-in limit per (account, address):
 * a stolen session cannot try passwords or codes any faster than the sign-in form allows.
 */
async function limitAttempt(d: AccountDeps) {
  const key = `login:user-ip:${usernameKey(d.admin.username)}:${d.ip}`;
  const hit = await hitRateLimit(d.pool, key, LOGIN_LIMITS.perAccountAndClient, LOGIN_LIMITS.windowSeconds);
  if (!hit.allowed) {
    throw rateLimitedError('Too many attempts. Please try again later.', hit.retryAfterSeconds);
  }
}

export async function twoFactorStatus(d: AccountDeps) {
  const user = await load(d);
  return {
    enabled: Boolean(user.totpSecret),
    recoveryCodesLeft: user.totpSecret ? await countRecoveryCodes(d.pool, user.id) : 0,
    required: d.requireTwoFactor,
  };
}

/** Starts (or restarts) an enrolment: a new secret, not active until confirmed with a code. */
export async function startTotpEnrolment(d: AccountDeps) {
  const user = await load(d);
  if (user.totpSecret) {
    throw new AppError(ERROR_CODES.conflict, 'Two-factor sign-in is already on. Turn it off first.');
  }
  const { secret, otpauthUrl } = newTotpSecret(user.username);
  user.totpPendingSecret = secret;
  await d.em.flush();
  return { secret, otpauthUrl };
}

/** Turns two-factor on; the session no longer has to enrol. */
export async function confirmTotpEnrolment(
  d: AccountDeps,
  input: { code: string },
): Promise<Outcome<{ recoveryCodes: string[] }>> {
  const user = await load(d);
  if (user.totpSecret) throw new AppError(ERROR_CODES.conflict, 'Two-factor sign-in is already on.');
  const pending = user.totpPendingSecret;
  if (!pending) throw new AppError(ERROR_CODES.conflict, 'Start the two-factor setup first.');
  const step = totpStepOf(pending, input.code);
  if (step === null)
    throw wrongCode('code', 'That code is not right. Check the time on your device and try again.');
  const { rowCount } = await d.pool.query(
    `update admin_user set totp_secret = totp_pending_secret, totp_pending_secret = null,
       totp_enabled_at = now(), totp_last_step = $2
     where id = $1 and totp_pending_secret = $3 and totp_secret is null`,
    [user.id, step, pending],
  );
  if (rowCount !== 1)
    throw new AppError(ERROR_CODES.conflict, 'The two-factor setup changed meanwhile. Start again.');
  const recoveryCodes = await replaceRecoveryCodes(d.pool, user.id);
  await audit(d, 'admin.two_factor_enabled');
  return { answer: { recoveryCodes }, session: { kind: 'update', fields: { mustEnrolTwoFactor: false } } };
}

/**
 * A TOTP code, or one of the recovery codes (a lost phone must not keep two-factor on forever), behind
 * the account's second-factor limit like the sign-in's code step (ADR 066): a stolen session guesses no
 * faster here.
 */
async function checkCode(d: AccountDeps, code: string, recoveryAllowed = true): Promise<boolean> {
  const digits = code.replace(/\s+/g, '');
  let left: Awaited<ReturnType<typeof useRecoveryCode>> = null;
  const passed = await checkSecondFactor(
    { pool: d.pool, alert: d.secondFactorAlert },
    { adminId: d.admin.id, username: d.admin.username, ip: d.ip },
    async () => {
      if (/^\d{6}$/.test(digits)) return acceptTotp(d.pool, d.admin.id, digits);
      if (!recoveryAllowed) return false;
      left = await useRecoveryCode(d.pool, d.admin.id, code);
      // A code already used ('used') is no pass, whatever it once was.
      return typeof left === 'number';
    },
  );
  if (passed && typeof left === 'number') await audit(d, 'admin.recovery_code_used', { remaining: left });
  return passed;
}

/** Turns two-factor off; with ADMIN_REQUIRE_2FA the session must enrol again. */
export async function disableTotp(
  d: AccountDeps,
  input: { password: string; code: string },
): Promise<Outcome<{ ok: true }>> {
  const user = await load(d);
  if (!user.totpSecret) throw new AppError(ERROR_CODES.conflict, 'Two-factor sign-in is not on.');
  await limitAttempt(d);
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    throw wrongCode('password', 'That password is not right.');
  }
  if (!(await checkCode(d, input.code))) throw wrongCode('code', 'That code is not right.');
  await clearTwoFactor(d.pool, user.id);
  await audit(d, 'admin.two_factor_disabled');
  const answer = { ok: true as const };
  if (!d.requireTwoFactor) return { answer };
  return { answer, session: { kind: 'update', fields: { mustEnrolTwoFactor: true } } };
}

export async function regenerateRecoveryCodes(d: AccountDeps, input: { code: string }) {
  const user = await load(d);
  if (!user.totpSecret) throw new AppError(ERROR_CODES.conflict, 'Two-factor sign-in is not on.');
  await limitAttempt(d);
  if (!(await checkCode(d, input.code, false))) throw wrongCode('code', 'That code is not right.');
  const recoveryCodes = await replaceRecoveryCodes(d.pool, user.id);
  await audit(d, 'admin.recovery_codes_regenerated');
  return { recoveryCodes };
}

/** Changes the password and ends every other session of the admin (a thief's included). */
export async function changePassword(d: AccountDeps, input: ChangePasswordInput) {
  const user = await load(d);
  await limitAttempt(d);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw wrongCode('currentPassword', 'That is not your current password.');
  }
  user.passwordHash = await hashPassword(input.newPassword, d.scryptLogN);
  await d.em.flush();
  const endedSessions = await endOtherSessions(d.pool, user.id, d.sessionId);
  await audit(d, 'admin.password_changed', { endedSessions });
  return { ok: true as const, endedSessions };
}

export function mySessions(d: AccountDeps) {
  return listSessions(d.pool, d.admin.id, d.sessionId);
}

export async function endMySession(d: AccountDeps, input: { id: string }) {
  const sessions = await listSessions(d.pool, d.admin.id, d.sessionId);
  const target = sessions.find((s) => s.id === input.id);
  await endSession(d.pool, d.admin.id, input.id);
  await audit(d, 'admin.session_ended', {
    session: input.id,
    current: target?.current ?? false,
    userAgent: target?.userAgent ?? null,
  });
  return { ok: true as const };
}

export async function endMyOtherSessions(d: AccountDeps) {
  const ended = await endOtherSessions(d.pool, d.admin.id, d.sessionId);
  await audit(d, 'admin.session_ended', { others: true, ended });
  return { ended };
}
