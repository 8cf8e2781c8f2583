import { initTRPC, TRPCError } from '@trpc/server';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { ErrorCode } from '@uf/shared/errors';
import { $ZodError, type $ZodType, type input, type output, parse } from 'zod/v4/core';
import { isDatabaseUnavailable } from '../db/availability';
import { AppError, toErrorResponse, UNAVAILABLE_MESSAGE } from '../errors';
import { requireAdmin } from '../plugins/admin-guard';
import { assertSafeInput } from '../plugins/input-guard';
import type { Context } from './context';
import { applyRefusal } from './outcome';

/** A procedure's REST door, when it has one (issue 23): the REST routes are derived from these marks. */
export type RestMeta = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's form (`/api/leads/:id`); path parameters join the input. */
  path: string;
  /** HTTP status of a successful answer (default 200). */
  status?: number;
  /** Request body limit in bytes when the default (64 KiB) is too small. */
  bodyLimit?: number;
  /** Errors as RFC 9457 application/problem+json (the partner API) instead of {error, message}. */
  problem?: true;
  /**
   * The input is the query string whatever the method: a DELETE whose filters are its URL (issue 35: ad
   * costs by source and dates), since many HTTP clients and proxies send or keep no body with a DELETE.
   */
  inQuery?: true;
};

/**
 * What the server derives its doors from, written once on each procedure (issue 23):
 * - `session: 'none'`: never reads the admin session, so the server answers it outside the session's
 *   scope (public operations never touch the admin session, whichever door they come through);
 * - `access`: who may call it, set by the base procedure (admin, or admin still enrolling two-factor);
 * - `rest`: its REST method and path.
 */
export type ProcedureMeta = {
  session?: 'none';
  access?: 'admin' | 'enrolling';
  rest?: RestMeta;
  /**
   * The schema a procedure parses its input with itself, when its `.input()` accepts anything (the
   * partner lead: `z.unknown()`, so that every invalid field is listed): the OpenAPI body is this one.
   */
  parses?: $ZodType;
};

/** The meta of a procedure with a REST door. */
export const restAt = (
  method: RestMeta['method'],
  path: string,
  options: Omit<RestMeta, 'method' | 'path'> = {},
) => ({
  rest: { method, path, ...options },
});

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
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

/**
 * A thrown value as the TRPCError whose code agrees with the REST status: services throw AppError, the
 * database away is 503 (with Retry-After, set for every 503 in app.ts), a schema's refusal 400. The one
 * mapping for every tRPC door (the procedures' middleware and the session-free routes).
 */
export function asTRPCError(err: unknown): TRPCError {
  const cause = err instanceof TRPCError ? (err.cause ?? err) : err;
  if (cause instanceof AppError) {
    return new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  if (isDatabaseUnavailable(cause)) {
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE, cause });
  }
  if (err instanceof TRPCError) return err;
  if (cause instanceof $ZodError)
    return new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  return getTRPCErrorFromUnknown(err);
}

const appErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  const mapped = asTRPCError(result.error);
  applyRefusal(ctx.reply, mapped.cause);
  if (mapped !== result.error) throw mapped;
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

/** A procedure anyone may call that never reads the admin session (served outside its scope). */
export const anonymousProcedure = publicProcedure.meta({ session: 'none' });

/** Signed-in admins only: a valid PostgreSQL session within its idle and absolute lifetime. */
export const adminProcedure = publicProcedure.meta({ access: 'admin' }).use(async ({ ctx, next }) => {
  const admin = await requireAdmin(ctx.req);
  return next({ ctx: { ...ctx, admin } });
});

/** Signed-in admins, also those who must still set up two-factor sign-in (ADMIN_REQUIRE_2FA). */
export const enrollingAdminProcedure = publicProcedure
  .meta({ access: 'enrolling' })
  .use(async ({ ctx, next }) => {
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

/**
 * The operation as a session-free tRPC mutation (with its REST door when `meta` names one). `answer` is
 * its output schema: the OpenAPI document's success response, and checked by tRPC only on its adapter's
 * door. The hot doors (the REST route, the session-free `/api/trpc/<path>`) run the operation itself
 * (runOperation), which does not parse the answer: no cost per request there (ADR 051).
 */
export function mutationOf<S extends $ZodType, A extends $ZodType, R extends input<A>>(
  op: Operation<S, R>,
  meta: ProcedureMeta,
  answer: A,
) {
  return (
    anonymousProcedure
      .meta(meta)
      .input(op.input)
      .output(answer)
      // R satisfies the answer's schema (the constraint above); tRPC's types cannot see it through generics.
      .mutation(({ ctx, input }) => op.run(ctx, input as output<S>) as Promise<never>)
  );
}

/** The operation without tRPC: validates like the procedure (a ZodError maps to the same 400). */
export function runOperation<S extends $ZodType, R>(
  op: Operation<S, R>,
  ctx: Context,
  raw: unknown,
): Promise<R> {
  return op.run(ctx, parse(op.input, raw));
}
