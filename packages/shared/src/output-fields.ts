import { z } from 'zod';

// Building blocks of the procedures' output schemas (issue 23): what an answer's fields are, with the
// words the OpenAPI document shows. Full zod (not zod/mini): only the server imports the *.output.ts
// files, so the web's bundles never carry them. Formats are words for the reader (JSON Schema
// annotations), not checks: the server wrote these values itself.

const words = (description?: string) => (description ? { description } : {});

export const text = (description?: string) => z.string().meta(words(description));
export const nullableText = (description?: string) => z.string().nullable().meta(words(description));
export const uuid = (description?: string) => z.string().meta({ format: 'uuid', ...words(description) });
export const dateTime = (description?: string) =>
  z.string().meta({ format: 'date-time', ...words(description) });
/** The default words of an instant. */
export const instant = () => dateTime('ISO 8601 instant, UTC');
export const isoDate = () => z.string().meta({ format: 'date', description: 'Date, YYYY-MM-DD' });
export const count = (description?: string) => z.int().meta(words(description));
export const flag = (description?: string) => z.boolean().meta(words(description));
/** `{ ok: true }`, the answer of an action with nothing else to say. */
export const okSchema = z.object({ ok: z.literal(true) });
/** An object whose keys are not listed (audit details, a person's exported rows). */
export const anyObject = () => z.record(z.string(), z.unknown());
