import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../errors';
import { requireAdmin } from '../plugins/admin-guard';
import type { Context } from '../trpc/context';
import type { Invoke } from '../trpc/procedures';
import { problemErrorHandler, replyWithProblem } from './problem';
import { type RestRoute, restInput } from './rest-routes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The procedure a REST route runs, and who may call it (read by the OpenAPI plugin). */
    procedure?: string;
    access?: 'admin' | 'enrolling';
    /** The procedure's input and output schemas (read by the OpenAPI plugin). */
    inputs?: RestRoute['inputs'];
    output?: RestRoute['output'];
    /** The input is the query string whatever the method (read by the OpenAPI plugin). */
    inQuery?: true;
  }
}

/** One generic handler for every REST route: build the context, run the procedure, map errors once. */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  invoke: Invoke,
  makeContext: (opts: { req: Context['req']; res: Context['reply'] }) => Context,
) {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      // Read by the OpenAPI plugin: the document describes the route by its procedure.
      config: {
        procedure: route.procedure,
        access: route.access,
        inputs: route.inputs,
        output: route.output,
        ...(route.inQuery ? { inQuery: route.inQuery } : {}),
      },
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      // Problem routes answer problem+json for errors Fastify raises before the handler too.
      ...(route.problem ? { errorHandler: problemErrorHandler } : {}),
      // Admin procedures: the session first, before the body is parsed (the session loads on onRequest),
      // so without a session the answer is 401 whatever the body.
      ...(route.access
        ? {
            preParsing: async (req: FastifyRequest) => {
              await requireAdmin(req, { allowWithoutTwoFactor: route.access === 'enrolling' });
            },
          }
        : {}),
      handler: async (req, reply) => {
        try {
          const result = await invoke(
            route.procedure,
            makeContext({ req, res: reply }),
            restInput(req, route.inQuery),
          );
          return reply.code(route.status ?? 200).send(result);
        } catch (err) {
          if (route.problem) return replyWithProblem(req, reply, err);
          return replyWithError(req, reply, err);
        }
      },
    });
  }
}

/** The one error mapping of the REST surface (procedure routes and the streamed routes alike). */
export function replyWithError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const { status, body } = toErrorResponse(err);
  if (status === 503) req.log.warn({ err }, 'database unavailable');
  else if (status >= 500) req.log.error({ err }, 'request failed');
  return reply.code(status).send(body);
}
