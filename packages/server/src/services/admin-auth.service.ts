import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import { authenticate } from './admin-user.service';
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
  const admin = await authenticate(deps.em, input.username, input.password);
  await resetRateLimit(deps.pool, usernameKey);
  // A new session id at sign-in: a session id planted before sign-in is worthless afterwards.
  await deps.req.session.regenerate();
  deps.req.session.adminId = admin.id;
  deps.req.session.username = admin.username;
  deps.req.session.signedInAt = Date.now();
  deps.req.session.lastSeenAt = Date.now();
  return { username: admin.username };
}

export async function signOut(req: FastifyRequest) {
  if (req.session) await req.session.destroy();
  return { ok: true as const };
}
