import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { SESSION_ABSOLUTE_MS } from './session';

export type SignedInAdmin = { id: string; username: string };

/**
 * The signed-in admin of a request: a valid PostgreSQL session within its idle and absolute lifetime,
 * else 401. Used by adminProcedure and by the streamed admin routes, so both check the same way.
 */
export async function requireAdmin(
  req: FastifyRequest,
  options: { allowWithoutTwoFactor?: boolean } = {},
): Promise<SignedInAdmin> {
  const session = req.session;
  const { adminId, username, signedInAt } = session ?? {};
  if (!adminId || !username || !signedInAt) {
    throw new AppError(ERROR_CODES.unauthorized, 'Please sign in');
  }
  if (Date.now() - signedInAt > SESSION_ABSOLUTE_MS) {
    await session.destroy();
    throw new AppError(ERROR_CODES.unauthorized, 'Your session has expired. Please sign in again.');
  }
  // ADMIN_REQUIRE_2FA (decided at sign-in): an admin without two-factor reaches the enrolment only.
  if (session.mustEnrolTwoFactor && !options.allowWithoutTwoFactor) {
    throw new AppError(
      ERROR_CODES.twoFactorSetupRequired,
      'Set up two-factor sign-in on your account screen first.',
    );
  }
  // Touch the session so the idle lifetime is measured from the last use, in the store too.
  session.lastSeenAt = Date.now();
  return { id: adminId, username };
}
