import type { $ZodType } from 'zod/v4/core';
import type { Context } from './context';
import type { AppRouter, Operations } from './router';
import { type Operation, type ProcedureMeta, runOperation } from './trpc';

// The router is the one list of operations (issue 23): each procedure carries its input schema, who may
// call it and its REST door (ProcedureMeta). The doors read the list from here.

export type ProcedureEntry = {
  path: string;
  type: 'query' | 'mutation';
  meta: ProcedureMeta;
  /** The input schemas (`.input(...)`, in order; tRPC merges them), read by the OpenAPI document. */
  inputs: $ZodType[];
  /** The output schema, when the procedure declares one (`.output(...)`). */
  output?: $ZodType;
};

// tRPC 11 keeps a procedure's parsers on its definition: `inputs` (every `.input()`), `output`.
type ProcedureDef = {
  _def: { type: string; meta?: ProcedureMeta; inputs?: unknown[]; output?: unknown };
};

/** Every procedure of the router, by its dotted path (`lead.submit`). */
export function proceduresOf(router: AppRouter): ProcedureEntry[] {
  return Object.entries(router._def.procedures as unknown as Record<string, ProcedureDef>).map(
    ([path, procedure]) => ({
      path,
      type: procedure._def.type === 'query' ? 'query' : 'mutation',
      meta: procedure._def.meta ?? {},
      // Every schema here is zod (the shared schemas); a parser of another kind would be left out.
      inputs: (procedure._def.inputs ?? []).filter(isZod),
      ...(isZod(procedure._def.output) ? { output: procedure._def.output } : {}),
    }),
  );
}

/** Whether a parser (or a schema written in a description) is a zod schema. */
export const isZod = (parser: unknown): parser is $ZodType =>
  typeof parser === 'object' && parser !== null && '_zod' in parser;

export type Invoke = (path: string, ctx: Context, input: unknown) => Promise<unknown>;

/**
 * Runs a procedure for a door other than tRPC's own adapter. A procedure backed by an operation (ADR 051:
 * submit, track, partner lead) runs that operation directly — its schema, its body — without a tRPC
 * caller and middleware chain per request; any other goes through the router's caller, middleware
 * included (admin check, input rules, error mapping).
 */
export function createInvoker(opts: {
  operations: Operations;
  makeCaller: (ctx: Context) => unknown;
}): Invoke {
  const operations = opts.operations as Record<string, Operation | undefined>;
  return (path, ctx, input) => {
    const operation = operations[path];
    if (operation) return runOperation(operation, ctx, input);
    const call = path
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], opts.makeCaller(ctx));
    return (call as (input: unknown) => Promise<unknown>)(input);
  };
}
