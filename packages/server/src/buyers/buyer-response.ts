import type { BuyerRule, BuyerRuleWhen, RuleOutcome } from '@uf/shared/buyers';
import { centsOf, parseCents } from '@uf/shared/money';
import { compilePattern } from '@uf/shared/rule-patterns';
import { parseXml } from './buyer-xml';

// What a buyer's answer means (issue 34, ADR 069): its response rules, read in order, the first that
// matches wins. A buyer's body comes from a server we do not control, so everything here reads it
// defensively: paths see own properties only, regular expressions run on RE2 (linear time) and match
// nothing when they cannot compile, and nothing throws.

export type ParsedAnswer = {
  outcome: RuleOutcome;
  reason: string | null;
  /** The price the buyer named, whole cents. */
  priceCents: number | null;
  reference: string | null;
  /** Index (from 0) of the rule that matched, or null when none did. */
  rule: number | null;
};

const TEXT_CAP = 500;

/**
 * The value at a dot path (`Result.Payout`, `leads.0.id`): own properties only, so `__proto__`,
 * `constructor` or `toString` in a path read nothing; an array is indexed by a numeric segment.
 * undefined when any step is missing.
 */
export function readPath(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9]\d*)$/.test(segment)) return undefined;
      const index = Number(segment);
      current = index < current.length ? current[index] : undefined;
    } else if (typeof current === 'object' && current !== null) {
      current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** A value as text to compare or match: scalars as String() gives them, objects and arrays as JSON. */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * RE2 (rule-patterns.ts, ADR 072): linear in the text, so a buyer's 8 KB answer can never hold the server's
 * thread. A pattern RE2 refuses matches nothing (postToBuyer does not even post to such a buyer).
 */
function test(pattern: string, text: string): boolean {
  const compiled = compilePattern(pattern);
  return compiled.ok && compiled.test(text);
}

/** The value at `path` meets `equals` and `matches` (when given). */
function valueHolds(value: unknown, when: BuyerRuleWhen): boolean {
  if (value === undefined) return false;
  if (when.equals !== undefined) {
    // Loose on purpose: XML has only text, and buyers write 12, "12", true and "true" for the same thing.
    if (typeof value === 'object' && value !== null) return false;
    if (String(value) !== String(when.equals)) return false;
  }
  if (when.matches !== undefined && !test(when.matches, asText(value))) return false;
  return true;
}

function statusHolds(status: number, expected: NonNullable<BuyerRuleWhen['status']>): boolean {
  if (typeof expected === 'number') return status === expected;
  return Math.floor(status / 100) === Number(expected[0]);
}

type Parsed = { json: unknown; xml: unknown };

/** The body read once: JSON when it looks like an object or array, else XML, else neither. */
function parseBody(body: string): Parsed {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { json: JSON.parse(trimmed), xml: undefined };
    } catch {
      return { json: undefined, xml: undefined };
    }
  }
  if (trimmed.startsWith('<')) return { json: undefined, xml: parseXml(trimmed) ?? undefined };
  return { json: undefined, xml: undefined };
}

function ruleMatches(when: BuyerRuleWhen, status: number, body: string, parsed: Parsed): boolean {
  if (when.status !== undefined && !statusHolds(status, when.status)) return false;
  if (when.json !== undefined) {
    if (parsed.json === undefined || !valueHolds(readPath(parsed.json, when.json), when)) return false;
  }
  if (when.xml !== undefined) {
    if (parsed.xml === undefined || !valueHolds(readPath(parsed.xml, when.xml), when)) return false;
  }
  if (when.regex !== undefined && !test(when.regex, body)) return false;
  return true;
}

function textAt(root: unknown, path: string | undefined): string | null {
  if (path === undefined || root === undefined) return null;
  const value = readPath(root, path);
  if (value === undefined || value === null) return null;
  const text = asText(value);
  if (text === '') return null;
  // By code point, so the cut never leaves half of a surrogate pair.
  return text.length <= TEXT_CAP ? text : Array.from(text).slice(0, TEXT_CAP).join('');
}

/**
 * A buyer's price in whole cents: a JSON number (8.5 → 850) or an amount's text ('12.00', '$8.50',
 * '1,250.00'); anything not an amount ≥ 0 is null.
 */
export function priceOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? centsOf(value) : null;
  return typeof value === 'string' ? parseCents(value) : null;
}

/**
 * The outcome of one post from the buyer's HTTP status and body. A 5xx is an error whatever the rules
 * say (a buyer's server failing is not its answer); otherwise the first rule whose every condition
 * holds decides, and its reasonFrom, priceFrom and refFrom are read from the JSON body, else the XML
 * one. No rule matching is an error: we cannot tell a sale from a refusal.
 */
export function evaluateRules(
  rules: readonly BuyerRule[],
  answer: { status: number; body: string },
): ParsedAnswer {
  if (answer.status >= 500 && answer.status <= 599) {
    return {
      outcome: 'error',
      reason: `HTTP ${answer.status}`,
      priceCents: null,
      reference: null,
      rule: null,
    };
  }
  const parsed = parseBody(answer.body);
  const tree = parsed.json !== undefined ? parsed.json : parsed.xml;
  for (const [index, rule] of rules.entries()) {
    if (!ruleMatches(rule.when, answer.status, answer.body, parsed)) continue;
    return {
      outcome: rule.outcome,
      reason: textAt(tree, rule.reasonFrom),
      priceCents:
        rule.priceFrom === undefined || tree === undefined ? null : priceOf(readPath(tree, rule.priceFrom)),
      reference: textAt(tree, rule.refFrom),
      rule: index,
    };
  }
  return {
    outcome: 'error',
    reason: 'no response rule matched',
    priceCents: null,
    reference: null,
    rule: null,
  };
}
