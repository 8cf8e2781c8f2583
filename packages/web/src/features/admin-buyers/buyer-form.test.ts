import { type BuyerConfig, MASK } from '@uf/shared/buyers';
import { describe, expect, it } from 'vitest';
import {
  blank,
  configOf,
  draftOf,
  EQUALS_HELP,
  EQUALS_PLACEHOLDER,
  emptyField,
  emptyRule,
  equalsText,
  errorAt,
  errorExactly,
  fieldErrorsOf,
  move,
  newBuyerDraft,
  parseEquals,
  parseStatus,
  sentIndexes,
  transformsOf,
  updateBody,
} from './buyer-form';

// The buyer editor's state and the API body, both ways (issue 34), on bodies like the integration test's
// PX-, boberdoo- and LeadExec-like buyers.

const PX: BuyerConfig = {
  name: 'PX-like',
  status: 'active',
  priority: 10,
  price: 8.5,
  delivery: {
    kind: 'http',
    method: 'POST',
    url: 'https://api.buyer.example/leads',
    testUrl: 'https://api.buyer.example/test',
    encoding: 'json',
    headers: { 'x-source': 'uf', authorization: MASK },
    secretHeaders: { 'api-key': MASK },
    timeoutMs: 10_000,
  },
  fields: [
    { to: 'ApiToken', value: 'your-token' },
    { to: 'ContactData.FirstName', from: 'firstName' },
    { to: 'ContactData.Phone', from: 'phone', transforms: ['digits'] },
    { to: 'Person.BirthDate', from: 'birthDate', transforms: ['date:YYYY-MM-DD', 'default:not given'] },
    { to: 'Empty', value: '' },
  ],
  responseRules: [
    { when: { status: '2xx', json: 'Success', equals: true }, outcome: 'accepted', priceFrom: 'Payout' },
    { when: { json: 'Success', equals: false }, outcome: 'rejected', reasonFrom: 'Message' },
    { when: { json: 'ResponseType', equals: 0 }, outcome: 'accepted', refFrom: 'LeadId' },
    { when: { xml: 'response.status', equals: 'Matched' }, outcome: 'accepted' },
    { when: { json: 'code', equals: '12.00' }, outcome: 'duplicate' },
    { when: { json: 'code', equals: 'true' }, outcome: 'error' },
    { when: { json: 'missing', equals: null }, outcome: 'error' },
    { when: { status: 500, regex: 'down|maintenance' }, outcome: 'error' },
    { when: { xml: 'r.msg', matches: '^dup' }, outcome: 'duplicate' },
  ],
  filters: { states: ['CA', 'NY'], minAge: 30, leadTypes: ['website'], sources: ['google'] },
  schedule: {
    timeZone: 'America/Chicago',
    windows: [
      { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' },
      { days: ['sat'], start: '22:00', end: '02:00' },
    ],
  },
  caps: [
    { period: 'day', leads: 100 },
    { period: 'month', amount: 2500.5 },
  ],
  returnWindowDays: 10,
  maxConsecutiveErrors: 3,
};

describe('the buyer editor state', () => {
  it('turns a saved buyer into the editor and back into the same body', () => {
    expect(configOf(draftOf(PX))).toEqual(PX);
    const email: BuyerConfig = {
      name: 'By mail',
      status: 'paused',
      priority: 5,
      price: 2,
      delivery: { kind: 'email', to: ['leads@buyer.example', 'ops@buyer.example'] },
      fields: [{ to: 'Name', from: 'firstName' }],
      responseRules: [],
    };
    expect(configOf(draftOf(email))).toEqual(email);
  });

  it('keeps masked secrets masked: sent back as •••• unless changed', () => {
    const draft = draftOf(PX);
    expect(draft.headers.map((h) => [h.name, h.value, h.secret])).toEqual([
      ['x-source', 'uf', false],
      ['authorization', MASK, false],
      ['api-key', MASK, true],
    ]);
    const changed = {
      ...draft,
      headers: draft.headers.map((h) => (h.name === 'api-key' ? { ...h, value: 'new-key' } : h)),
    };
    const body = configOf(changed);
    expect(body.delivery).toMatchObject({
      headers: { 'x-source': 'uf', authorization: MASK },
      secretHeaders: { 'api-key': 'new-key' },
    });
  });

  it('leaves blank rows out, and sends empty required numbers as null for the server to name', () => {
    const draft = { ...newBuyerDraft(), name: ' Acme ', url: ' https://a.example/x ', price: '' };
    draft.fields = [emptyField(), { ...emptyField(), to: 'Zip', from: 'zipCode' }, emptyField()];
    draft.rules = [emptyRule(), { ...emptyRule(), status: '2XX' }];
    const body = configOf(draft);
    expect(body).toEqual({
      name: 'Acme',
      status: 'active',
      priority: 100,
      price: null,
      delivery: { kind: 'http', method: 'POST', url: 'https://a.example/x', encoding: 'json' },
      fields: [{ to: 'Zip', from: 'zipCode' }],
      responseRules: [{ when: { status: '2xx' }, outcome: 'accepted' }],
    });
    // The server numbers the rows it got: the editor's second field row is the sent row 0.
    expect(sentIndexes(draft.fields, blank.field)).toEqual([null, 0, null]);
  });

  it('sends only the XML root of an XML body, and a schedule only when on', () => {
    const draft = { ...draftOf(PX), encoding: 'form' as const, xmlRoot: 'lead', scheduled: false };
    const body = configOf(draft);
    expect(body.delivery).not.toHaveProperty('xmlRoot');
    expect(body).not.toHaveProperty('schedule');
    expect(configOf({ ...draft, encoding: 'xml' }).delivery).toMatchObject({
      encoding: 'xml',
      xmlRoot: 'lead',
    });
  });

  it('clears filters, schedule and caps with null on update', () => {
    const draft = {
      ...draftOf(PX),
      states: [],
      minAge: '',
      leadTypes: [],
      sources: '',
      scheduled: false,
      caps: [],
    };
    expect(updateBody('b-1', draft)).toMatchObject({ id: 'b-1', filters: null, schedule: null, caps: null });
  });

  it('says Equals in its help and placeholder as it reads it (issue 49)', () => {
    // The placeholder's examples are a boolean, a number and text typed without quotes…
    expect(EQUALS_PLACEHOLDER.split(', ').map(parseEquals)).toEqual([true, 0, 'Matched']);
    // …and the help says text needs no quotes, except where it would read as another type.
    expect(EQUALS_HELP).not.toMatch(/"quoted" for text/);
    expect(EQUALS_HELP).toContain('(Matched)');
    for (const quoted of EQUALS_HELP.match(/"[^"]*"/g) ?? []) {
      expect(typeof parseEquals(quoted)).toBe('string');
      expect(parseEquals(quoted.slice(1, -1))).not.toBe(quoted.slice(1, -1));
    }
  });

  it('reads equals as typed: booleans, null and plain numbers, anything else as text', () => {
    expect(parseEquals('true')).toBe(true);
    expect(parseEquals('false')).toBe(false);
    expect(parseEquals('null')).toBe(null);
    expect(parseEquals('0')).toBe(0);
    expect(parseEquals('8.5')).toBe(8.5);
    expect(parseEquals('12.00')).toBe('12.00');
    expect(parseEquals('Matched')).toBe('Matched');
    expect(parseEquals('"true"')).toBe('true');
    expect(parseEquals('"0"')).toBe('0');
    for (const value of [true, false, null, 0, 8.5, '12.00', 'Matched', 'true', '0', 'null', '"q"']) {
      expect(parseEquals(equalsText(value))).toBe(value);
    }
  });

  it('reads lists typed on one line: sources and addresses', () => {
    const draft = { ...draftOf(PX), sources: 'google ads, bing', emailTo: 'a@b.example' };
    expect(configOf(draft).filters).toMatchObject({ states: ['CA', 'NY'], sources: ['google ads', 'bing'] });
    expect(configOf({ ...draft, kind: 'email', emailTo: 'a@b.example; c@d.example,' }).delivery).toEqual({
      kind: 'email',
      to: ['a@b.example', 'c@d.example'],
    });
  });

  it('reads numbers as typed, with a dollar sign or thousands commas; anything else for the server to refuse', () => {
    const draft = { ...newBuyerDraft(), price: '$1,250.50', priority: ' 7 ', timeoutMs: 'soon' };
    const body = configOf(draft);
    expect(body.price).toBe(1250.5);
    expect(body.priority).toBe(7);
    expect(JSON.parse(JSON.stringify(body.delivery))).toMatchObject({ timeoutMs: null });
  });

  it('reads statuses and transforms', () => {
    expect(parseStatus('200')).toBe(200);
    expect(parseStatus(' 4XX ')).toBe('4xx');
    expect(transformsOf(' digits | substr:0:10 ||map:a=b,c=d ')).toEqual([
      'digits',
      'substr:0:10',
      'map:a=b,c=d',
    ]);
  });

  it('finds the server’s field errors at a path and under it', () => {
    const errors = fieldErrorsOf([
      { field: 'delivery.headers.X Key', message: "delivery.headers: 'X Key' is not a header name" },
      { field: 'fields.1.to', message: 'fields: to is required' },
      { field: 'fields.1', message: 'fields: give either from (a lead field) or value (a constant)' },
      { field: 'fields.10.to', message: 'another row' },
    ]);
    expect(errorAt(errors, 'delivery.headers')).toBe("delivery.headers: 'X Key' is not a header name");
    expect(errorAt(errors, 'fields.1')).toBe(
      'fields: to is required; fields: give either from (a lead field) or value (a constant)',
    );
    expect(errorExactly(errors, 'fields.1')).toBe(
      'fields: give either from (a lead field) or value (a constant)',
    );
    expect(errorAt(errors, 'delivery.url')).toBeUndefined();
  });

  it('moves rows up and down, never out of the list', () => {
    expect(move(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
