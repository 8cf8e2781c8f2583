import { initTRPC, TRPCError } from '@trpc/server';
import type { ErrorCode } from '@uf/shared/errors';
import { AppError, toErrorResponse } from '../errors';
import { requireAdmin } from '../plugins/admin-guard';
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
  unprocessable: 'UNPROCESSABLE_CONTENT',
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
  const admin = await requireAdmin(ctx.req);
  return next({ ctx: { ...ctx, admin } });
});
