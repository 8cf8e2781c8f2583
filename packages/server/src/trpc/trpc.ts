import { initTRPC, TRPCError } from '@trpc/server';
import type { ErrorCode } from '@uf/shared/errors';
import { type $ZodType, type output, parse } from 'zod/v4/core';
import { isDatabaseUnavailable } from '../db/availability';
import { AppError, toErrorResponse, UNAVAILABLE_MESSAGE } from '../errors';
import { requireAdmin } from '../plugins/admin-guard';
import { assertSafeInput } from '../plugins/input-guard';
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
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  forbidden: 'FORBIDDEN',
  unauthorized: 'UNAUTHORIZED',
  totp_required: 'UNAUTHORIZED',
  two_factor_setup_required: 'FORBIDDEN',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal_error: 'INTERNAL_SERVER_ERROR',
  request_timeout: 'TIMEOUT',
  service_unavailable: 'SERVICE_UNAVAILABLE',
};

/** Services throw AppError; give tRPC the matching code so its HTTP status agrees with REST. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  // The database away: 503 (with Retry-After, set for every 503 in app.ts), not a logged 500.
  if (!result.ok && isDatabaseUnavailable(result.error.cause ?? result.error)) {
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: UNAVAILABLE_MESSAGE,
      cause: result.error.cause,
    });
  }
  return result;
});

/** The site-wide text rule (shared/text-safety) on every procedure's raw input, before its schema. */
const safeInput = t.middleware(async ({ getRawInput, next }) => {
  let raw: unknown;
  try {
    raw = await getRawInput();
  } catch {
    // An unreadable body (e.g. an empty one) matters only to a procedure that takes input, whose own
    // input parser then answers 400; a procedure without input (backup, logout) must not fail on it.
    return next();
  }
  assertSafeInput(raw, 'body');
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors).use(safeInput);
export const createCallerFactory = t.createCallerFactory;

/** Signed-in admins only: a valid PostgreSQL session within its idle and absolute lifetime. */
export const adminProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const admin = await requireAdmin(ctx.req);
  return next({ ctx: { ...ctx, admin } });
});

/** Signed-in admins, also those who must still set up two-factor sign-in (ADMIN_REQUIRE_2FA). */
export const enrollingAdminProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const admin = await requireAdmin(ctx.req, { allowWithoutTwoFactor: true });
  return next({ ctx: { ...ctx, admin } });
});

/**
 * A public procedure's input schema and body, defined once (ADR 051): the tRPC router serves it as a
 * procedure, and the REST table's hot public rows (track, submit, partner) run it directly — the same
 * schema validates, the same body runs, errors map the same way — without building a tRPC caller and
 * its middleware chain per request, which cost a fifth of the track route's CPU.
 */
export type Operation<S extends $ZodType = $ZodType, R = unknown> = {
  input: S;
  run(ctx: Context, input: output<S>): Promise<R>;
};

export function operation<S extends $ZodType, R>(
  input: S,
  run: (ctx: Context, input: output<S>) => Promise<R>,
): Operation<S, R> {
  return { input, run };
}

/** The operation as a tRPC mutation. */
export function mutationOf<S extends $ZodType, R>(op: Operation<S, R>) {
  return publicProcedure.input(op.input).mutation(({ ctx, input }) => op.run(ctx, input as output<S>));
}

/** The operation without tRPC: validates like the procedure (a ZodError maps to the same 400). */
export function runOperation<S extends $ZodType, R>(
  op: Operation<S, R>,
  ctx: Context,
  raw: unknown,
): Promise<R> {
  return op.run(ctx, parse(op.input, raw));
}
