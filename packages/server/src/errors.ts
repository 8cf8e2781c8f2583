import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import {
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type FieldError,
} from '@uf/shared/errors';
import { classifyLeadErrors, firstErrorPerField } from '@uf/shared/lead.schema';
import { $ZodError } from 'zod/v4/core';
import { isDatabaseUnavailable } from './db/availability';

export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';

/** The one error type services throw. Transport layers map it once (tRPC formatter, REST adapter). */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly fieldErrors?: FieldError[],
    /** Machine-readable facts a client may act on, e.g. the id of the existing lead of a duplicate. */
    public readonly details?: Record<string, unknown>,
    /** Seconds the client should wait (a refusal by a rate limit): every door sends it as Retry-After. */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A refusal by a rate limit: 429, and the wait every door answers as Retry-After. */
export const rateLimitedError = (message: string, retryAfterSeconds: number) =>
  new AppError(ERROR_CODES.rateLimited, message, undefined, undefined, retryAfterSeconds);

/**
 * The error code of a client error raised outside the app's code — by Fastify or a plugin (a status), or
 * by tRPC itself (its code, as the status tRPC maps it to). The reverse of ERROR_STATUS, one code per
 * status; any other client status (413, 415…) is the client's request, a validation error.
 */
const STATUS_TO_CODE: Partial<Record<number, ErrorCode>> = {
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  405: ERROR_CODES.methodNotAllowed,
  408: ERROR_CODES.requestTimeout,
  409: ERROR_CODES.conflict,
  422: ERROR_CODES.unprocessable,
  429: ERROR_CODES.rateLimited,
};

export const codeOfStatus = (status: number): ErrorCode => STATUS_TO_CODE[status] ?? ERROR_CODES.validation;

function fromZod(error: $ZodError): ErrorBody {
  const fieldErrors = firstErrorPerField(error);
  const code = classifyLeadErrors(fieldErrors);
  const first = fieldErrors[0];
  const message =
    code === ERROR_CODES.ageRestriction ? (first?.message ?? 'Invalid input') : 'Some fields are invalid';
  return { error: code, message, fieldErrors };
}

/** Any thrown value → the status and JSON body a client sees. 5xx never carries internal detail. */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  const cause = err instanceof TRPCError ? err.cause : err;
  if (cause instanceof AppError) {
    const body: ErrorBody = { error: cause.code, message: cause.message };
    if (cause.fieldErrors) body.fieldErrors = cause.fieldErrors;
    return { status: cause.status, body };
  }
  // $ZodError is the base of classic (zod) and zod/mini errors alike.
  if (cause instanceof $ZodError) {
    return { status: 400, body: fromZod(cause) };
  }
  if (err instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(err);
    // Any other client error tRPC raises (payload too large, unsupported media type…) is the client's.
    if (status < 500) return { status, body: { error: codeOfStatus(status), message: err.message } };
  }
  // The database away (restarting, refused, timed out, no connection in time): 503, never 500 (ADR 056).
  if (isDatabaseUnavailable(cause) || (err instanceof TRPCError && err.code === 'SERVICE_UNAVAILABLE')) {
    return { status: 503, body: { error: ERROR_CODES.unavailable, message: UNAVAILABLE_MESSAGE } };
  }
  return {
    status: 500,
    body: { error: ERROR_CODES.internal, message: 'Something went wrong on our side. Please try again.' },
  };
}
