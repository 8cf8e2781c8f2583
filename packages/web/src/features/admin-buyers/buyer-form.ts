import {
  BUYER_LEAD_FIELDS,
  type BuyerConfig,
  type BuyerEncoding,
  type BuyerField,
  type BuyerFilters,
  type BuyerRule,
  type BuyerRuleWhen,
  type BuyerStatus,
  CAP_PERIODS,
  type CapPeriod,
  RULE_OUTCOMES,
  type RuleOutcome,
  WEEK_DAYS,
  type WeekDay,
} from '@uf/shared/buyers';
import type { FieldError } from '@uf/shared/errors';

// The buyer editor's state (issue 34) and the API body it becomes, both ways: what the admin types (text,
// empty number fields, rows) against what the API takes (BuyerConfig). Blank rows are left out; an empty
// required number is sent as null, so that the server names the field. Pure: unit-tested beside.

/** A NumberInput's value: a number, or the text being typed ('' when empty). */
export type NumberText = number | string;

export type HeaderDraft = { key: string; name: string; value: string; secret: boolean };
export type FieldDraft = {
  key: string;
  to: string;
  source: 'lead' | 'value';
  from: string;
  value: string;
  /** The transforms in order, separated by | ('digits | substr:0:10'). */
  transforms: string;
};
export type RuleDraft = {
  key: string;
  status: string;
  json: string;
  xml: string;
  regex: string;
  equals: string;
  matches: string;
  outcome: RuleOutcome;
  reasonFrom: string;
  priceFrom: string;
  refFrom: string;
};
export type WindowDraft = { key: string; days: WeekDay[]; start: string; end: string };
export type CapDraft = { key: string; period: CapPeriod; leads: NumberText; amount: NumberText };

export type BuyerDraft = {
  name: string;
  status: BuyerStatus;
  priority: NumberText;
  price: NumberText;
  kind: 'http' | 'email';
  method: 'POST' | 'GET';
  url: string;
  testUrl: string;
  encoding: BuyerEncoding;
  xmlRoot: string;
  headers: HeaderDraft[];
  timeoutMs: NumberText;
  /** E-mail delivery: one to five addresses, separated by commas. */
  emailTo: string;
  fields: FieldDraft[];
  rules: RuleDraft[];
  states: string[];
  minAge: NumberText;
  maxAge: NumberText;
  leadTypes: string[];
  /** utm_source values separated by commas. */
  sources: string;
  scheduled: boolean;
  timeZone: string;
  windows: WindowDraft[];
  caps: CapDraft[];
  returnWindowDays: NumberText;
  maxConsecutiveErrors: NumberText;
};

/** A buyer as the API answers it (secrets masked); only what the editor shows. */
export type SavedBuyer = Omit<BuyerConfig, 'caps'> & {
  caps?: { period: string; leads?: number; amount?: number }[];
};

let keys = 0;
/** A React key for a new row (never sent). */
export const rowKey = () => {
  keys += 1;
  return `row-${keys}`;
};

export const emptyHeader = (): HeaderDraft => ({ key: rowKey(), name: '', value: '', secret: false });
export const emptyField = (): FieldDraft => ({
  key: rowKey(),
  to: '',
  source: 'lead',
  from: '',
  value: '',
  transforms: '',
});
export const emptyRule = (): RuleDraft => ({
  key: rowKey(),
  status: '',
  json: '',
  xml: '',
  regex: '',
  equals: '',
  matches: '',
  outcome: 'accepted',
  reasonFrom: '',
  priceFrom: '',
  refFrom: '',
});
export const emptyWindow = (): WindowDraft => ({
  key: rowKey(),
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start: '09:00',
  end: '17:00',
});
export const emptyCap = (): CapDraft => ({ key: rowKey(), period: 'day', leads: '', amount: '' });

/** A new buyer: active, posting JSON, with one empty field and one empty rule to fill in. */
export function newBuyerDraft(): BuyerDraft {
  return {
    name: '',
    status: 'active',
    priority: 100,
    price: '',
    kind: 'http',
    method: 'POST',
    url: '',
    testUrl: '',
    encoding: 'json',
    xmlRoot: '',
    headers: [],
    timeoutMs: '',
    emailTo: '',
    fields: [emptyField()],
    rules: [emptyRule()],
    states: [],
    minAge: '',
    maxAge: '',
    leadTypes: [],
    sources: '',
    scheduled: false,
    timeZone: 'America/New_York',
    windows: [emptyWindow()],
    caps: [],
    returnWindowDays: '',
    maxConsecutiveErrors: '',
  };
}

/**
 * The Equals field's placeholder and the rule help's words for it, said as parseEquals reads them (issue 49:
 * the help said "quoted for text" while the placeholder showed Matched unquoted — text needs quotes only
 * when it would read as another type). Each example of the placeholder is one type: true, 0, Matched.
 */
export const EQUALS_PLACEHOLDER = 'true, 0, Matched';
export const EQUALS_HELP =
  'true, false, null and plain numbers are compared as such; anything else as text, typed as it is (Matched). Quote text only when it would read as one of those ("true", "0").';

/** A rule's `equals` as typed: true/false/null and plain numbers are those values; "quoted" is text. */
export function parseEquals(text: string): string | number | boolean | null {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^".*"$/s.test(text)) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  const n = Number(text);
  if (text.trim() !== '' && Number.isFinite(n) && String(n) === text) return n;
  return text;
}

/** `equals` as the editor shows it: text that would read as another type is quoted. */
export function equalsText(value: BuyerRuleWhen['equals']): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return parseEquals(value) === value ? value : JSON.stringify(value);
}

/** A rule's status as typed: '200' → 200, '2XX' → '2xx'; anything else is sent as it is (the server says). */
export function parseStatus(text: string): number | '2xx' | '4xx' | '5xx' {
  const t = text.trim().toLowerCase();
  if (/^\d{3}$/.test(t)) return Number(t);
  return t as '2xx';
}

/** A list typed on one line: 'a, b  c' → ['a', 'b', 'c'] (split on commas, and on spaces too unless `commasOnly`). */
export function listOf(text: string, commasOnly = false): string[] {
  return text
    .split(commasOnly ? /,/ : /[\s,;]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** '  digits | substr:0:10 |' → ['digits', 'substr:0:10']. */
export function transformsOf(text: string): string[] {
  return text
    .split('|')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

const optionalNumber = (value: NumberText): number | undefined => {
  if (typeof value === 'number') return value;
  const typed = value.replace(/[$,\s]/g, '');
  if (typed === '') return undefined;
  // Not a number ('-', '1e', 'ten'): sent as null, so that the server names the field.
  return Number(typed) as number;
};
/** A required number: empty is sent as null and refused by the server, naming the field. */
const requiredNumber = (value: NumberText): number => optionalNumber(value) ?? (null as unknown as number);
const text = (value: string) => (value.trim() === '' ? undefined : value.trim());

function headersOf(rows: HeaderDraft[], secret: boolean): Record<string, string> | undefined {
  const chosen = rows.filter((h) => h.secret === secret && (h.name.trim() !== '' || h.value !== ''));
  if (chosen.length === 0) return undefined;
  return Object.fromEntries(chosen.map((h) => [h.name.trim(), h.value]));
}

const isBlankField = (f: FieldDraft) =>
  f.to.trim() === '' && f.from === '' && f.value === '' && f.transforms.trim() === '';

function fieldOf(f: FieldDraft): BuyerField {
  const field: BuyerField = { to: f.to.trim() };
  if (f.source === 'value') field.value = f.value;
  else if (f.from !== '') field.from = f.from as BuyerField['from'];
  const transforms = transformsOf(f.transforms);
  if (transforms.length > 0) field.transforms = transforms;
  return field;
}

const RULE_TEXTS = [
  'status',
  'json',
  'xml',
  'regex',
  'equals',
  'matches',
  'reasonFrom',
  'priceFrom',
  'refFrom',
] as const;
const isBlankRule = (r: RuleDraft) => RULE_TEXTS.every((k) => r[k].trim() === '');

function ruleOf(r: RuleDraft): BuyerRule {
  const when: BuyerRuleWhen = {};
  if (r.status.trim() !== '') when.status = parseStatus(r.status);
  if (r.json.trim() !== '') when.json = r.json.trim();
  if (r.xml.trim() !== '') when.xml = r.xml.trim();
  if (r.regex !== '') when.regex = r.regex;
  if (r.equals !== '') when.equals = parseEquals(r.equals);
  if (r.matches !== '') when.matches = r.matches;
  const rule: BuyerRule = { when, outcome: r.outcome };
  if (text(r.reasonFrom)) rule.reasonFrom = text(r.reasonFrom);
  if (text(r.priceFrom)) rule.priceFrom = text(r.priceFrom);
  if (text(r.refFrom)) rule.refFrom = text(r.refFrom);
  return rule;
}

function filtersOf(d: BuyerDraft): BuyerFilters | undefined {
  const filters: BuyerFilters = {};
  if (d.states.length > 0) filters.states = d.states;
  const minAge = optionalNumber(d.minAge);
  const maxAge = optionalNumber(d.maxAge);
  if (minAge !== undefined) filters.minAge = minAge;
  if (maxAge !== undefined) filters.maxAge = maxAge;
  if (d.leadTypes.length > 0) filters.leadTypes = d.leadTypes as ('website' | 'api')[];
  const sources = listOf(d.sources, true);
  if (sources.length > 0) filters.sources = sources;
  return Object.keys(filters).length > 0 ? filters : undefined;
}

const isBlankWindow = (w: WindowDraft) => w.days.length === 0 && w.start.trim() === '' && w.end.trim() === '';
const isBlankCap = (c: CapDraft) =>
  optionalNumber(c.leads) === undefined && optionalNumber(c.amount) === undefined;

/** The API body of a draft (the create body; the update body is updateBody). */
export function configOf(d: BuyerDraft): BuyerConfig {
  const config: BuyerConfig = {
    name: d.name.trim(),
    status: d.status,
    priority: requiredNumber(d.priority),
    price: requiredNumber(d.price),
    delivery:
      d.kind === 'email'
        ? { kind: 'email', to: listOf(d.emailTo) }
        : {
            kind: 'http',
            method: d.method,
            url: d.url.trim(),
            ...(text(d.testUrl) ? { testUrl: text(d.testUrl) } : {}),
            encoding: d.encoding,
            ...(d.encoding === 'xml' && text(d.xmlRoot) ? { xmlRoot: text(d.xmlRoot) } : {}),
            ...(headersOf(d.headers, false) ? { headers: headersOf(d.headers, false) } : {}),
            ...(headersOf(d.headers, true) ? { secretHeaders: headersOf(d.headers, true) } : {}),
            ...(optionalNumber(d.timeoutMs) !== undefined ? { timeoutMs: optionalNumber(d.timeoutMs) } : {}),
          },
    fields: d.fields.filter((f) => !isBlankField(f)).map(fieldOf),
    responseRules: d.rules.filter((r) => !isBlankRule(r)).map(ruleOf),
  };
  const filters = filtersOf(d);
  if (filters) config.filters = filters;
  if (d.scheduled) {
    config.schedule = {
      timeZone: d.timeZone.trim(),
      windows: d.windows
        .filter((w) => !isBlankWindow(w))
        .map((w) => ({
          days: WEEK_DAYS.filter((day) => w.days.includes(day)),
          start: w.start.trim(),
          end: w.end.trim(),
        })),
    };
  }
  const caps = d.caps
    .filter((c) => !isBlankCap(c))
    .map((c) => ({
      period: c.period,
      ...(optionalNumber(c.leads) !== undefined ? { leads: optionalNumber(c.leads) } : {}),
      ...(optionalNumber(c.amount) !== undefined ? { amount: optionalNumber(c.amount) } : {}),
    }));
  if (caps.length > 0) config.caps = caps;
  const returnWindowDays = optionalNumber(d.returnWindowDays);
  if (returnWindowDays !== undefined) config.returnWindowDays = returnWindowDays;
  const maxConsecutiveErrors = optionalNumber(d.maxConsecutiveErrors);
  if (maxConsecutiveErrors !== undefined) config.maxConsecutiveErrors = maxConsecutiveErrors;
  return config;
}

/** The PATCH body: everything, with filters, schedule and caps sent as null when cleared. */
export function updateBody(id: string, d: BuyerDraft) {
  const config = configOf(d);
  return {
    id,
    ...config,
    filters: config.filters ?? null,
    schedule: config.schedule ?? null,
    caps: config.caps ?? null,
  };
}

const numberText = (n: number | undefined): NumberText => (n === undefined ? '' : n);

/** The editor's state for a saved buyer (secret values stay '••••' until changed). */
export function draftOf(b: SavedBuyer): BuyerDraft {
  const base = newBuyerDraft();
  const http = b.delivery.kind === 'http' ? b.delivery : undefined;
  const headerRows = (record: Record<string, string> | undefined, secret: boolean) =>
    Object.entries(record ?? {}).map(([name, value]) => ({ key: rowKey(), name, value, secret }));
  return {
    ...base,
    name: b.name,
    status: b.status,
    priority: b.priority,
    price: b.price,
    kind: b.delivery.kind,
    method: http?.method ?? 'POST',
    url: http?.url ?? '',
    testUrl: http?.testUrl ?? '',
    encoding: http?.encoding ?? 'json',
    xmlRoot: http?.xmlRoot ?? '',
    headers: [...headerRows(http?.headers, false), ...headerRows(http?.secretHeaders, true)],
    timeoutMs: numberText(http?.timeoutMs),
    emailTo: b.delivery.kind === 'email' ? b.delivery.to.join(', ') : '',
    fields: b.fields.map((f) => ({
      key: rowKey(),
      to: f.to,
      source: f.value !== undefined ? 'value' : 'lead',
      from: f.from ?? '',
      value: f.value ?? '',
      transforms: (f.transforms ?? []).join(' | '),
    })),
    rules: b.responseRules.map((r) => ({
      key: rowKey(),
      status: r.when.status === undefined ? '' : String(r.when.status),
      json: r.when.json ?? '',
      xml: r.when.xml ?? '',
      regex: r.when.regex ?? '',
      equals: equalsText(r.when.equals),
      matches: r.when.matches ?? '',
      outcome: r.outcome,
      reasonFrom: r.reasonFrom ?? '',
      priceFrom: r.priceFrom ?? '',
      refFrom: r.refFrom ?? '',
    })),
    states: [...(b.filters?.states ?? [])],
    minAge: numberText(b.filters?.minAge),
    maxAge: numberText(b.filters?.maxAge),
    leadTypes: b.filters?.leadTypes ?? [],
    sources: (b.filters?.sources ?? []).join(', '),
    scheduled: Boolean(b.schedule),
    timeZone: b.schedule?.timeZone ?? base.timeZone,
    windows: b.schedule
      ? b.schedule.windows.map((w) => ({ key: rowKey(), days: [...w.days], start: w.start, end: w.end }))
      : base.windows,
    caps: (b.caps ?? []).map((c) => ({
      key: rowKey(),
      period: (CAP_PERIODS as readonly string[]).includes(c.period) ? (c.period as CapPeriod) : 'day',
      leads: numberText(c.leads),
      amount: numberText(c.amount),
    })),
    returnWindowDays: numberText(b.returnWindowDays),
    maxConsecutiveErrors: numberText(b.maxConsecutiveErrors),
  };
}

/** The lead fields a field map may read, for its select. */
export const LEAD_FIELD_CHOICES = BUYER_LEAD_FIELDS.map((f) => ({ value: f, label: f }));
export const OUTCOME_CHOICES = RULE_OUTCOMES.map((o) => ({ value: o, label: o }));

/** The server's field errors by path ('fields.2.to' → its message); several on one path are joined. */
export type FieldErrors = Record<string, string>;

export function fieldErrorsOf(errors: FieldError[] | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const { field, message } of errors ?? []) {
    out[field] = out[field] ? `${out[field]}; ${message}` : message;
  }
  return out;
}

/** The messages at `path` and under it ('delivery.headers' also shows 'delivery.headers.X-Key'). */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const found = Object.entries(errors)
    .filter(([field]) => field === path || field.startsWith(`${path}.`))
    .map(([, message]) => message);
  return found.length > 0 ? [...new Set(found)].join('; ') : undefined;
}

/** The messages at exactly `path` (a row's own refusal, not its fields'). */
export function errorExactly(errors: FieldErrors, path: string): string | undefined {
  return errors[path];
}

/**
 * The path of a row as the server names it: the server counts only the rows that were sent (blank rows are
 * left out), so the editor's row i is the sent row index(i).
 */
export function sentIndexes<T>(rows: T[], isBlank: (row: T) => boolean): (number | null)[] {
  let n = 0;
  return rows.map((row) => {
    if (isBlank(row)) return null;
    n += 1;
    return n - 1;
  });
}

export const blank = { field: isBlankField, rule: isBlankRule, window: isBlankWindow, cap: isBlankCap };

/** Moves the item at `from` one place up (-1) or down (+1); out of range changes nothing. */
export function move<T>(list: T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[from], next[to]] = [next[to] as T, next[from] as T];
  return next;
}
