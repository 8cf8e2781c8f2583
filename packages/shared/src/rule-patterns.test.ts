import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  PATTERN_MAX_LENGTH,
  PATTERN_MAX_PROGRAM,
  RULES_MAX_PROGRAM,
  rulesProblem,
  rulesProgramSize,
} from './rule-patterns';

// Response-rule patterns on RE2 (issue 47, ADR 072): what is refused and why, and what running the worst
// patterns the caps allow costs against a buyer's largest answer (8 KB).

const EIGHT_KB_OF_A = 'a'.repeat(8 * 1024);

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('compilePattern', () => {
  it('runs what response rules are written with, and the RE2 extras', () => {
    const cases: [string, string, boolean][] = [
      ['"status"\\s*:\\s*"(?:accepted|sold)"', '{"status": "sold"}', true],
      ['^OK\\|', 'OK|123', true],
      ['^\\d{3}-\\d{4}$', '555-1234', true],
      [
        '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
        'id 0f0e8a4c-1b2c-4d3e-8f9a-0b1c2d3e4f5a',
        true,
      ],
      ['\\bMatched\\b', '<status>Unmatched</status>', false],
      ['(?i)accepted', 'ACCEPTED', true],
      ['\\x{41}', 'A', true],
      ['\\/lead\\/', 'POST /lead/1', true],
    ];
    for (const [pattern, text, expected] of cases) {
      const compiled = compilePattern(pattern);
      expect(compiled.ok, pattern).toBe(true);
      if (compiled.ok) expect(compiled.test(text), pattern).toBe(expected);
    }
  });

  it('refuses what RE2 cannot run, saying why', () => {
    const cases: [string, string][] = [
      ['(a)\\1', 'backreference'],
      ['(?<n>a)\\k<n>', 'backreference'],
      ['ok(?=;)', 'lookahead or lookbehind'],
      ['(?!error)', 'lookahead or lookbehind'],
      ['(?<=id=)\\d+', 'lookahead or lookbehind'],
      ['(?<!un)matched', 'lookahead or lookbehind'],
      ['\\u0041', 'RE2 writes \\x{XXXX}'],
      ['[^]', 'not a valid regular expression in RE2 syntax (missing closing ]'],
      ['([', 'not a valid regular expression in RE2 syntax'],
      ['a'.repeat(PATTERN_MAX_LENGTH + 1), `at most ${PATTERN_MAX_LENGTH} characters`],
      [`a{${PATTERN_MAX_PROGRAM}}`, 'too complex'],
      ['(?:a{1000}){1000}', 'invalid repeat count'],
    ];
    for (const [pattern, words] of cases) {
      const compiled = compilePattern(pattern);
      expect(compiled.ok, pattern).toBe(false);
      if (!compiled.ok) expect(compiled.reason, pattern).toContain(words);
    }
  });

  it('matches (a+)+$ against 8 KB of a in linear time (JavaScript backtracks for ever)', () => {
    const compiled = compilePattern('(a+)+$');
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.test(EIGHT_KB_OF_A)).toBe(true);
    const { value, ms } = timed(() => compiled.test(`${EIGHT_KB_OF_A}!`));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(50);
  });

  it('bounds the worst a buyer can ask: every pattern at the caps against an 8 KB answer', () => {
    // Adversarial shapes (optional repeats, nested stars, word boundaries), as large as RULES_MAX_PROGRAM
    // lets one buyer's rules be together.
    const shapes = ['(?:a?){80}a{80}', '(.?){35}(.){35}$', '\\b(?:\\w+\\b\\W*){48}$', '(.*a){48}'];
    const rules = shapes.map((regex) => ({ when: { regex } }));
    for (const { when } of rules) {
      const compiled = compilePattern(when.regex);
      expect(compiled.ok ? compiled.size : 0, when.regex).toBeGreaterThan(RULES_MAX_PROGRAM / 5);
    }
    expect(rulesProblem(rules)).toBeNull();
    expect(rulesProgramSize(rules)).toBeLessThanOrEqual(RULES_MAX_PROGRAM);
    const texts = [EIGHT_KB_OF_A, `${EIGHT_KB_OF_A}!`, 'ab '.repeat(2730)];
    const run = () => {
      for (const text of texts) {
        for (const { when } of rules) {
          const compiled = compilePattern(when.regex);
          if (compiled.ok) compiled.test(text);
        }
      }
    };
    run(); // warm the engine up, as a long-running server has
    const { ms } = timed(run);
    const perAnswer = ms / texts.length;
    console.info(`rule-patterns: worst buyer's rules against one 8 KB answer: ${perAnswer.toFixed(1)} ms`);
    expect(perAnswer).toBeLessThan(100);
  });
});

describe('rulesProblem', () => {
  it('names the first rule whose pattern cannot run, then the total', () => {
    expect(rulesProblem([{ when: { regex: '^OK' } }, { when: { json: 'a', matches: '(x)\\1' } }])).toMatch(
      /^responseRules\.1\.when\.matches uses a backreference/,
    );
    const big = `[a-z]{${Math.floor(PATTERN_MAX_PROGRAM * 0.9)}}`;
    const rules = Array.from({ length: 5 }, () => ({ when: { regex: big } }));
    expect(rulesProblem(rules)).toMatch(/^responseRules: the patterns are too complex together/);
    expect(rulesProblem([{ when: { status: 200 } }])).toBeNull();
  });
});
