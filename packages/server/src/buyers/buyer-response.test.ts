import type { BuyerRule } from '@uf/shared/buyers';
import { describe, expect, it } from 'vitest';
import { evaluateRules, priceOf, readPath } from './buyer-response';

// A buyer's answer read by its response rules (issue 34, ADR 069), for three buyers shaped like real
// ones, and the hostile or broken answers a buyer's server may send.

const PX_RULES: BuyerRule[] = [
  {
    when: { status: '2xx', json: 'Success', equals: true },
    outcome: 'accepted',
    priceFrom: 'Payout',
    refFrom: 'LeadId',
  },
  { when: { status: '2xx', json: 'Success', equals: false }, outcome: 'rejected', reasonFrom: 'Message' },
];

const BOBERDOO_RULES: BuyerRule[] = [
  {
    when: { xml: 'response.status', equals: 'Matched' },
    outcome: 'accepted',
    priceFrom: 'response.best_bid',
    refFrom: 'response.lead_id',
  },
  {
    when: { xml: 'response.status', equals: 'Unmatched' },
    outcome: 'rejected',
    reasonFrom: 'response.error',
  },
];

const LEADEXEC_RULES: BuyerRule[] = [
  { when: { json: 'ResponseType', equals: 0 }, outcome: 'accepted', priceFrom: 'Price', refFrom: 'LeadId' },
  { when: { json: 'ResponseType', equals: 6 }, outcome: 'duplicate', reasonFrom: 'Message' },
  { when: { json: 'ResponseType', equals: 8 }, outcome: 'rejected', reasonFrom: 'Message' },
  { when: { status: '4xx' }, outcome: 'rejected', reasonFrom: 'Message' },
];

const MATCHED =
  '<?xml version="1.0"?><response><status>Matched</status><best_bid>12.00</best_bid><lead_id>991</lead_id></response>';
const UNMATCHED = '<response><status>Unmatched</status><error>No buyer for this zip</error></response>';

describe('evaluateRules', () => {
  it('reads the PX-like answers: both HTTP 200, told apart by Success', () => {
    expect(evaluateRules(PX_RULES, { status: 200, body: '{"Success":true,"Payout":8.5}' })).toEqual({
      outcome: 'accepted',
      reason: null,
      priceCents: 850,
      reference: null,
      rule: 0,
    });
    expect(
      evaluateRules(PX_RULES, { status: 200, body: '{"Success":false,"Message":"BadRequest"}' }),
    ).toEqual({
      outcome: 'rejected',
      reason: 'BadRequest',
      priceCents: null,
      reference: null,
      rule: 1,
    });
  });

  it('reads the boberdoo-like XML answers by element, where a naive regex takes Unmatched for a sale', () => {
    expect(evaluateRules(BOBERDOO_RULES, { status: 200, body: MATCHED })).toEqual({
      outcome: 'accepted',
      reason: null,
      priceCents: 1200,
      reference: '991',
      rule: 0,
    });
    expect(evaluateRules(BOBERDOO_RULES, { status: 200, body: UNMATCHED })).toEqual({
      outcome: 'rejected',
      reason: 'No buyer for this zip',
      priceCents: null,
      reference: null,
      rule: 1,
    });
    const naive: BuyerRule[] = [{ when: { regex: '[Mm]atched' }, outcome: 'accepted' }];
    expect(evaluateRules(naive, { status: 200, body: UNMATCHED }).outcome).toBe('accepted'); // wrong
  });

  it('reads the LeadExec-like answers: accepted, duplicate, over its cap', () => {
    const answer = (body: object, status = 200) =>
      evaluateRules(LEADEXEC_RULES, { status, body: JSON.stringify(body) });
    expect(answer({ ResponseType: 0, LeadId: 12345678, Price: '$11.25', Message: 'Lead Accepted' })).toEqual({
      outcome: 'accepted',
      reason: null,
      priceCents: 1125,
      reference: '12345678',
      rule: 0,
    });
    expect(answer({ ResponseType: 6, Message: 'Duplicate lead' })).toEqual({
      outcome: 'duplicate',
      reason: 'Duplicate lead',
      priceCents: null,
      reference: null,
      rule: 1,
    });
    expect(answer({ ResponseType: 8, Message: 'Lead rejected: daily cap reached' })).toEqual({
      outcome: 'rejected',
      reason: 'Lead rejected: daily cap reached',
      priceCents: null,
      reference: null,
      rule: 2,
    });
    // Loose comparison: "0" is 0.
    expect(answer({ ResponseType: '0' }).outcome).toBe('accepted');
    expect(answer({ Message: 'Invalid field: Email' }, 422)).toEqual({
      outcome: 'rejected',
      reason: 'Invalid field: Email',
      priceCents: null,
      reference: null,
      rule: 3,
    });
    expect(answer({ ResponseType: 99 })).toEqual({
      outcome: 'error',
      reason: 'no response rule matched',
      priceCents: null,
      reference: null,
      rule: null,
    });
  });

  it('calls a 5xx an error whatever the rules say', () => {
    const rules: BuyerRule[] = [{ when: { status: '5xx' }, outcome: 'accepted' }];
    expect(evaluateRules(rules, { status: 503, body: '{"Success":true}' })).toEqual({
      outcome: 'error',
      reason: 'HTTP 503',
      priceCents: null,
      reference: null,
      rule: null,
    });
    expect(evaluateRules(PX_RULES, { status: 500, body: '{"Success":true,"Payout":8.5}' }).outcome).toBe(
      'error',
    );
  });

  it('matches status exactly or by class', () => {
    const rules: BuyerRule[] = [
      { when: { status: 201 }, outcome: 'accepted' },
      { when: { status: '2xx' }, outcome: 'duplicate' },
      { when: { status: '4xx' }, outcome: 'rejected' },
    ];
    expect(evaluateRules(rules, { status: 201, body: '' }).rule).toBe(0);
    expect(evaluateRules(rules, { status: 200, body: '' }).rule).toBe(1);
    expect(evaluateRules(rules, { status: 409, body: '' }).rule).toBe(2);
    expect(evaluateRules(rules, { status: 302, body: '' }).outcome).toBe('error');
  });

  it('needs every condition of a rule to hold', () => {
    const rules: BuyerRule[] = [{ when: { status: 200, json: 'ok', regex: 'sold' }, outcome: 'accepted' }];
    expect(evaluateRules(rules, { status: 200, body: '{"ok":1,"note":"sold"}' }).outcome).toBe('accepted');
    expect(evaluateRules(rules, { status: 201, body: '{"ok":1,"note":"sold"}' }).outcome).toBe('error');
    expect(evaluateRules(rules, { status: 200, body: '{"ok":1}' }).outcome).toBe('error');
    expect(evaluateRules(rules, { status: 200, body: '{"note":"sold"}' }).outcome).toBe('error');
  });

  it('compares scalars loosely, objects never equal, matches against text', () => {
    const rule = (when: BuyerRule['when']): BuyerRule[] => [{ when, outcome: 'accepted' }];
    const body = '{"a":true,"b":null,"c":12,"d":"12.00","e":{"x":1},"f":"Lead Accepted"}';
    const ok = (when: BuyerRule['when']) =>
      evaluateRules(rule(when), { status: 200, body }).outcome === 'accepted';
    expect(ok({ json: 'a', equals: 'true' })).toBe(true);
    expect(ok({ json: 'a', equals: true })).toBe(true);
    expect(ok({ json: 'a', equals: false })).toBe(false);
    expect(ok({ json: 'b', equals: null })).toBe(true);
    expect(ok({ json: 'b' })).toBe(true); // present, though null
    expect(ok({ json: 'c', equals: '12' })).toBe(true);
    expect(ok({ json: 'd', equals: 12 })).toBe(false); // text compared: "12.00" is not "12"
    expect(ok({ json: 'e', equals: '[object Object]' })).toBe(false);
    expect(ok({ json: 'e', matches: '"x":1' })).toBe(true);
    expect(ok({ json: 'f', matches: '^Lead Acc' })).toBe(true);
    expect(ok({ json: 'f', matches: '^Accepted' })).toBe(false);
    expect(ok({ json: 'missing' })).toBe(false);
    // An XML rule on a JSON body, and the other way round, read nothing.
    expect(ok({ xml: 'a' })).toBe(false);
    expect(evaluateRules(rule({ json: 'response.status' }), { status: 200, body: MATCHED }).outcome).toBe(
      'error',
    );
  });

  it('falls back on a regex when the body is neither JSON nor XML', () => {
    const rules: BuyerRule[] = [
      { when: { regex: '^OK\\|' }, outcome: 'accepted' },
      { when: { regex: '^DUP' }, outcome: 'duplicate' },
      { when: { json: 'x' }, outcome: 'rejected' },
    ];
    expect(evaluateRules(rules, { status: 200, body: 'OK|12345' }).rule).toBe(0);
    expect(evaluateRules(rules, { status: 200, body: 'DUPLICATE' }).rule).toBe(1);
    // Broken JSON is not JSON: the json rule cannot match, a regex still can.
    expect(evaluateRules(rules, { status: 200, body: '{"x": 1' }).outcome).toBe('error');
    expect(
      evaluateRules([{ when: { regex: '"x"' }, outcome: 'rejected' }], { status: 200, body: '{"x": 1' })
        .outcome,
    ).toBe('rejected');
  });

  it('reads reason and reference as capped text, and nothing from a body that has no tree', () => {
    const rules: BuyerRule[] = [
      { when: { status: 200 }, outcome: 'rejected', reasonFrom: 'errors', refFrom: 'id', priceFrom: 'price' },
    ];
    const long = 'x'.repeat(600);
    const answer = evaluateRules(rules, {
      status: 200,
      body: JSON.stringify({ errors: [long], id: 42, price: -1 }),
    });
    expect(answer.reason).toBe(`["${'x'.repeat(498)}`);
    expect(answer.reason).toHaveLength(500);
    const emoji = evaluateRules(rules, { status: 200, body: JSON.stringify({ errors: '😀'.repeat(600) }) });
    expect(emoji.reason).toBe('😀'.repeat(500));
    expect(answer.reference).toBe('42');
    expect(answer.priceCents).toBeNull();
    expect(evaluateRules(rules, { status: 200, body: 'plain text' })).toEqual({
      outcome: 'rejected',
      reason: null,
      priceCents: null,
      reference: null,
      rule: 0,
    });
    expect(evaluateRules(rules, { status: 200, body: '{"errors":"","id":null}' })).toMatchObject({
      reason: null,
      reference: null,
    });
  });

  it('is not fooled by a hostile body', () => {
    const rules: BuyerRule[] = [
      { when: { json: 'constructor' }, outcome: 'accepted' },
      { when: { json: 'toString' }, outcome: 'accepted' },
      {
        when: { json: '__proto__.polluted', equals: 'yes' },
        outcome: 'duplicate',
        reasonFrom: '__proto__.polluted',
      },
      {
        when: { json: 'ok' },
        outcome: 'rejected',
        reasonFrom: 'constructor.name',
        priceFrom: 'hasOwnProperty',
      },
    ];
    // JSON.parse makes `__proto__` an own property: read as data, and nothing is polluted.
    expect(evaluateRules(rules, { status: 200, body: '{"__proto__":{"polluted":"yes"}}' })).toEqual({
      outcome: 'duplicate',
      reason: 'yes',
      priceCents: null,
      reference: null,
      rule: 2,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(evaluateRules(rules, { status: 200, body: '{"ok":1}' })).toEqual({
      outcome: 'rejected',
      reason: null,
      priceCents: null,
      reference: null,
      rule: 3,
    });
    expect(evaluateRules(rules, { status: 200, body: '[]' }).outcome).toBe('error');
    // A pattern RE2 refuses (a rule stored before ADR 072) matches nothing rather than throwing.
    expect(
      evaluateRules([{ when: { regex: '(' }, outcome: 'accepted' }], { status: 200, body: '(' }).outcome,
    ).toBe('error');
    // An XML answer with a DTD is not read (a regex rule still sees the raw text).
    const xxe =
      '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><response><status>Matched</status></response>';
    expect(evaluateRules(BOBERDOO_RULES, { status: 200, body: xxe }).outcome).toBe('error');
  });
});

describe('patterns on RE2 (ADR 072)', () => {
  it('reads a catastrophic-backtracking pattern against a long answer in milliseconds', () => {
    // JavaScript's RegExp backtracks on (a+)+$: 15 s for 30 characters; RE2 reads 8 KB in linear time.
    const rules: BuyerRule[] = [
      { when: { regex: '(a+)+$' }, outcome: 'accepted' },
      { when: { status: 200 }, outcome: 'rejected' },
    ];
    for (const body of [`${'a'.repeat(28)}!`, `${'a'.repeat(8192)}!`, 'a'.repeat(8192)]) {
      const started = performance.now();
      const parsed = evaluateRules(rules, { status: 200, body });
      expect(performance.now() - started, `${body.length} characters`).toBeLessThan(50);
      expect(parsed.outcome).toBe(body.endsWith('!') ? 'rejected' : 'accepted');
    }
  });

  it('matches a JSON value by RE2, whose (?i) JavaScript lacks', () => {
    const rules: BuyerRule[] = [{ when: { json: 'status', matches: '(?i)^accepted$' }, outcome: 'accepted' }];
    expect(evaluateRules(rules, { status: 200, body: '{"status":"ACCEPTED"}' }).outcome).toBe('accepted');
  });
});

describe('readPath', () => {
  it('reads own properties and array indexes', () => {
    const root = { a: { b: [{ c: 'x' }, 'y'] }, n: null, z: 0 };
    expect(readPath(root, 'a.b.0.c')).toBe('x');
    expect(readPath(root, 'a.b.1')).toBe('y');
    expect(readPath(root, 'a.b.2')).toBeUndefined();
    expect(readPath(root, 'a.b.01')).toBeUndefined();
    expect(readPath(root, 'a.b.length')).toBeUndefined();
    expect(readPath(root, 'n')).toBeNull();
    expect(readPath(root, 'n.x')).toBeUndefined();
    expect(readPath(root, 'z')).toBe(0);
    expect(readPath('text', 'length')).toBeUndefined();
    expect(readPath(undefined, 'a')).toBeUndefined();
  });

  it('never reads inherited properties', () => {
    for (const path of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'a.__proto__',
      'a.constructor.name',
    ]) {
      expect(readPath({ a: {} }, path), path).toBeUndefined();
    }
    expect(readPath([], 'constructor')).toBeUndefined();
  });
});

describe('priceOf', () => {
  it('takes numbers and numeric text as whole cents, and nothing else', () => {
    expect(priceOf(8.5)).toBe(850);
    expect(priceOf(0.29)).toBe(29);
    expect(priceOf(0)).toBe(0);
    expect(priceOf('12.00')).toBe(1200);
    expect(priceOf('$8.50')).toBe(850);
    expect(priceOf(' $ 1,250.00 ')).toBe(125000);
    expect(priceOf('.5')).toBe(50);
    for (const bad of [
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '-3',
      '12 USD',
      '1e3',
      '',
      'free',
      true,
      null,
      {},
      [8],
    ]) {
      expect(priceOf(bad), String(bad)).toBeNull();
    }
  });
});
