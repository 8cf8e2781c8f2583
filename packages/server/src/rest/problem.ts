import { TRPCError } from '@trpc/server';
import { ERROR_CODES, type ErrorCode } from '@uf/shared/errors';
import { partnerFieldErrors } from '@uf/shared/partner.schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { $ZodError } from 'zod/v4/core';
import { AppError, codeOfStatus, toErrorResponse } from '../errors';

// RFC 9457 problem details for the partner API (ADR 032): `type` points at the section of /api/docs that
// explains the problem, `errors` lists every invalid field with a JSON pointer into the request body.

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const PROBLEM_TITLES: Record<ErrorCode, string> = {
  validation_error: 'Invalid request',
  age_restriction: 'Invalid request',
  duplicate_email: 'Duplicate lead',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  forbidden: 'Forbidden',
  unauthorized: 'Missing or invalid API key',
  totp_required: 'Two-factor code required',
  two_factor_setup_required: 'Two-factor setup required',
  rate_limited: 'Too many requests',
  conflict: 'Duplicate lead',
  unprocessable: 'Idempotency-Key reused',
  internal_error: 'Internal error',
  request_timeout: 'Request timeout',
  service_unavailable: 'Service unavailable',
};

export type ProblemField = { field: string; message: string; pointer: string };

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** The same error code as the `error` field of the site's other JSON answers. */
  code: ErrorCode;
  errors?: ProblemField[];
  [extension: string]: unknown;
};

export const problemTypeUri = (code: ErrorCode) => `/api/docs#problem-${code}`;

const pointerOf = (field: string) =>
  /^[A-Za-z][\w.]*$/.test(field) ? `/${field.split('.').join('/')}` : `#${field}`;

export function toProblem(err: unknown, instance?: string): { status: number; body: Problem } {
  const { status, body } = toErrorResponse(err);
  const cause = err instanceof TRPCError ? err.cause : err;
  // Unknown fields are listed one by one (the generic mapping reports them as a single '_' entry).
  const fieldErrors = cause instanceof $ZodError ? partnerFieldErrors(cause) : body.fieldErrors;
  const code = cause instanceof $ZodError ? ERROR_CODES.validation : body.error;
  const problem: Problem = {
    ...(cause instanceof AppError && cause.details ? cause.details : {}),
    type: problemTypeUri(code),
    title: PROBLEM_TITLES[code],
    status,
    detail: code === ERROR_CODES.validation && fieldErrors?.length ? 'Some fields are invalid' : body.message,
    code,
  };
  if (instance) problem.instance = instance;
  if (fieldErrors?.length) {
    problem.errors = fieldErrors.map((e) => ({
      ...e,
      pointer: e.field === 'Idempotency-Key' ? '#header/Idempotency-Key' : pointerOf(e.field),
    }));
  }
  return { status, body: problem };
}

/** Errors Fastify raises before the handler (unparsable JSON, wrong content type, body too large). */
export function replyWithProblem(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  let result: { status: number; body: Problem };
  const raw = err as { statusCode?: number; message?: string };
  if (!(err instanceof TRPCError) && !(err instanceof AppError) && raw.statusCode && raw.statusCode < 500) {
    const code = codeOfStatus(raw.statusCode);
    result = {
      status: raw.statusCode,
      body: {
        type: problemTypeUri(code),
        title: PROBLEM_TITLES[code],
        status: raw.statusCode,
        detail: raw.message ?? 'Invalid request',
        instance: req.url,
        code,
      },
    };
  } else {
    result = toProblem(err, req.url);
  }
  if (result.status === 503) req.log.warn({ err }, 'database unavailable');
  else if (result.status >= 500) req.log.error({ err }, 'request failed');
  return reply.code(result.status).type(PROBLEM_CONTENT_TYPE).send(result.body);
}

/** A route-level Fastify error handler answering problem+json. */
export function problemErrorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  return replyWithProblem(req, reply, err);
}
