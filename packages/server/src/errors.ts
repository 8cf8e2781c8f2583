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
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

const TRPC_CODE_TO_ERROR: Partial<Record<TRPCError['code'], ErrorCode>> = {
  BAD_REQUEST: ERROR_CODES.validation,
  PARSE_ERROR: ERROR_CODES.validation,
  UNAUTHORIZED: ERROR_CODES.unauthorized,
  FORBIDDEN: ERROR_CODES.forbidden,
  NOT_FOUND: ERROR_CODES.notFound,
  METHOD_NOT_SUPPORTED: ERROR_CODES.methodNotAllowed,
  CONFLICT: ERROR_CODES.conflict,
  UNPROCESSABLE_CONTENT: ERROR_CODES.unprocessable,
  TOO_MANY_REQUESTS: ERROR_CODES.rateLimited,
};

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
    const code = TRPC_CODE_TO_ERROR[err.code] ?? ERROR_CODES.validation;
    if (status < 500) return { status, body: { error: code, message: err.message } };
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
