// The admin leads dashboard's vocabulary without validation code: field lists, row and stats shapes,
// paging constants and small helpers. The web imports these without pulling zod into its bundles;
// the input schemas live in admin-leads.schema.ts.

import { LEAD_CLICK_ID_FIELDS, type LeadClickIdField } from './attribution';
import type { Verdict } from './quality';

/** A lead's quality (issue 33): its verdict, reason codes, who decided, when, and the rules version. */
export type LeadQuality = {
  verdict: Verdict;
  reasons: string[];
  /** 'rules' at submit, else the admin who released or rejected it. */
  decidedBy: string;
  /** ISO 8601, UTC. */
  decidedAt: string | null;
  rulesVersion: number;
};

/** Fields of a website lead as admins see it (spec §3), in table and CSV column order. */
export const WEBSITE_LEAD_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'phone',
  'streetAddress',
  'zipCode',
  'state',
  'birthMonth',
  'birthDay',
  'birthYear',
  'optInDate',
  'optInTime',
  'certificationId',
  'leadSource',
  'tcpaCompliant',
  'beneficiary',
  'ipAddress',
  'trustedFormUrl',
  'createdAt',
  'consentGiven',
  // Opt-outs (issue 6): on the suppression list; sent Global Privacy Control at submit.
  'optedOut',
  'doNotSell',
  // Where the visit came from (issue 15): reported source, utm_medium, utm_campaign, derived channel.
  'channel',
  'source',
  'medium',
  'campaign',
  // The visit's ad click ids and Meta cookies (issue 24): gclid, gbraid, wbraid, fbclid, fbc, fbp,
  // msclkid, ttclid.
  ...LEAD_CLICK_ID_FIELDS,
  // The landing experiment (its name) and arm (its key) of the page the lead was sent from (issue 48).
  'experiment',
  'arm',
] as const;
export type WebsiteLeadField = (typeof WEBSITE_LEAD_FIELDS)[number];

/** Fields of an API lead (spec §3) plus createdAt, which the date filters work on. */
export const API_LEAD_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'streetAddress',
  'city',
  'state',
  'phone',
  'birthMonth',
  'birthDay',
  'birthYear',
  'beneficiary',
  'trustedFormUrl',
  'createdAt',
  'optedOut',
] as const;
export type ApiLeadField = (typeof API_LEAD_FIELDS)[number];

export type AdminWebsiteLead = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  streetAddress: string;
  zipCode: string;
  state: string | null;
  birthMonth: string;
  birthDay: string;
  birthYear: string;
  optInDate: string;
  optInTime: string;
  certificationId: string | null;
  leadSource: string;
  tcpaCompliant: string;
  beneficiary: string | null;
  ipAddress: string | null;
  trustedFormUrl: string | null;
  /** ISO 8601, UTC. */
  createdAt: string;
  consentGiven: boolean;
  /** The e-mail address or phone is on the suppression list: do not contact. */
  optedOut: boolean;
  /** The browser sent Global Privacy Control at submit: do not sell or share. */
  doNotSell: boolean;
  /** Marketing channel of the visit (null for leads stored before attribution). */
  channel: string | null;
  /** utm_source, else the referring site, else 'direct'. */
  source: string | null;
  medium: string | null;
  campaign: string | null;
  /** The landing experiment the lead's page was served in (its name), and the arm's key (issue 48). */
  experiment: string | null;
  arm: string | null;
  quality: LeadQuality;
} & Record<LeadClickIdField, string | null>;

export type AdminApiLead = {
  id: string;
  firstName: string;
  lastName: string;
  streetAddress: string;
  city: string;
  state: string;
  phone: string;
  birthMonth: string;
  birthDay: string;
  birthYear: string;
  beneficiary: string | null;
  trustedFormUrl: string | null;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** The phone is on the suppression list: do not contact. */
  optedOut: boolean;
  quality: LeadQuality;
};

/**
 * One website lead on its own page (issue 26): the row as the table lists it, plus what the table has
 * no column for. `attribution` holds every captured key (UTM parameters, ad click ids, landing referrer):
 * the page shows each key it finds, so a key captured later appears without a change here.
 */
export type AdminWebsiteLeadDetail = AdminWebsiteLead & {
  attribution: Record<string, string> | null;
  /** Two-letter country of the visitor's address at submit, when known. */
  country: string | null;
  /** The raw signals behind the quality reasons (issue 33). */
  signals: Record<string, unknown> | null;
};

/** One API lead on its own page: the row plus the partner whose key sent it. */
export type AdminApiLeadDetail = AdminApiLead & {
  /** Name of the partner API key that sent the lead (null when unknown or the key was deleted). */
  partner: string | null;
  /** The raw signals behind the quality reasons (issue 33). */
  signals: Record<string, unknown> | null;
};

/** An audit-log entry as the admin API returns it. */
export type AuditEntry = {
  id: number;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  ipAddress: string | null;
  /** ISO 8601, UTC. */
  createdAt: string;
};

export type WebsiteLeadStats = {
  totalLeads: number;
  dailyLeads: number;
  weeklyLeads: number;
  monthlyLeads: number;
  /** Percentage of all leads that gave consent, 0–100 with one decimal. */
  consentRate: number;
};

export type ApiLeadStats = {
  totalApiLeads: number;
  dailyApiLeads: number;
  weeklyApiLeads: number;
  monthlyApiLeads: number;
};

export const PAGE_SIZES = [25, 50, 100, 250, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export type SortOrder = 'asc' | 'desc';

/** Bulk deletes are one statement whatever the count; the cap only bounds the request body. */
export const MAX_BULK_DELETE = 200_000;

/** The search box's shortest query (issue 16); the server refuses a shorter one. */
export const MIN_SEARCH_LENGTH = 2;

/** Why a filter card's value is not applied (issue 37): said beside the field instead of failing the table. */
export const FILTER_HINTS = {
  searchTooShort: `Type at least ${MIN_SEARCH_LENGTH} characters to search`,
  rangeInverted: 'End date is before start date',
} as const;

/** A value of the card the list cannot use yet: a one-letter search, an end date before the start. */
export function filterHint(key: string, values: Record<string, string>): string | undefined {
  const v = (values[key] ?? '').trim();
  if (key === 'search' && v.length > 0 && v.length < MIN_SEARCH_LENGTH) return FILTER_HINTS.searchTooShort;
  const { startDate, endDate } = values;
  if (key === 'endDate' && startDate && endDate && endDate < startDate) return FILTER_HINTS.rangeInverted;
  return undefined;
}

/** Strips '' and 'all' so they are never sent (spec §5), and values with a hint (issue 37). */
export function activeFilters<T extends Record<string, string>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([k, v]) => v !== '' && v !== 'all' && !filterHint(k, values)),
  ) as Partial<T>;
}

/** CSV file names of spec §7: website-leads-YYYY-MM-DD.csv / api-leads-YYYY-MM-DD.csv. */
export function exportFileName(kind: 'website' | 'api', date: string): string {
  return `${kind === 'website' ? 'website-leads' : 'api-leads'}-${date}.csv`;
}
