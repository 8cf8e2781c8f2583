import { z } from 'zod';
import { FUNNEL_STEPS } from './analytics.schema';
import { CHANNELS } from './channel';
import { MONEY_WORDS } from './money-words';
import { count, isoDate, text } from './output-fields';
import { VALID_CONSENT } from './valid-consent';

// What the analytics operations answer (issue 23: their procedures' `.output()`). The types of
// ./analytics.schema.ts (zod-free, for the web) must satisfy these.

/** POST /api/analytics/track. */
export const trackedSchema = z.object({ ok: z.literal(true) });

/** The analytics cards' figures over one period (issue 15). */
const periodTotals = z.object({
  pageViews: count(),
  clicks: count(),
  surveyStarts: count(),
  countries: count(),
  visitors: count(),
  visits: count(),
});

const breakdown = (description: string) =>
  z.array(z.object({ name: text(), count: count() })).describe(description);

/** Money per source (issue 35): a figure without meaning is null, never 0 or ∞. */
const money = {
  sold: count(MONEY_WORDS.sold),
  returned: count(MONEY_WORDS.returned),
  net: z.number().describe(MONEY_WORDS.net),
  cost: z
    .number()
    .nullable()
    .describe('Ad cost imported for the source and campaign, USD (0 when none); null under a country filter'),
  profit: z.number().nullable().describe('net − cost, USD; null when cost is'),
  roi: z.number().nullable().describe('profit ÷ cost, percent with one decimal; null without cost'),
  earningsPerVisit: z
    .number()
    .nullable()
    .describe('net ÷ visits, USD rounded to the cent; null without visits'),
  costPerAcceptedLead: z
    .number()
    .nullable()
    .describe('cost ÷ accepted leads, USD; null without cost or accepted leads'),
};

/** GET /api/admin/analytics. */
export const analyticsSummarySchema = z.object({
  totalPageViews: count(),
  totalClicks: count(),
  totalSurveyStarts: count(),
  uniqueCountries: count(),
  topCountries: z.array(z.object({ country: text(), count: count() })),
  topReferrers: z.array(z.object({ referrer: text(), count: count() })),
  dailyViews: z.array(z.object({ date: text(), views: count(), clicks: count(), surveyStarts: count() })),
  totalVisitors: count('Cookieless unique visitors, each counted once a day whatever brought them'),
  totalVisits: count('Browser sessions'),
  comparison: z.object({
    startDate: isoDate(),
    endDate: isoDate(),
    previousStartDate: isoDate(),
    previousEndDate: isoDate(),
    current: periodTotals,
    previous: periodTotals,
  }),
  funnel: z
    .array(z.object({ step: z.enum(FUNNEL_STEPS), count: count() }))
    .describe(
      'Visits of the range, each counted at every step up to the furthest one it reached: no step exceeds the one before it',
    ),
  funnelLeadAccepted: count(
    'Visits of the range whose lead was accepted by the quality checks: a part of lead_stored, beside the funnel and not a step of it (beneficiary_answered and state_site_click count every stored lead, whatever its verdict)',
  ),
  leadsWithoutVisit: count(
    'Leads of the range whose browser session had no tracked visit (not in the funnel)',
  ),
  deviceTypes: breakdown('Visits by device type: desktop, mobile, tablet, other, unknown (top 10)'),
  browsers: breakdown('Visits by browser (top 10)'),
  operatingSystems: breakdown('Visits by operating system (top 10)'),
  dailyMoney: z
    .array(
      z.object({
        date: isoDate(),
        revenue: z.number().describe(`${MONEY_WORDS.revenue}: the sales of that day's offers`),
        net: z.number().describe(MONEY_WORDS.net),
        cost: z.number().nullable().describe('Ad cost of the day, USD; null under a country filter'),
      }),
    )
    .describe(
      "Revenue, net and ad cost per day (issue 35), adding up to moneyTotals: every day of dailyViews and every day with money but no event, in date order — the daily chart's money",
    ),
  moneyTotals: z
    .object({ revenue: z.number().describe(MONEY_WORDS.revenue), ...money })
    .describe('The money columns over every source of the filter (issue 35)'),
  sources: z.array(
    z.object({
      channel: z.enum(CHANNELS),
      source: text(),
      campaign: text("'' for none"),
      visitors: count(),
      visits: count(),
      surveyStarts: count(),
      leads: count('Every website lead of the source'),
      leadVisits: count('Visits of the source that stored a lead'),
      leadsWithoutVisit: count('Leads of the source whose session had no tracked visit'),
      consentingLeads: count(`${VALID_CONSENT.rule} ${VALID_CONSENT.pageAddress}`),
      consentRate: z
        .number()
        .nullable()
        .describe('consentingLeads ÷ leads, percent with one decimal; null without leads'),
      conversionRate: z
        .number()
        .nullable()
        .describe('Visits that stored a lead ÷ visits, percent; null without visits'),
      accepted: count('Leads of the source that lead quality accepted'),
      held: count('Leads held for review'),
      rejected: count('Leads rejected'),
      topReasons: z
        .array(z.object({ reason: text('A lead-quality reason code'), leads: count() }))
        .describe('The reasons given most often to the source’s held and rejected leads (up to 3)'),
      revenue: z.number().describe(MONEY_WORDS.revenue),
      ...money,
    }),
  ),
});
