import {
  API_LEAD_FIELDS,
  type ApiLeadField,
  type SortOrder,
  WEBSITE_LEAD_FIELDS,
  type WebsiteLeadField,
} from '@uf/shared/admin-leads';
import type { ApiLeadFilters, WebsiteLeadFilters } from '@uf/shared/admin-leads.schema';
import { LEAD_CLICK_ID_FIELDS, type LeadClickIdField } from '@uf/shared/attribution';
import pg from 'pg';
import { ApiLead } from '../db/entities/api-lead.entity';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { type ColumnKind, columnsOf, type EntityColumn, jsonObjectSql } from '../db/entity-columns';

// The two lead tables the admin area reads: which SQL column backs each field of spec §3 and how it is
// rendered. A field that is a property of the entity takes its column and kind from the entity (ADR 064);
// the few that are not are SQL expressions here. The JSON list, the CSV export, the sort options and the
// filters are all derived from these tables, so a new column needs only its name in the shared field list.

type Column = { column: string; kind: ColumnKind };

export type LeadKind = 'website' | 'api';

export type LeadTable = {
  kind: LeadKind;
  table: string;
  fields: readonly string[];
  columns: Record<string, Column>;
  notFoundMessage: string;
  /**
   * The lead's own page (issue 26): a JSON object of what the list has no column for, merged into the
   * row; and the columns that say who the lead is (to find data requests about them).
   */
  detailSql: string;
  identitySql: { email: string; phone: string };
  /** Audit actions that name one of this table's leads by `detail.id`. */
  auditActions: readonly string[];
};

/**
 * The admin fields of a table: the entity's columns, and an expression for every field that is none (or
 * that the admin reads otherwise than stored, e.g. tcpaCompliant).
 */
function fieldColumns<F extends string, P extends string>(
  entity: { columns: Readonly<Record<P, EntityColumn>> },
  fields: readonly F[],
  expressions: { readonly [K in Exclude<F, P>]: Column } & { readonly [K in Extract<F, P>]?: Column },
): Record<F, Column> {
  const byExpression: Partial<Record<string, Column>> = expressions;
  const byEntity: Partial<Record<string, EntityColumn>> = entity.columns;
  return Object.fromEntries(
    fields.map((field) => {
      const column = byExpression[field] ?? byEntity[field];
      if (!column) throw new Error(`no column for the admin field '${field}'`);
      return [field, 'column' in column ? column : { column: column.name, kind: column.kind }];
    }),
  ) as Record<F, Column>;
}

const WEBSITE = columnsOf(WebsiteLead);
const API = columnsOf(ApiLead);

/** A SQL expression is a column too: suppressed leads carry opted_out_at (issue 6). */
const optedOut = (table: { columns: { optedOutAt: EntityColumn } }): Column => ({
  column: `(${table.columns.optedOutAt.name} is not null)`,
  kind: 'bool',
});

/**
 * TCPA compliance as the admin reads it (issue 37): consent with complete evidence at submission
 * (`tcpa_compliant`, kept as stored for the consent receipt) and not withdrawn since. An opted-out lead
 * showed 'Compliant' (spec §4's badge follows this field) beside "Opted out": a caller could dial someone
 * who had withdrawn consent.
 */
const tcpaCompliant: Column = {
  column: `(case when ${WEBSITE.columns.optedOutAt.name} is null then ${WEBSITE.columns.tcpaCompliant.name} else 'false' end)`,
  kind: WEBSITE.columns.tcpaCompliant.kind,
};

/**
 * The click ids (issue 24): read from the attribution the lead was stored with (the same JSON its
 * consent receipt holds), so they need no columns of their own nor anything more from the writer
 * (ADR 059). The keys are fixed names, never input.
 */
const CLICK_ID_COLUMNS = Object.fromEntries(
  LEAD_CLICK_ID_FIELDS.map((key) => [
    key,
    { column: `(${WEBSITE.columns.attribution.name}->>'${key}')`, kind: 'text' },
  ]),
) as Record<LeadClickIdField, Column>;

const WEBSITE_COLUMNS: Record<WebsiteLeadField, Column> = fieldColumns(WEBSITE, WEBSITE_LEAD_FIELDS, {
  optedOut: optedOut(WEBSITE),
  tcpaCompliant,
  ...CLICK_ID_COLUMNS,
  // Issue 48: the experiment by its name (its id if it was deleted since), the arm by its key.
  experiment: {
    column: `coalesce((select e.name from experiment e where e.id = ${WEBSITE.columns.experimentId.name}), ${WEBSITE.columns.experimentId.name}::text)`,
    kind: 'text',
  },
  arm: { column: WEBSITE.columns.experimentArm.name, kind: 'text' },
});

const API_COLUMNS: Record<ApiLeadField, Column> = fieldColumns(API, API_LEAD_FIELDS, {
  optedOut: optedOut(API),
});

export const WEBSITE_LEADS: LeadTable = {
  kind: 'website',
  table: WEBSITE.table,
  fields: WEBSITE_LEAD_FIELDS,
  columns: WEBSITE_COLUMNS,
  notFoundMessage: 'Lead not found',
  detailSql: jsonObjectSql(WEBSITE, WEBSITE.table, ['attribution', 'country', ['signals', 'qualitySignals']]),
  identitySql: { email: WEBSITE.columns.email.name, phone: WEBSITE.columns.phone.name },
  auditActions: ['leads.delete'],
};

export const API_LEADS: LeadTable = {
  kind: 'api',
  table: API.table,
  fields: API_LEAD_FIELDS,
  columns: API_COLUMNS,
  notFoundMessage: 'API lead not found',
  detailSql: jsonObjectSql(API, API.table, [
    ['signals', 'qualitySignals'],
    [
      'partner',
      { sql: `(select p.name from partner p where p.id = ${API.table}.${API.columns.partnerId.name})` },
    ],
  ]),
  identitySql: { email: 'null::text', phone: API.columns.phone.name },
  auditActions: ['api_leads.delete'],
};

function columnOf(table: LeadTable, field: string): Column {
  const column = table.columns[field];
  if (!column) throw new Error(`${table.table} has no field '${field}'`);
  return column;
}

/** The field as JSON/CSV shows it: numbers and booleans as text, timestamps as ISO 8601 in UTC. */
function valueSql(column: Column): string {
  switch (column.kind) {
    case 'int':
    case 'bool':
      return `${column.column}::text`;
    case 'timestamp':
      return `to_char(${column.column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    default:
      return column.column;
  }
}

/**
 * The lead's quality (issue 33, ADR 065): its verdict, reason codes, who decided, when, and the rules
 * version. Both tables have the same quality columns (the migration lead_quality adds them to both).
 */
const QUALITY_JSON_SQL = `json_build_object('verdict', quality_verdict, 'reasons', quality_reasons,
  'decidedBy', quality_decided_by,
  'decidedAt', to_char(quality_decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'rulesVersion', quality_rules_version)`;

/** One JSON object per row, built by PostgreSQL (the list and its stream share it). */
export function jsonRowSql(table: LeadTable): string {
  const pairs = table.fields.map((field) => {
    const column = columnOf(table, field);
    // consentGiven stays a JSON boolean; everything else follows valueSql.
    const value = column.kind === 'bool' ? column.column : valueSql(column);
    return `'${field}', ${value}`;
  });
  // json_build_object takes at most 100 arguments: the quality object is merged in as a second one.
  return `(json_build_object(${pairs.join(', ')})::jsonb || jsonb_build_object('quality', ${QUALITY_JSON_SQL}))`;
}

// = + - @ tab CR as code points: ascii() reads the first character without building a substring, which
// keeps the check cheap across a million rows × every text column.
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'].map((c) => c.charCodeAt(0)).join(', ');

/**
 * CSV cells. Text a person typed is neutralised against spreadsheet formula injection (OWASP): a cell
 * starting with = + - @ tab or CR gets a leading apostrophe, so Excel and Sheets show it as text.
 */
export function csvSelectSql(table: LeadTable): string {
  return table.fields
    .map((field) => {
      const column = columnOf(table, field);
      // Times in the business zone with its offset (issue 26, ADR 060): '2026-05-01T07:00:00.000-05:00'
      // reads as New York time and is still one exact instant. The session's TimeZone is TIME_ZONE
      // (exportLeadsCsv sets it on the export's own connection).
      const value =
        column.kind === 'timestamp'
          ? `to_char(${column.column}, 'YYYY-MM-DD"T"HH24:MI:SS.MSTZH:TZM')`
          : valueSql(column);
      const cell =
        column.kind === 'text'
          ? `case when ascii(${value}) in (${FORMULA_STARTS}) then '''' || ${value} else ${value} end`
          : value;
      return `${cell} as "${field}"`;
    })
    .concat(
      // After the spec's columns (issue 33): the verdict and its reason codes, separated by spaces.
      `quality_verdict as "verdict"`,
      `array_to_string(quality_reasons, ' ') as "reasons"`,
    )
    .join(', ');
}

/** ORDER BY for a sort field; ties broken by id so pages never overlap or skip. */
export function orderBySql(table: LeadTable, sort: string, order: SortOrder): string {
  const column = columnOf(table, sort).column;
  const id = columnOf(table, 'id').column;
  // The tie-breaker runs opposite to the sort, and NULLs keep PostgreSQL's default place (first when
  // descending), so the index (created_at desc, id) serves the default order with no sort at all.
  const tie = order === 'desc' ? 'asc' : 'desc';
  return column === id ? `${id} ${order}` : `${column} ${order}, ${id} ${tie}`;
}

export type Bind = (value: string | number | boolean) => string;

/** Placeholders ($1, $2, …) for normal queries. */
export function parameterBinder(): { bind: Bind; params: unknown[] } {
  const params: unknown[] = [];
  return {
    params,
    bind: (value) => {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

/** Inline literals, for COPY (which takes no parameters). Values are already validated by the schema. */
export const literalBinder: Bind = (value) => {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not a finite number');
    return String(value);
  }
  return pg.escapeLiteral(value);
};

const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The search box (issue 16): something that reads as a phone number (digits, spaces and phone
 * punctuation, at least 3 digits) matches the stored phone's digits; anything else matches the name
 * (first and last) or, for website leads, the e-mail, case-insensitively. Trigram indexes serve all
 * three (migration lead_search).
 */
function searchSql(table: LeadTable, search: string, bind: Bind): string {
  const c = (field: string) => columnOf(table, field).column;
  const digits = search.replace(/\D/g, '');
  if (/^[\d\s().+-]+$/.test(search) && digits.length >= 3) {
    return `phone_digits(${c('phone')}) like ${bind(likeContains(digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits))}`;
  }
  const text = bind(likeContains(search.toLowerCase()));
  const name = `lower(${c('firstName')} || ' ' || ${c('lastName')}) like ${text}`;
  return table.kind === 'website' ? `(${name} or lower(${c('email')}) like ${text})` : name;
}

/** Casts of a bound value, so a parameter compares as its column's type (text needs none). */
const CASTS: Partial<Record<ColumnKind, string>> = { int: '::int', bool: '::boolean' };

/** The filters that are one field's value: `field = value`. */
const EQUALITY_FILTERS = ['state', 'birthYear', 'consentGiven', 'channel', 'source', 'campaign'] as const;

/**
 * WHERE clause of the spec's filters. Dates are calendar days in the business time zone: startDate
 * from its midnight, endDate up to the next midnight (inclusive of the whole end day).
 */
export function whereSql(
  table: LeadTable,
  filters: WebsiteLeadFilters | ApiLeadFilters,
  timeZone: string,
  bind: Bind,
): string {
  const clauses: string[] = [];
  if (filters.search !== undefined) clauses.push(searchSql(table, filters.search, bind));
  const values: Partial<Record<string, string | number | boolean>> = filters;
  for (const field of EQUALITY_FILTERS) {
    const value = values[field];
    // The website-only filters have no column in the API table.
    if (value === undefined || !(field in table.columns)) continue;
    const column = columnOf(table, field);
    // Typed as seen elsewhere ("Google" for google, issue 37): the attribution texts ignore case.
    if (field === 'source' || field === 'campaign')
      clauses.push(`lower(${column.column}) = lower(${bind(value)})`);
    else clauses.push(`${column.column} = ${bind(value)}${CASTS[column.kind] ?? ''}`);
  }
  if (filters.verdict !== undefined) clauses.push(`quality_verdict = ${bind(filters.verdict)}`);
  const createdAt = columnOf(table, 'createdAt').column;
  if (filters.startDate !== undefined) {
    clauses.push(
      `${createdAt} >= (${bind(filters.startDate)}::date::timestamp at time zone ${bind(timeZone)}::text)`,
    );
  }
  if (filters.endDate !== undefined) {
    clauses.push(
      `${createdAt} < ((${bind(filters.endDate)}::date + 1)::timestamp at time zone ${bind(timeZone)}::text)`,
    );
  }
  return clauses.length ? `where ${clauses.join(' and ')}` : '';
}
