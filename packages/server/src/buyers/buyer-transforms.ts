import { createHash } from 'node:crypto';
import type { TransformOp } from '@uf/shared/buyer-transforms';
import { isUsStateCode, US_STATE_NAMES } from '@uf/shared/state-sites';

// What a buyer's field map does to a lead value before it is posted (issue 34, ADR 069). The closed
// list is parsed and validated in @uf/shared/buyer-transforms; this file only applies it. Pure string
// functions: no template engine, no eval, nothing here reads anything but its input.

const TRUTHY = new Set(['true', '1', 'yes', 'y', 'on']);

/**
 * Applies the transforms in order. A null value (the lead has no such field) stays null through every
 * transform except `default`, which is how a field map gives a missing value a stand-in.
 */
export function applyTransforms(value: string | null, ops: readonly TransformOp[]): string | null {
  let current = value;
  for (const op of ops) current = applyOne(current, op);
  return current;
}

function applyOne(value: string | null, op: TransformOp): string | null {
  if (op.op === 'default') return value === null || value === '' ? op.value : value;
  if (value === null) return null;
  switch (op.op) {
    case 'upper':
      return value.toUpperCase();
    case 'lower':
      return value.toLowerCase();
    case 'trim':
      return value.trim();
    case 'digits':
      return value.replace(/[^0-9]/g, '');
    case 'e164':
      return e164(value);
    case 'stateName': {
      const code = value.trim().toUpperCase();
      return isUsStateCode(code) ? US_STATE_NAMES[code] : value;
    }
    case 'map':
      for (const [from, to] of op.pairs) if (value === from) return to;
      return value;
    case 'bool':
      return TRUTHY.has(value.trim().toLowerCase()) ? op.yes : op.no;
    case 'sha256':
      return createHash('sha256').update(value, 'utf8').digest('hex');
    case 'md5':
      return createHash('md5').update(value, 'utf8').digest('hex');
    case 'ascii':
      return ascii(value);
    case 'substr':
      // Code points, so an emoji or an accented letter written as two UTF-16 units is not cut in half.
      return Array.from(value).slice(op.from, op.to).join('');
    case 'date':
      return formatDate(value, op.pattern);
  }
}

/**
 * E.164 for US numbers: 10 digits (area code first) or 11 starting with the country code 1 become
 * +1XXXXXXXXXX, whatever punctuation surrounded them. A number already written with a leading '+' and
 * 8 to 15 digits is taken as international and given back as '+' and its digits. Anything else is not a
 * number we can vouch for and is given back unchanged (the buyer's own validation will say so).
 */
function e164(value: string): string {
  const digits = value.replace(/[^0-9]/g, '');
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  if (value.trim().startsWith('+') && digits.length >= 8 && digits.length <= 15) return `+${digits}`;
  return value;
}

/** Diacritics removed (NFKD splits 'é' into 'e' and a combining accent) and every non-ASCII character dropped. */
function ascii(value: string): string {
  let out = '';
  for (const ch of value.normalize('NFKD')) if (ch.charCodeAt(0) < 128) out += ch;
  return out;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;
const TOKENS = ['YYYY', 'MM', 'DD', 'M', 'D'] as const;

/**
 * Rewrites an ISO date (or the date part of an ISO date-time, as written, without any time zone
 * conversion) with a pattern of YYYY, MM, DD, M, D and separators; the longest token is tried first so
 * MM is one token, not two M. A value that is not a real calendar date is given back unchanged.
 */
function formatDate(value: string, pattern: string): string {
  const m = ISO_DATE.exec(value);
  if (!m) return value;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  if (month < 1 || month > 12 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return value;
  const parts: Record<(typeof TOKENS)[number], string> = {
    YYYY: String(year).padStart(4, '0'),
    MM: String(month).padStart(2, '0'),
    DD: String(day).padStart(2, '0'),
    M: String(month),
    D: String(day),
  };
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const token = TOKENS.find((t) => pattern.startsWith(t, i));
    if (token) {
      out += parts[token];
      i += token.length;
    } else {
      out += pattern[i];
      i += 1;
    }
  }
  return out;
}
