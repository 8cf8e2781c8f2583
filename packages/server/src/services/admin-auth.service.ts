import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import { authenticate } from './admin-user.service';
import { recordAudit } from './audit.service';
import { hitRateLimit, resetRateLimit } from './rate-limit.service';

export const LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  perClient: 30,
  perUsername: 10,
};

/** Sign-in: rate-limited per client and per user name, session id regenerated on success. */
export async function signIn(
  deps: { em: EntityManager; pool: Pool; req: FastifyRequest; reply: FastifyReply },
  input: { username: string; password: string },
) {
  const usernameKey = `login:user:${input.username.trim().toLowerCase()}`;
  const [byClient, byUser] = await Promise.all([
    hitRateLimit(deps.pool, `login:ip:${deps.req.ip}`, LOGIN_LIMITS.perClient, LOGIN_LIMITS.windowSeconds),
    hitRateLimit(deps.pool, usernameKey, LOGIN_LIMITS.perUsername, LOGIN_LIMITS.windowSeconds),
  ]);
  if (!byClient.allowed || !byUser.allowed) {
    const wait = Math.max(
      byClient.allowed ? 0 : byClient.retryAfterSeconds,
      byUser.allowed ? 0 : byUser.retryAfterSeconds,
    );
    deps.reply.header('retry-after', String(wait));
    throw new AppError(
      ERROR_CODES.rateLimited,
      `Too many sign-in attempts. Please try again in ${Math.ceil(wait / 60)} minute(s).`,
    );
  }
  let admin: { id: string; username: string };
  try {
    admin = await authenticate(deps.em, input.username, input.password);
  } catch (err) {
    await recordAudit(deps.pool, {
      actor: input.username.trim().slice(0, 100),
      action: 'admin.sign_in_failed',
      ipAddress: deps.req.ip,
    });
    throw err;
  }
  await resetRateLimit(deps.pool, usernameKey);
  await recordAudit(deps.pool, { actor: admin.username, action: 'admin.sign_in', ipAddress: deps.req.ip });
  // A new session id at sign-in: a session id planted before sign-in is worthless afterwards.
  await deps.req.session.regenerate();
  deps.req.session.adminId = admin.id;
  deps.req.session.username = admin.username;
  deps.req.session.signedInAt = Date.now();
  deps.req.session.lastSeenAt = Date.now();
  return { username: admin.username };
}

export async function signOut(req: FastifyRequest, pool: Pool) {
  const username = req.session?.username;
  if (req.session) await req.session.destroy();
  if (username) await recordAudit(pool, { actor: username, action: 'admin.sign_out', ipAddress: req.ip });
  return { ok: true as const };
}
