// The transforms a buyer's field map may apply (issue 34, ADR 069): a closed list, parsed here so the
// schema can refuse an unknown one with its field, and applied by the server (buyers/buyer-request.ts).
// Never a template engine, never eval.

export type TransformOp =
  | { op: 'upper' | 'lower' | 'trim' | 'digits' | 'e164' | 'stateName' | 'sha256' | 'md5' | 'ascii' }
  | { op: 'date'; pattern: string }
  | { op: 'map'; pairs: [string, string][] }
  | { op: 'default'; value: string }
  | { op: 'bool'; yes: string; no: string }
  | { op: 'substr'; from: number; to: number | undefined };

const SIMPLE = new Set(['upper', 'lower', 'trim', 'digits', 'e164', 'stateName', 'sha256', 'md5', 'ascii']);
/** `date:` patterns are made of these tokens and separators (longest token first). */
export const DATE_TOKENS = ['YYYY', 'MM', 'DD', 'M', 'D'] as const;
const DATE_PATTERN = /^(?:YYYY|MM|DD|M|D|[^A-Za-z])+$/;

export type ParsedTransform = { ok: true; value: TransformOp } | { ok: false; message: string };

const fail = (message: string): ParsedTransform => ({ ok: false, message });

/** Parses one transform (`digits`, `date:MM/DD/YYYY`, `map:a=b,c=d`, `substr:0:5`…). */
export function parseTransform(text: string): ParsedTransform {
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const arg = colon < 0 ? undefined : text.slice(colon + 1);
  if (SIMPLE.has(name)) {
    if (arg !== undefined) return fail(`transform '${name}' takes no argument`);
    return { ok: true, value: { op: name as 'upper' } };
  }
  switch (name) {
    case 'date':
      if (!arg || !DATE_PATTERN.test(arg)) {
        return fail(
          "date:<pattern> needs a pattern of YYYY, MM, DD, M, D and separators (e.g. 'date:MM/DD/YYYY')",
        );
      }
      return { ok: true, value: { op: 'date', pattern: arg } };
    case 'map': {
      if (!arg) return fail("map needs pairs, e.g. 'map:CA=California,NY=New York'");
      const pairs: [string, string][] = [];
      for (const pair of arg.split(',')) {
        const eq = pair.indexOf('=');
        if (eq <= 0) return fail(`map: '${pair}' is not a pair written a=b`);
        pairs.push([pair.slice(0, eq), pair.slice(eq + 1)]);
      }
      return { ok: true, value: { op: 'map', pairs } };
    }
    case 'default':
      if (arg === undefined) return fail("default needs a value, e.g. 'default:unknown'");
      return { ok: true, value: { op: 'default', value: arg } };
    case 'bool': {
      const slash = arg?.indexOf('/') ?? -1;
      if (!arg || slash < 0) return fail("bool needs two values, e.g. 'bool:Yes/No'");
      return { ok: true, value: { op: 'bool', yes: arg.slice(0, slash), no: arg.slice(slash + 1) } };
    }
    case 'substr': {
      const m = arg ? /^(\d{1,4})(?::(\d{1,4}))?$/.exec(arg) : null;
      if (!m) return fail("substr needs a start and an optional end, e.g. 'substr:0:5'");
      const from = Number(m[1]);
      const to = m[2] === undefined ? undefined : Number(m[2]);
      if (to !== undefined && to < from) return fail('substr: the end comes before the start');
      return { ok: true, value: { op: 'substr', from, to } };
    }
    default:
      return fail(
        `unknown transform '${name}' (known: upper, lower, trim, digits, e164, date:<pattern>, stateName, map:a=b, default:x, bool:<true>/<false>, sha256, md5, ascii, substr:<from>:<to>)`,
      );
  }
}
