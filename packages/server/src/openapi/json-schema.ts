import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A shared zod schema as the JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a client sends.
 * `extra` adds to its fields what the conversion cannot carry: words, and rules that live in refinements
 * (patterns, formats); a field's `properties` add to a nested object's fields the same way.
 */
export function inputSchema(schema: z.core.$ZodType, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as {
    $schema?: string;
  };
  delete json.$schema;
  return withFields(json, extra);
}

function withFields(json: JsonSchema, extra: Record<string, JsonSchema>): JsonSchema {
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return json;
  for (const [name, more] of Object.entries(extra)) {
    const field = properties[name];
    if (!field) continue;
    const { properties: nested, ...rest } = more as { properties?: Record<string, JsonSchema> };
    properties[name] = { ...(nested ? withFields(field, nested) : field), ...rest };
  }
  return json;
}

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/**
 * An answer's zod schema (a procedure's `.output()`, or what a route that is no procedure sends) as the
 * JSON Schema of what a client receives. Schemas named with `.meta({ id })` become components: their
 * definition goes to `components` (once; a second, different one of the same name is an error) and the
 * answer refers to it. Two things zod adds are left out, as they say nothing a client can rely on: the
 * safe-integer bounds of every `z.int()`, and `additionalProperties: false` (answers may gain fields).
 * A nullable scalar is written `type: [..., 'null']`, as zod writes it for strings.
 */
export function outputSchema(schema: z.core.$ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const { $schema, $defs, ...json } = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, definition] of Object.entries($defs ?? {})) {
    const tidy = tidied(definition) as JsonSchema;
    if (components[name] && JSON.stringify(components[name]) !== JSON.stringify(tidy)) {
      throw new Error(`Two different schemas are named ${name}`);
    }
    components[name] = tidy;
  }
  return tidied(json) as JsonSchema;
}

function tidied(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidied);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(DEFS)) {
      out.$ref = COMPONENTS + value.slice(DEFS.length);
      continue;
    }
    out[key] = tidied(value);
  }
  // `{anyOf: [{type: 'integer'}, {type: 'null'}]}` (what is left of a nullable int) as `{type: [...]}`.
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (anyOf?.every((branch) => Object.keys(branch).length === 1 && typeof branch.type === 'string')) {
    delete out.anyOf;
    out.type = anyOf.map((branch) => branch.type);
  }
  return out;
}

export const str = (description?: string, more: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...more,
});
export const nullableStr = (description?: string): JsonSchema => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
});
export const int = (description?: string): JsonSchema => ({
  type: 'integer',
  ...(description ? { description } : {}),
});
export const bool = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export function object(
  properties: Record<string, JsonSchema>,
  required = Object.keys(properties),
): JsonSchema {
  return { type: 'object', properties, required };
}
