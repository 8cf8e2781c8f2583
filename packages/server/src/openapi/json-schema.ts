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

/** A procedure's output schema as the JSON Schema of what a client receives. */
export function outputSchema(schema: z.core.$ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as {
    $schema?: string;
  };
  delete json.$schema;
  return json;
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
