import { RE2JS } from 're2js';
import type { BuyerRule } from './buyers';

// The regular expressions admins write into buyers' response rules (`when.regex` on the raw answer,
// `when.matches` on the value at a JSON/XML path), compiled and run by one engine: RE2 syntax through
// re2js, a pure-JavaScript port of RE2 (issue 47, ADR 072). RE2 matches in time linear in the text, so
// no pattern can backtrack for seconds on the server's only thread, as `(a+)+$` did with JavaScript's
// RegExp. Linear still has a constant: it grows with the size of the compiled program, so programs are
// capped per pattern and per buyer (every rule of a buyer may run against one 8 KB answer). The schema
// refuses at setup what this module refuses; the sale reads the same verdict for rules stored before.
// Server-only: the web app never imports this module (the engine is about 65 KB gzip).

/** Characters of one pattern. */
export const PATTERN_MAX_LENGTH = 500;
/**
 * Instructions of one compiled pattern. Real rules (`"status"\s*:\s*"(accepted|sold)"`, a UUID) compile to
 * 10–60; the worst pattern at this size costs ≈ 2–5 ms against an 8 KB answer here (ADR 072).
 */
export const PATTERN_MAX_PROGRAM = 300;
/** Instructions of all the patterns of one buyer's rules, all of which may run against one answer. */
export const RULES_MAX_PROGRAM = 1000;

export type CompiledPattern =
  | { ok: true; size: number; test(text: string): boolean }
  | { ok: false; reason: string };

/** Why RE2 refused a pattern, in the admin's words (the engine's own message otherwise). */
function reasonOf(pattern: string, message: string): string {
  if (/\(\?<?[=!]/.test(pattern)) {
    return 'uses lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which RE2 does not run: patterns are RE2 syntax, so that each runs in linear time';
  }
  if (/\\[1-9]|\\k</.test(pattern)) {
    return 'uses a backreference (\\1, \\k<name>), which RE2 does not run: patterns are RE2 syntax, so that each runs in linear time';
  }
  if (/\\u/.test(pattern)) return 'uses \\uXXXX, which RE2 writes \\x{XXXX}';
  const why = message.replace(/^error parsing regexp: /, '');
  return `is not a valid regular expression in RE2 syntax (${why})`;
}

function compile(pattern: string): CompiledPattern {
  if (pattern.length > PATTERN_MAX_LENGTH) {
    return { ok: false, reason: `is too long (at most ${PATTERN_MAX_LENGTH} characters)` };
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    return { ok: false, reason: reasonOf(pattern, (err as Error).message) };
  }
  const size = re.re2Input.prog.numInst();
  if (size > PATTERN_MAX_PROGRAM) {
    return {
      ok: false,
      reason: `is too complex (${size} steps once compiled, at most ${PATTERN_MAX_PROGRAM}: use fewer or smaller {n} repeats)`,
    };
  }
  return { ok: true, size, test: (text) => re.test(text) };
}

// Each buyer's handful of patterns is compiled once per process, not once per answer. Bounded: cleared
// whole when full (patterns change only when an admin edits a buyer).
const cache = new Map<string, CompiledPattern>();
const CACHE_SIZE = 1000;

/** `pattern` compiled by RE2, or why it cannot run. Never throws. */
export function compilePattern(pattern: string): CompiledPattern {
  const known = cache.get(pattern);
  if (known) return known;
  const compiled = compile(pattern);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/** Instructions of all the patterns of `rules` that can run (those that cannot are refused on their own). */
export function rulesProgramSize(rules: readonly Pick<BuyerRule, 'when'>[]): number {
  let total = 0;
  for (const rule of rules) {
    for (const pattern of [rule.when?.regex, rule.when?.matches]) {
      if (typeof pattern !== 'string') continue;
      const compiled = compilePattern(pattern);
      if (compiled.ok) total += compiled.size;
    }
  }
  return total;
}

export const rulesTooComplex = (total: number) =>
  `responseRules: the patterns are too complex together (${total} steps once compiled, at most ${RULES_MAX_PROGRAM})`;

/**
 * The first reason a buyer's rules cannot run, naming the field (`responseRules.2.when.regex: …`), or null
 * when every pattern can: what the sale checks before it posts a lead to a buyer saved before ADR 072.
 */
export function rulesProblem(rules: readonly Pick<BuyerRule, 'when'>[]): string | null {
  for (const [index, rule] of rules.entries()) {
    for (const key of ['regex', 'matches'] as const) {
      const pattern = rule.when?.[key];
      if (typeof pattern !== 'string') continue;
      const compiled = compilePattern(pattern);
      if (!compiled.ok) return `responseRules.${index}.when.${key} ${compiled.reason}`;
    }
  }
  const total = rulesProgramSize(rules);
  return total > RULES_MAX_PROGRAM ? rulesTooComplex(total) : null;
}

/**
 * Runs the engine once over an answer-sized text, so that the first buyer's answer a process reads does
 * not pay for loading and optimising RE2's code (≈ 50–100 ms here, once): call before serving.
 */
export function warmUpPatterns(): void {
  const text = `{"status":"accepted","id":"0f0e8a4c-1b2c-4d3e"} ${'a'.repeat(8 * 1024)}`;
  for (let round = 0; round < 3; round++) {
    for (const pattern of [
      '"status"\\s*:\\s*"(?:accepted|sold)"',
      '(?i)^\\s*ok\\b',
      '(a+)+$',
      '[0-9a-f]{8}-\\pL',
    ]) {
      RE2JS.compile(pattern).test(text);
    }
  }
}
