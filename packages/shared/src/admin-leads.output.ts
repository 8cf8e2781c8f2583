import { z } from 'zod';
import type { AdminApiLead, AdminWebsiteLead } from './admin-leads';
import { LEAD_CLICK_ID_FIELDS, type LeadClickIdField } from './attribution';
import { CHANNELS } from './channel';
import { anyObject, count, flag, instant, nullableText, text, uuid } from './output-fields';
import { qualitySchema, qualitySignalsSchema } from './quality.output';

// What the admin's lead operations answer (issue 23: their procedures' `.output()`; the streamed lists
// of rest/admin-stream-routes.ts answer rows of the same schemas). The row types of ./admin-leads.ts
// (zod-free, for the web) must satisfy these.

/** The website lead's click id fields (issue 24): what each one is. */
const CLICK_ID_DOCS: Record<LeadClickIdField, string> = {
  gclid: 'Google Ads click id of the visit (gclid in the landing URL)',
  gbraid: 'Google Ads click id for app/iOS measurement (gbraid)',
  wbraid: 'Google Ads click id for web-to-app/iOS measurement (wbraid)',
  fbclid: 'Meta click id in the landing URL (fbclid)',
  fbc: "Meta's _fbc cookie at submit (fb.1.<time>.<fbclid>)",
  fbp: "Meta's _fbp browser cookie at submit (fb.1.<time>.<random>)",
  msclkid: 'Microsoft Advertising click id (msclkid)',
  ttclid: 'TikTok click id (ttclid)',
};

const websiteLeadFields = {
  id: uuid(),
  firstName: text(),
  lastName: text(),
  email: text(),
  phone: text(),
  streetAddress: text(),
  zipCode: text(),
  state: nullableText('Derived from the ZIP code; null when unknown'),
  birthMonth: text(),
  birthDay: text(),
  birthYear: text(),
  optInDate: text('Business-day date (TIME_ZONE), YYYY-MM-DD'),
  optInTime: text('Business-day wall time, HH:MM:SS'),
  certificationId: nullableText('Id of the consent receipt (GET /api/admin/leads/{id}/consent-receipt)'),
  leadSource: text("'website'"),
  tcpaCompliant: text("'true' when consent was given and the receipt is complete, else 'false'"),
  beneficiary: nullableText(),
  ipAddress: nullableText(),
  trustedFormUrl: nullableText(),
  createdAt: instant(),
  consentGiven: flag(),
  optedOut: flag('The e-mail address or phone is on the suppression list: do not contact'),
  doNotSell: flag('The browser sent Global Privacy Control at submit: do not sell or share'),
  channel: nullableText(`Marketing channel of the visit: ${CHANNELS.join(', ')}`),
  source: nullableText('utm_source, else the referring site, else direct'),
  medium: nullableText('utm_medium'),
  experiment: nullableText('The landing experiment the lead’s page was served in (its name; issue 48)'),
  arm: nullableText('The arm of that experiment (its key)'),
  campaign: nullableText('utm_campaign'),
  ...(Object.fromEntries(
    LEAD_CLICK_ID_FIELDS.map((key) => [key, nullableText(CLICK_ID_DOCS[key])]),
  ) as Record<LeadClickIdField, ReturnType<typeof nullableText>>),
  quality: qualitySchema,
};

/** A website lead as the admin lists it (a row of GET /api/admin/leads). */
export const websiteLeadSchema = z.object(websiteLeadFields).meta({ id: 'WebsiteLead' });

/** An API lead as the admin lists it (a row of GET /api/admin/api-leads). */
export const apiLeadSchema = z
  .object({
    id: uuid(),
    firstName: text(),
    lastName: text(),
    streetAddress: text(),
    city: text(),
    state: text(),
    phone: text(),
    birthMonth: text(),
    birthDay: text(),
    birthYear: text(),
    beneficiary: nullableText(),
    trustedFormUrl: nullableText(),
    createdAt: instant(),
    optedOut: flag('The phone is on the suppression list: do not contact'),
    quality: qualitySchema,
  })
  .meta({ id: 'ApiLead' });

/** A website lead whole (its page in the admin, issue 26). */
export const websiteLeadDetailSchema = websiteLeadSchema
  .extend({
    attribution: z
      .record(z.string(), z.string())
      .nullable()
      .describe(
        'Every captured key of the visit: UTM parameters, ad click ids, landingReferrer (null before attribution)',
      ),
    country: nullableText('Two-letter country of the visitor at submit'),
    signals: qualitySignalsSchema,
  })
  .meta({
    id: 'WebsiteLeadDetail',
    description:
      'A website lead whole (its page in the admin): the list row plus what the list has no column for',
  });

/** An API lead whole (its page in the admin). */
export const apiLeadDetailSchema = apiLeadSchema
  .extend({
    partner: nullableText('Name of the partner whose API key sent it'),
    signals: qualitySignalsSchema,
  })
  .meta({ id: 'ApiLeadDetail', description: 'An API lead whole (its page in the admin)' });

/** An audit-log entry. */
export const auditEntrySchema = z
  .object({
    id: count(),
    actor: text(),
    action: text(),
    detail: anyObject(),
    ipAddress: nullableText(),
    createdAt: instant(),
  })
  .meta({ id: 'AuditEntry' });
export const auditEntriesSchema = z.array(auditEntrySchema);

export const websiteLeadStatsSchema = z.object({
  totalLeads: count(),
  dailyLeads: count(),
  weeklyLeads: count(),
  monthlyLeads: count(),
  consentRate: z.number().describe('Percentage 0–100'),
});

export const apiLeadStatsSchema = z.object({
  totalApiLeads: count(),
  dailyApiLeads: count(),
  weeklyApiLeads: count(),
  monthlyApiLeads: count(),
});

/** One lead deleted. */
export const leadDeletedSchema = z.object({ id: text(), deletedCount: count() });
/** A bulk delete (by ids or by filters). */
export const leadsDeletedSchema = z.object({ deletedCount: count() });

/** The streamed lists' rows (GET /api/admin/leads, GET /api/admin/api-leads: no procedures). */
export const websiteLeadRowsSchema = z.array(websiteLeadSchema);
export const apiLeadRowsSchema = z.array(apiLeadSchema);

/** Holds when T is what the schema accepts: the zod-free row types the web reads against these schemas. */
type Satisfies<T extends U, U> = T;
export type RowTypesSatisfyTheirSchemas = [
  Satisfies<AdminWebsiteLead, z.input<typeof websiteLeadSchema>>,
  Satisfies<AdminApiLead, z.input<typeof apiLeadSchema>>,
];
