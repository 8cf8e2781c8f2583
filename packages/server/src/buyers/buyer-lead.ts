import { LEAD_CLICK_ID_FIELDS } from '@uf/shared/attribution';
import type { Pool } from 'pg';

// A lead as buyers are offered it (issue 34, ADR 069): every field a field map may read, as text or null,
// read when the offer is made (nothing personal is copied into the queue; an erased lead is not sold).

import type { OfferedLead } from './buyer-request';

export type { OfferedLead };

/** What the offer needs beyond the fields: who may buy it. */
export type LeadForSale = {
  lead: OfferedLead;
  kind: 'website' | 'api';
  /** Consent given, no do-not-sell (Global Privacy Control), not opted out. */
  sellable: boolean;
  source: string;
  ageYears: number | null;
};

const LEAD_SQL = `
  select 'website' as kind, w.id, w.first_name, w.last_name, w.email, w.phone, w.street_address, null::text as city,
    w.zip_code, w.state, w.birth_month, w.birth_day, w.birth_year, w.beneficiary, w.consent_given,
    t.body as consent_text, r.created_at as consent_at, coalesce(w.trusted_form_url, r.trusted_form_url) as trusted_form_url,
    w.ip_address, w.user_agent, r.page_url, w.created_at, w.attribution,
    w.consent_given and not w.do_not_sell and w.opted_out_at is null as sellable, coalesce(w.source, 'direct') as source,
    coalesce((select e.name from experiment e where e.id = w.experiment_id), w.experiment_id::text) as experiment,
    w.experiment_arm as arm
  from website_lead w
  left join consent_receipt r on r.lead_id = w.id
  left join consent_text t on t.hash = r.consent_text_hash
  where w.id = $1
  union all
  select 'api', a.id, a.first_name, a.last_name, null, a.phone, a.street_address, a.city,
    null, a.state, a.birth_month, a.birth_day, a.birth_year, a.beneficiary, null,
    null, null, a.trusted_form_url, null, null, null, a.created_at, null,
    a.opted_out_at is null, 'api', null, null
  from api_lead a where a.id = $1`;

type Row = {
  kind: 'website' | 'api';
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string;
  street_address: string;
  city: string | null;
  zip_code: string | null;
  state: string | null;
  birth_month: number;
  birth_day: number;
  birth_year: number;
  beneficiary: string | null;
  consent_given: boolean | null;
  consent_text: string | null;
  consent_at: Date | null;
  trusted_form_url: string | null;
  ip_address: string | null;
  user_agent: string | null;
  page_url: string | null;
  created_at: Date;
  attribution: Record<string, string | undefined> | null;
  sellable: boolean;
  source: string;
  experiment: string | null;
  arm: string | null;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** Whole years between the birth date and `at` (UTC calendar). */
export function ageOn(year: number, month: number, day: number, at: Date): number {
  let age = at.getUTCFullYear() - year;
  const m = at.getUTCMonth() + 1;
  if (m < month || (m === month && at.getUTCDate() < day)) age -= 1;
  return age;
}

export function offeredLeadOf(r: Row, now: Date): LeadForSale {
  const a = r.attribution ?? {};
  const age = ageOn(r.birth_year, r.birth_month, r.birth_day, now);
  const lead: OfferedLead = {
    leadId: r.id,
    leadType: r.kind,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    streetAddress: r.street_address,
    city: r.city,
    zipCode: r.zip_code,
    state: r.state,
    birthMonth: String(r.birth_month),
    birthDay: String(r.birth_day),
    birthYear: String(r.birth_year),
    birthDate: `${r.birth_year}-${pad(r.birth_month)}-${pad(r.birth_day)}`,
    age: String(age),
    beneficiary: r.beneficiary,
    consentGiven: r.consent_given === null ? null : String(r.consent_given),
    consentText: r.consent_text,
    consentAt: r.consent_at ? new Date(r.consent_at).toISOString() : null,
    trustedFormUrl: r.trusted_form_url,
    ipAddress: r.ip_address,
    userAgent: r.user_agent,
    pageUrl: r.page_url,
    createdAt: new Date(r.created_at).toISOString(),
    utmSource: a.utm_source ?? null,
    utmMedium: a.utm_medium ?? null,
    utmCampaign: a.utm_campaign ?? null,
    utmTerm: a.utm_term ?? null,
    utmContent: a.utm_content ?? null,
    ...(Object.fromEntries(LEAD_CLICK_ID_FIELDS.map((k) => [k, a[k] ?? null])) as Record<
      (typeof LEAD_CLICK_ID_FIELDS)[number],
      string | null
    >),
    experiment: r.experiment,
    arm: r.arm,
  };
  return { lead, kind: r.kind, sellable: r.sellable, source: r.source.toLowerCase(), ageYears: age };
}

/** The lead (website or API) by id, or undefined when there is none. */
export async function loadLeadForSale(
  pool: Pick<Pool, 'query'>,
  id: string,
  now: Date,
): Promise<LeadForSale | undefined> {
  const { rows } = await pool.query<Row>({ name: 'buyer_lead', text: LEAD_SQL, values: [id] });
  return rows[0] ? offeredLeadOf(rows[0], now) : undefined;
}

/** A made-up lead for "Send test lead": realistic, marked as a test everywhere a buyer might look. */
export function testLead(now: Date): OfferedLead {
  const empty = Object.fromEntries(LEAD_CLICK_ID_FIELDS.map((k) => [k, null])) as Record<
    (typeof LEAD_CLICK_ID_FIELDS)[number],
    string | null
  >;
  return {
    ...empty,
    leadId: '00000000-0000-4000-8000-000000000000',
    leadType: 'website',
    firstName: 'Test',
    lastName: 'Lead',
    email: 'test.lead@example.com',
    phone: '2125550187',
    streetAddress: '1 Test Street',
    city: 'New York',
    zipCode: '10001',
    state: 'NY',
    birthMonth: '7',
    birthDay: '4',
    birthYear: '1970',
    birthDate: '1970-07-04',
    age: String(ageOn(1970, 7, 4, now)),
    beneficiary: null,
    consentGiven: 'true',
    consentText: 'Test lead: no consent was given by a person.',
    consentAt: now.toISOString(),
    trustedFormUrl: null,
    ipAddress: '203.0.113.10',
    userAgent: 'unclaimed-funds-buyers/1 (test lead)',
    pageUrl: 'https://example.com/',
    createdAt: now.toISOString(),
    utmSource: 'test',
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    experiment: null,
    arm: null,
  };
}
