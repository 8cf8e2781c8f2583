import { initTRPC, TRPCError } from '@trpc/server';
import { ERROR_CODES, type ErrorCode } from '@uf/shared/errors';
import { AppError, toErrorResponse } from '../errors';
import { SESSION_ABSOLUTE_MS } from '../plugins/session';
import type { Context } from './context';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Clients get the same { error, message, fieldErrors } body the REST surface answers.
    const { status, body } = toErrorResponse(error);
    return {
      ...shape,
      message: body.message,
      data: { ...shape.data, httpStatus: status, stack: undefined, app: body },
    };
  },
});

const TRPC_CODE: Record<ErrorCode, TRPCError['code']> = {
  validation_error: 'BAD_REQUEST',
  age_restriction: 'BAD_REQUEST',
  duplicate_email: 'CONFLICT',
  conflict: 'CONFLICT',
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  unauthorized: 'UNAUTHORIZED',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal_error: 'INTERNAL_SERVER_ERROR',
};

/** Services throw AppError; give tRPC the matching code so its HTTP status agrees with REST. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors);
export const createCallerFactory = t.createCallerFactory;

/** Signed-in admins only: a valid PostgreSQL session within its idle and absolute lifetime. */
export const adminProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = ctx.req.session;
  const { adminId, username, signedInAt } = session ?? {};
  if (!adminId || !username || !signedInAt) {
    throw new AppError(ERROR_CODES.unauthorized, 'Please sign in');
  }
  if (Date.now() - signedInAt > SESSION_ABSOLUTE_MS) {
    await session.destroy();
    throw new AppError(ERROR_CODES.unauthorized, 'Your session has expired. Please sign in again.');
  }
  // Touch the session so the idle lifetime is measured from the last use, in the store too.
  session.lastSeenAt = Date.now();
  return next({ ctx: { ...ctx, admin: { id: adminId, username } } });
});
