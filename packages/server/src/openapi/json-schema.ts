import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** A shared zod schema as the JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a client sends. */
export function inputSchema(schema: z.core.$ZodType, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as {
    $schema?: string;
    properties?: Record<string, JsonSchema>;
  };
  delete json.$schema;
  // Rules that live in refinements (patterns, formats) do not survive the conversion: add them back.
  for (const [name, more] of Object.entries(extra)) {
    if (json.properties?.[name]) json.properties[name] = { ...json.properties[name], ...more };
  }
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
