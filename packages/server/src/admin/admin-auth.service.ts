import type { EntityManager } from '@mikro-orm/postgresql';
import { usernameKey } from '@uf/shared/admin.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { AppError, rateLimitedError } from '../errors';
import type { Outcome, SignedInSession } from '../platform/outcome';
import { hitRateLimit, peekRateLimit, resetRateLimit } from '../platform/rate-limit.service';
import {
  acceptTotp,
  checkSecondFactor,
  type SecondFactorAlert,
  useRecoveryCode,
} from './admin-two-factor.service';
import { authenticate, rehashIfNeeded } from './admin-user.service';
import { recordAudit } from './audit.service';

/**
 * Sign-in limits (issue 22, ADR 056) that a stranger cannot turn against an admin:
 * - per client address: every attempt counts, 429 beyond `perClient` in the window
 *   (ADMIN_SIGN_IN_LIMIT_PER_ADDRESS, default 30);
 * - per (account, address): every attempt counts, 429 beyond `perAccountAndClient` — an attacker hammering
 *   one account from one address is stopped there;
 * - per account, across addresses: only failures count, and they only slow sign-in down (an exponential
 *   delay before the password check, capped), never refuse it — so the right password from an address
 *   that has not failed always gets in.
 * The second factor has a limit of its own, per account across addresses (SECOND_FACTOR_LIMITS, ADR 066).
 */
/** A recovery code works once (issue 37: the admin was told only "Invalid two-factor code"). */
export const RECOVERY_CODE_USED =
  'This recovery code has already been used. Each code works once: enter another one.';

export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  perClient: 30,
  perAccountAndClient: 10,
  /** Account-wide failures before each attempt on the account is delayed. */
  accountFailuresBeforeDelay: 10,
  delayBaseMs: 250,
  delayMaxMs: 4_000,
};

/** The slow-down of an attempt on an account that has failed `failures` times in the window. */
export function accountDelayMs(failures: number): number {
  const over = failures - LOGIN_LIMITS.accountFailuresBeforeDelay;
  if (over < 0) return 0;
  return Math.min(LOGIN_LIMITS.delayMaxMs, LOGIN_LIMITS.delayBaseMs * 2 ** Math.min(over, 10));
}

/** The client a request comes from, as the transport resolved it. */
export type Client = { ip: string; userAgent?: string };

/**
 * Sign-in: limited per address and per (account, address), slowed per account. The outcome starts a new
 * session (a new session id) for the admin.
 */
export async function signIn(
  deps: {
    em: EntityManager;
    pool: Pool;
    client: Client;
    /** log2 of scrypt's N (ADMIN_PASSWORD_SCRYPT_LOG_N) and ADMIN_REQUIRE_2FA. */
    scryptLogN: number;
    requireTwoFactor: boolean;
    /** Attempts allowed from one address in the window (ADMIN_SIGN_IN_LIMIT_PER_ADDRESS). */
    perClientLimit?: number;
    /** Tells the admin when wrong codes lock their second factor (an e-mail when SMTP is set). */
    secondFactorAlert?: SecondFactorAlert;
  },
  input: { username: string; password: string; totp?: string; recoveryCode?: string },
): Promise<Outcome<{ username: string } | { username: string; twoFactorSetupRequired: true }>> {
  const { ip } = deps.client;
  const name = usernameKey(input.username);
  const { windowSeconds } = LOGIN_LIMITS;
  const pairKey = `login:user-ip:${name}:${ip}`;
  const accountKey = `login:user:${name}`;
  const [byClient, byPair] = await Promise.all([
    hitRateLimit(deps.pool, `login:ip:${ip}`, deps.perClientLimit ?? LOGIN_LIMITS.perClient, windowSeconds),
    hitRateLimit(deps.pool, pairKey, LOGIN_LIMITS.perAccountAndClient, windowSeconds),
  ]);
  if (!byClient.allowed || !byPair.allowed) {
    const wait = Math.max(
      byClient.allowed ? 0 : byClient.retryAfterSeconds,
      byPair.allowed ? 0 : byPair.retryAfterSeconds,
    );
    throw rateLimitedError(
      `Too many sign-in attempts. Please try again in ${Math.ceil(wait / 60)} minute(s).`,
      wait,
    );
  }
  const delay = accountDelayMs((await peekRateLimit(deps.pool, accountKey, windowSeconds)).count);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const failed = async (
    action: 'admin.sign_in_failed' | 'admin.sign_in_second_step_failed',
    actor: string,
  ) => {
    // Only failures count account-wide (they slow the next attempts, ever so little at first).
    await hitRateLimit(deps.pool, accountKey, Number.MAX_SAFE_INTEGER, windowSeconds);
    await recordAudit(deps.pool, { actor, action, ipAddress: ip });
  };
  const hashing = { scryptLogN: deps.scryptLogN };
  let admin: Awaited<ReturnType<typeof authenticate>>;
  try {
    admin = await authenticate(deps.em, input.username, input.password, hashing);
  } catch (err) {
    await failed('admin.sign_in_failed', input.username.trim().slice(0, 100));
    throw err;
  }
  // The second step (issue 25): behind the same limits as the password, counted the same way.
  if (admin.totpSecret) {
    if (!input.totp && !input.recoveryCode) {
      throw new AppError(
        ERROR_CODES.totpRequired,
        'Enter the 6-digit code from your authenticator app, or a recovery code.',
      );
    }
    let recoveryLeft: Awaited<ReturnType<typeof useRecoveryCode>> | undefined;
    const passed = await checkSecondFactor(
      { pool: deps.pool, alert: deps.secondFactorAlert },
      { adminId: admin.id, username: admin.username, ip },
      async () => {
        if (input.totp) return acceptTotp(deps.pool, admin.id, input.totp);
        recoveryLeft = await useRecoveryCode(deps.pool, admin.id, input.recoveryCode ?? '');
        return typeof recoveryLeft === 'number';
      },
    );
    if (!passed) {
      await failed('admin.sign_in_second_step_failed', admin.username);
      throw new AppError(
        ERROR_CODES.unauthorized,
        recoveryLeft === 'used'
          ? RECOVERY_CODE_USED
          : input.totp
            ? 'Invalid two-factor code'
            : 'Invalid recovery code',
      );
    }
    if (typeof recoveryLeft === 'number') {
      await recordAudit(deps.pool, {
        actor: admin.username,
        action: 'admin.recovery_code_used',
        detail: { remaining: recoveryLeft },
        ipAddress: ip,
      });
    }
  }
  await rehashIfNeeded(deps.em, admin, input.password, hashing);
  await resetRateLimit(deps.pool, pairKey);
  await recordAudit(deps.pool, { actor: admin.username, action: 'admin.sign_in', ipAddress: ip });
  // A new session id at sign-in: a session id planted before sign-in is worthless afterwards.
  const fields: SignedInSession = {
    adminId: admin.id,
    username: admin.username,
    signedInAt: Date.now(),
    lastSeenAt: Date.now(),
    ip,
    userAgent: (deps.client.userAgent ?? '').slice(0, 300),
  };
  const mustEnrol = deps.requireTwoFactor && !admin.totpSecret;
  if (mustEnrol) {
    fields.mustEnrolTwoFactor = true;
    // Said only when ADMIN_REQUIRE_2FA applies: otherwise the answer is the spec's, unchanged.
    return {
      answer: { username: admin.username, twoFactorSetupRequired: true as const },
      session: { kind: 'start', fields },
    };
  }
  return { answer: { username: admin.username }, session: { kind: 'start', fields } };
}

/** Sign-out of the session's admin (`username`, absent without a signed-in session): the session ends. */
export async function signOut(
  pool: Pool,
  who: { username: string | undefined; ip: string },
): Promise<Outcome<{ ok: true }>> {
  if (who.username) {
    await recordAudit(pool, { actor: who.username, action: 'admin.sign_out', ipAddress: who.ip });
  }
  return { answer: { ok: true as const }, session: { kind: 'end' } };
}
