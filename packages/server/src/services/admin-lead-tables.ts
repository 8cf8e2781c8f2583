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

// The two lead tables the admin area reads, described as data: which SQL column backs each field of
// spec §3 and how it is rendered. The JSON list, the CSV export and the sort options are all derived
// from these tables, so adding a column is one entry here (plus the shared field list).

type ColumnKind = 'text' | 'uuid' | 'int' | 'bool' | 'timestamp';
type Column = { column: string; kind: ColumnKind };

export type LeadKind = 'website' | 'api';

export type LeadTable = {
  kind: LeadKind;
  table: 'website_lead' | 'api_lead';
  fields: readonly string[];
  columns: Record<string, Column>;
  notFoundMessage: string;
  /**
   * The lead's own page (issue 26): `json_build_object` pairs of what the table has no column for,
   * merged into the row; and the columns that say who the lead is (to find data requests about them).
   */
  detailPairs: string;
  identitySql: { email: string; phone: string };
  /** Audit actions that name one of this table's leads by `detail.id`. */
  auditActions: readonly string[];
};

/** Fields both lead tables store the same way. */
const SHARED_COLUMNS = {
  id: { column: 'id', kind: 'uuid' },
  firstName: { column: 'first_name', kind: 'text' },
  lastName: { column: 'last_name', kind: 'text' },
  streetAddress: { column: 'street_address', kind: 'text' },
  state: { column: 'state', kind: 'text' },
  phone: { column: 'phone', kind: 'text' },
  birthMonth: { column: 'birth_month', kind: 'int' },
  birthDay: { column: 'birth_day', kind: 'int' },
  birthYear: { column: 'birth_year', kind: 'int' },
  beneficiary: { column: 'beneficiary', kind: 'text' },
  trustedFormUrl: { column: 'trusted_form_url', kind: 'text' },
  createdAt: { column: 'created_at', kind: 'timestamp' },
  // A SQL expression is a column too: suppressed leads carry opted_out_at (issue 6).
  optedOut: { column: '(opted_out_at is not null)', kind: 'bool' },
} satisfies Record<WebsiteLeadField & ApiLeadField, Column>;

/**
 * The click ids (issue 24): read from the attribution the lead was stored with (the same JSON its
 * consent receipt holds), so they need no columns of their own nor anything more from the writer
 * (ADR 059). The keys are fixed names, never input.
 */
const CLICK_ID_COLUMNS = Object.fromEntries(
  LEAD_CLICK_ID_FIELDS.map((key) => [key, { column: `(attribution->>'${key}')`, kind: 'text' }]),
) as Record<LeadClickIdField, Column>;

const WEBSITE_COLUMNS: Record<WebsiteLeadField, Column> = {
  ...SHARED_COLUMNS,
  email: { column: 'email', kind: 'text' },
  zipCode: { column: 'zip_code', kind: 'text' },
  optInDate: { column: 'opt_in_date', kind: 'text' },
  optInTime: { column: 'opt_in_time', kind: 'text' },
  certificationId: { column: 'certification_id', kind: 'text' },
  leadSource: { column: 'lead_source', kind: 'text' },
  tcpaCompliant: { column: 'tcpa_compliant', kind: 'text' },
  ipAddress: { column: 'ip_address', kind: 'text' },
  consentGiven: { column: 'consent_given', kind: 'bool' },
  doNotSell: { column: 'do_not_sell', kind: 'bool' },
  channel: { column: 'channel', kind: 'text' },
  source: { column: 'source', kind: 'text' },
  medium: { column: 'medium', kind: 'text' },
  campaign: { column: 'campaign', kind: 'text' },
  ...CLICK_ID_COLUMNS,
};

const API_COLUMNS: Record<ApiLeadField, Column> = {
  ...SHARED_COLUMNS,
  city: { column: 'city', kind: 'text' },
};

export const WEBSITE_LEADS: LeadTable = {
  kind: 'website',
  table: 'website_lead',
  fields: WEBSITE_LEAD_FIELDS,
  columns: WEBSITE_COLUMNS,
  notFoundMessage: 'Lead not found',
  detailPairs: `'attribution', attribution, 'country', country`,
  identitySql: { email: 'email', phone: 'phone' },
  auditActions: ['leads.delete'],
};

export const API_LEADS: LeadTable = {
  kind: 'api',
  table: 'api_lead',
  fields: API_LEAD_FIELDS,
  columns: API_COLUMNS,
  notFoundMessage: 'API lead not found',
  detailPairs: `'partner', (select p.name from partner p where p.id = api_lead.partner_id)`,
  identitySql: { email: 'null::text', phone: 'phone' },
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

/** One JSON object per row, built by PostgreSQL (the list and its stream share it). */
export function jsonRowSql(table: LeadTable): string {
  const pairs = table.fields.map((field) => {
    const column = columnOf(table, field);
    // consentGiven stays a JSON boolean; everything else follows valueSql.
    const value = column.kind === 'bool' ? column.column : valueSql(column);
    return `'${field}', ${value}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
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
    .join(', ');
}

/** ORDER BY for a sort field; ties broken by id so pages never overlap or skip. */
export function orderBySql(table: LeadTable, sort: string, order: SortOrder): string {
  const column = columnOf(table, sort).column;
  // The tie-breaker runs opposite to the sort, and NULLs keep PostgreSQL's default place (first when
  // descending), so the index (created_at desc, id) serves the default order with no sort at all.
  const tie = order === 'desc' ? 'asc' : 'desc';
  return column === 'id' ? `id ${order}` : `${column} ${order}, id ${tie}`;
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

/**
 * WHERE clause of the spec's filters. Dates are calendar days in the business time zone: startDate
 * from its midnight, endDate up to the next midnight (inclusive of the whole end day).
 */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The search box (issue 16): something that reads as a phone number (digits, spaces and phone
 * punctuation, at least 3 digits) matches the stored phone's digits; anything else matches the name
 * (first and last) or, for website leads, the e-mail, case-insensitively. Trigram indexes serve all
 * three (migration lead_search).
 */
function searchSql(table: LeadTable, search: string, bind: Bind): string {
  const digits = search.replace(/\D/g, '');
  if (/^[\d\s().+-]+$/.test(search) && digits.length >= 3) {
    return `phone_digits(phone) like ${bind(likeContains(digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits))}`;
  }
  const text = bind(likeContains(search.toLowerCase()));
  const name = `lower(first_name || ' ' || last_name) like ${text}`;
  return table.kind === 'website' ? `(${name} or lower(email) like ${text})` : name;
}

export function whereSql(
  table: LeadTable,
  filters: WebsiteLeadFilters | ApiLeadFilters,
  timeZone: string,
  bind: Bind,
): string {
  const clauses: string[] = [];
  if (filters.search !== undefined) clauses.push(searchSql(table, filters.search, bind));
  if (filters.state !== undefined) clauses.push(`state = ${bind(filters.state)}`);
  if (filters.birthYear !== undefined) clauses.push(`birth_year = ${bind(filters.birthYear)}::int`);
  if (filters.startDate !== undefined) {
    clauses.push(
      `created_at >= (${bind(filters.startDate)}::date::timestamp at time zone ${bind(timeZone)}::text)`,
    );
  }
  if (filters.endDate !== undefined) {
    clauses.push(
      `created_at < ((${bind(filters.endDate)}::date + 1)::timestamp at time zone ${bind(timeZone)}::text)`,
    );
  }
  if (table.kind === 'website' && 'consentGiven' in filters && filters.consentGiven !== undefined) {
    clauses.push(`consent_given = ${bind(filters.consentGiven)}::boolean`);
  }
  if (table.kind === 'website') {
    const { channel, source, campaign } = filters as WebsiteLeadFilters;
    if (channel !== undefined) clauses.push(`channel = ${bind(channel)}`);
    if (source !== undefined) clauses.push(`source = ${bind(source)}`);
    if (campaign !== undefined) clauses.push(`campaign = ${bind(campaign)}`);
  }
  return clauses.length ? `where ${clauses.join(' and ')}` : '';
}
