import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from './context';
import { type Invoke, proceduresOf } from './procedures';
import type { AppRouter } from './router';
import { asTRPCError } from './trpc';

/** The tRPC paths the server answers outside the admin session's scope (`session: 'none'`). */
export function sessionFreeProcedures(router: AppRouter): { path: string; method: 'GET' | 'POST' }[] {
  return proceduresOf(router)
    .filter((p) => p.meta.session === 'none')
    .map((p) => ({ path: p.path, method: p.type === 'query' ? 'GET' : 'POST' }));
}

/** A query's input as tRPC's httpLink sends it: `?input=<JSON>` (absent for a procedure without input). */
function queryInput(req: FastifyRequest): unknown {
  const raw = (req.query as { input?: unknown }).input;
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw);
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The input is not valid JSON', cause });
  }
}

/**
 * The session-free procedures (issue 23), each as a route of its own in front of the tRPC adapter:
 * `/api/trpc/lead.submit` is a static route, which Fastify's router prefers to the adapter's
 * `/api/trpc/:path`, registered outside the admin session's scope — so the landing form's own call runs
 * no session hook, and a procedure backed by an operation (ADR 051: submit, track, partner lead) runs
 * that operation directly (createInvoker), the same group-committed path as its REST route. The answer is tRPC's own
 * envelope (`{result: {data}}`, or `{error: shape}` from the router's error formatter with the status
 * its code maps to), so the tRPC client cannot tell the doors apart. Other methods on these paths fall
 * through to the adapter's route and its 405.
 */
export function registerSessionFreeProcedures(
  app: FastifyInstance,
  opts: {
    router: AppRouter;
    invoke: Invoke;
    createContext: (o: { req: FastifyRequest; res: Context['reply'] }) => Context;
  },
) {
  const config = opts.router._def._config;
  for (const { path, method } of sessionFreeProcedures(opts.router)) {
    const type = method === 'GET' ? 'query' : 'mutation';
    app.route({
      method,
      url: `/api/trpc/${path}`,
      handler: async (req, reply) => {
        const ctx = opts.createContext({ req, res: reply });
        let input: unknown;
        try {
          input = method === 'GET' ? queryInput(req) : req.body;
          return reply.send({ result: { data: await opts.invoke(path, ctx, input) } });
        } catch (err) {
          const error = asTRPCError(err);
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error }, 'tRPC procedure failed');
          else if (error.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err: error }, 'database unavailable');
          const shape = getErrorShape({ config, error, type, path, input, ctx });
          return reply.code(shape.data.httpStatus).send({ error: shape });
        }
      },
    });
  }
}
