import type { FastifyRequest } from 'fastify';
import { type ProcedureEntry, proceduresOf } from '../trpc/procedures';
import type { AppRouter } from '../trpc/router';
import type { ProcedureMeta, RestMeta } from '../trpc/trpc';

// The REST surface of the spec (§7), derived from the router (issue 23): every procedure whose meta
// names a REST door (`restAt(...)`) is one route. Nothing about an operation is written here.

export type RestRoute = Omit<RestMeta, 'path'> & {
  /** The procedure that answers (`lead.submit`). */
  procedure: string;
  url: string;
  access: ProcedureMeta['access'];
  /**
   * The procedure's input and output schemas (the OpenAPI document describes the route with them). The
   * input is the schema the procedure parses with itself when its meta names one (`parses`: its own
   * `.input()` accepts anything, the partner lead).
   */
  inputs: ProcedureEntry['inputs'];
  output: ProcedureEntry['output'];
};

export function restRoutesOf(router: AppRouter): RestRoute[] {
  return proceduresOf(router).flatMap(({ path, meta, inputs, output }) => {
    if (!meta.rest) return [];
    const { path: url, ...rest } = meta.rest;
    const described = meta.parses ? [meta.parses] : inputs;
    return [{ ...rest, url, procedure: path, access: meta.access, inputs: described, output }];
  });
}

/**
 * The procedure's input from a REST request, one rule for every route: a GET's query string, any other
 * method's JSON body (an object; `{}` when there is none) unless its route takes the query string
 * (`inQuery`), and the path's parameters over either — `PATCH /api/leads/:id/beneficiary` with
 * `{beneficiary}` is `{beneficiary, id}`.
 */
export function restInput(req: FastifyRequest, inQuery = false): unknown {
  const params = req.params as Record<string, string>;
  const base = req.method === 'GET' || inQuery ? req.query : (req.body ?? {});
  if (Object.keys(params).length === 0) return base;
  return { ...(base && typeof base === 'object' && !Array.isArray(base) ? base : {}), ...params };
}
