import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

// Leads written straight into the tables, with the fields (and creation times) a test needs.

export type WebsiteLeadRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  streetAddress: string;
  zipCode: string;
  state: string | null;
  birthMonth: number;
  birthDay: number;
  birthYear: number;
  consentGiven: boolean;
  tcpaCompliant: string;
  beneficiary: string | null;
  createdAt: Date;
};

let counter = 0;

export async function insertWebsiteLead(pool: Pool, overrides: Partial<WebsiteLeadRow> = {}) {
  counter += 1;
  const row: WebsiteLeadRow = {
    id: randomUUID(),
    firstName: 'Jane',
    lastName: `Doe${counter}`,
    email: `lead.${counter}.${randomUUID().slice(0, 8)}@example.com`,
    phone: '(555) 123-4567',
    streetAddress: '1 Main St',
    zipCode: '90210',
    state: 'CA',
    birthMonth: 5,
    birthDay: 17,
    birthYear: 1970,
    consentGiven: true,
    tcpaCompliant: 'true',
    beneficiary: null,
    createdAt: new Date(),
    ...overrides,
  };
  await pool.query(
    `insert into website_lead (id, first_name, last_name, email, phone, street_address, zip_code, state,
       birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, tcpa_compliant,
       beneficiary, ip_address, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '2026-01-02', '03:04:05', $13, $14,
       '203.0.113.9', $15, $15)`,
    [
      row.id,
      row.firstName,
      row.lastName,
      row.email,
      row.phone,
      row.streetAddress,
      row.zipCode,
      row.state,
      row.birthMonth,
      row.birthDay,
      row.birthYear,
      row.consentGiven,
      row.tcpaCompliant,
      row.beneficiary,
      row.createdAt,
    ],
  );
  return row;
}

export type ApiLeadRow = {
  id: string;
  firstName: string;
  lastName: string;
  streetAddress: string;
  city: string;
  state: string;
  phone: string;
  birthMonth: number;
  birthDay: number;
  birthYear: number;
  beneficiary: string | null;
  trustedFormUrl: string | null;
  createdAt: Date;
};

export async function insertApiLead(pool: Pool, overrides: Partial<ApiLeadRow> = {}) {
  counter += 1;
  const row: ApiLeadRow = {
    id: randomUUID(),
    firstName: 'Sam',
    lastName: `Roe${counter}`,
    streetAddress: '2 Oak Ave',
    city: 'Austin',
    state: 'TX',
    phone: '512-555-0100',
    birthMonth: 1,
    birthDay: 2,
    birthYear: 1980,
    beneficiary: null,
    trustedFormUrl: null,
    createdAt: new Date(),
    ...overrides,
  };
  await pool.query(
    `insert into api_lead (id, first_name, last_name, street_address, city, state, phone, birth_month,
       birth_day, birth_year, beneficiary, trusted_form_url, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.id,
      row.firstName,
      row.lastName,
      row.streetAddress,
      row.city,
      row.state,
      row.phone,
      row.birthMonth,
      row.birthDay,
      row.birthYear,
      row.beneficiary,
      row.trustedFormUrl,
      row.createdAt,
    ],
  );
  return row;
}

/** RFC 4180 reader for checking exports: quoted fields, doubled quotes, line breaks inside quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || (ch === '\r' && text[i + 1] === '\n')) {
      if (ch === '\r') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
