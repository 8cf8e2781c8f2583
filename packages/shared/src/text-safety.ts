// What any string the site accepts may contain (issue 13), decided once for every route and procedure:
// no NUL (PostgreSQL cannot store it), no other control characters but tab, line feed and carriage
// return, and no lone UTF-16 surrogate (it cannot be encoded as UTF-8). The shared zod schemas decide
// everything else (lengths, formats); this rule is checked before them, on the whole input.

// Control characters are matched by code point: a regular expression that names them trips the
// linter's rule against accidental control characters, and here they are the point.
const isControl = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Inputs nested deeper than this are refused: no form or API call of the site nests past a few levels. */
export const MAX_INPUT_DEPTH = 32;

export const UNSAFE_TEXT_MESSAGE = 'contains characters that are not allowed';
export const TOO_DEEP_MESSAGE = 'is nested too deeply';

export function isSafeText(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i))) return false;
  return !LONE_SURROGATE.test(value);
}

/**
 * The first string (or key) in `value` that breaks the rule, as a field path like `email` or
 * `ids.3`, with its message; null when everything is acceptable.
 */
export function findUnsafeText(
  value: unknown,
  path = '',
  depth = 0,
): { field: string; message: string } | null {
  const field = path || 'body';
  if (typeof value === 'string')
    return isSafeText(value) ? null : { field, message: `${field} ${UNSAFE_TEXT_MESSAGE}` };
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_INPUT_DEPTH) return { field, message: `${field} ${TOO_DEEP_MESSAGE}` };
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const name = path ? `${path}.${key}` : String(key);
    if (typeof key === 'string' && !isSafeText(key))
      return { field: path || 'body', message: `A field name ${UNSAFE_TEXT_MESSAGE}` };
    const found = findUnsafeText(item, name, depth + 1);
    if (found) return found;
  }
  return null;
}
