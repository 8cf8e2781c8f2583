import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { Outcome } from '../platform/outcome';

// The one place the transport applies what a service returned or threw (issue 23): services never see
// the request or the reply.

/** Applies the outcome's session change to the request's session, then gives its answer. */
export async function applyOutcome<T>(req: FastifyRequest, outcome: Outcome<T>): Promise<T> {
  const change = outcome.session;
  if (change?.kind === 'start') {
    await req.session.regenerate();
    Object.assign(req.session, change.fields);
  } else if (change?.kind === 'end') {
    if (req.session) await req.session.destroy();
  } else if (change?.kind === 'update') {
    Object.assign(req.session, change.fields);
  }
  return outcome.answer;
}

/** The headers a refusal carries: Retry-After when a rate limit said how long to wait. */
export function applyRefusal(reply: FastifyReply, err: unknown) {
  if (err instanceof AppError && err.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(err.retryAfterSeconds));
  }
}
