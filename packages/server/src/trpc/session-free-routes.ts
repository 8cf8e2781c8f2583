import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from './context';
import type { AppRouter, Operations } from './router';
import { asTRPCError, type Operation, type ProcedureMeta, runOperation } from './trpc';

type ProcedureDef = { _def: { type: string; meta?: ProcedureMeta } };
type CallerFn = (input: unknown) => Promise<unknown>;

/** The tRPC paths the server answers outside the admin session's scope (`session: 'none'`). */
export function sessionFreeProcedures(router: AppRouter): { path: string; method: 'GET' | 'POST' }[] {
  return Object.entries(router._def.procedures as unknown as Record<string, ProcedureDef>)
    .filter(([, procedure]) => procedure._def.meta?.session === 'none')
    .map(([path, procedure]) => ({ path, method: procedure._def.type === 'query' ? 'GET' : 'POST' }));
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
 * that operation directly, the same group-committed path as its REST row. The answer is tRPC's own
 * envelope (`{result: {data}}`, or `{error: shape}` from the router's error formatter with the status
 * its code maps to), so the tRPC client cannot tell the doors apart. Other methods on these paths fall
 * through to the adapter's route and its 405.
 */
export function registerSessionFreeProcedures(
  app: FastifyInstance,
  opts: {
    router: AppRouter;
    operations: Operations;
    createContext: (o: { req: FastifyRequest; res: Context['reply'] }) => Context;
    makeCaller: (ctx: Context) => unknown;
  },
) {
  const operations = opts.operations as Record<string, Operation | undefined>;
  const config = opts.router._def._config;
  for (const { path, method } of sessionFreeProcedures(opts.router)) {
    const operation = operations[path];
    const type = method === 'GET' ? 'query' : 'mutation';
    app.route({
      method,
      url: `/api/trpc/${path}`,
      handler: async (req, reply) => {
        const ctx = opts.createContext({ req, res: reply });
        let input: unknown;
        try {
          input = method === 'GET' ? queryInput(req) : req.body;
          const data = operation
            ? await runOperation(operation, ctx, input)
            : await (
                path
                  .split('.')
                  .reduce<unknown>(
                    (node, key) => (node as Record<string, unknown>)[key],
                    opts.makeCaller(ctx),
                  ) as CallerFn
              )(input);
          return reply.send({ result: { data } });
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
