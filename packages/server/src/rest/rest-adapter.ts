import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../errors';
import { requireAdmin } from '../plugins/admin-guard';
import type { Context } from '../trpc/context';
import type { Operations } from '../trpc/router';
import { type Operation, runOperation } from '../trpc/trpc';
import { problemErrorHandler, replyWithProblem } from './problem';
import type { Caller, RestRoute } from './rest-routes';

/** One generic handler for every row of the REST table: build the context, call, map errors once. */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  makeCaller: (ctx: Context) => Caller,
  makeContext: (opts: { req: Context['req']; res: Context['reply'] }) => Context,
  operations: Operations,
) {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      // Problem routes answer problem+json for errors Fastify raises before the handler too.
      ...(route.problem ? { errorHandler: problemErrorHandler } : {}),
      // Admin rows: the session first, before the body is parsed (the session loads on onRequest).
      ...(route.url.startsWith('/api/admin/') && !route.withoutSession
        ? {
            preParsing: async (req: FastifyRequest) => {
              await requireAdmin(req, { allowWithoutTwoFactor: route.whileEnrolling === true });
            },
          }
        : {}),
      handler: async (req, reply) => {
        try {
          const ctx = makeContext({ req, res: reply });
          const result =
            'operation' in route
              ? await runOperation(operations[route.operation] as Operation, ctx, req.body)
              : await route.call(makeCaller(ctx), req);
          return reply.code(route.status ?? 200).send(result);
        } catch (err) {
          if (route.problem) return replyWithProblem(req, reply, err);
          return replyWithError(req, reply, err);
        }
      },
    });
  }
}

/** The one error mapping of the REST surface (table rows and the streamed routes alike). */
export function replyWithError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const { status, body } = toErrorResponse(err);
  if (status === 503) req.log.warn({ err }, 'database unavailable');
  else if (status >= 500) req.log.error({ err }, 'request failed');
  return reply.code(status).send(body);
}
