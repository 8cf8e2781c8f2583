import { z } from 'zod';
import { attributionField } from './attribution.schema';
import type { Channel } from './channel';
import { ANALYTICS_EVENT_TYPES, type AnalyticsEventType } from './constants';
import { isSafeText } from './text-safety';

// The site-wide text rule (text-safety: no NUL, which PostgreSQL cannot store, nor other control
// characters) also here, so a bad row can never reach a batch even when the schema is used directly.

export const TRACK_LIMITS = { page: 200, referrer: 2048, sessionId: 100 } as const;

export const trackEventSchema = z.object({
  eventType: z.enum(ANALYTICS_EVENT_TYPES, {
    error: `eventType must be one of: ${ANALYTICS_EVENT_TYPES.join(', ')}`,
  }),
  page: z
    .string({ error: 'page is required' })
    .trim()
    .min(1, 'page is required')
    .max(TRACK_LIMITS.page, 'page is too long')
    .refine(isSafeText, 'page contains invalid characters'),
  referrer: z
    .string({ error: 'referrer must be a string' })
    .max(TRACK_LIMITS.referrer, 'referrer is too long')
    .refine(isSafeText, 'referrer contains invalid characters')
    .default('direct'),
  sessionId: z
    .string({ error: 'sessionId is required' })
    .trim()
    .min(1, 'sessionId is required')
    .max(TRACK_LIMITS.sessionId, 'sessionId is too long')
    .refine(isSafeText, 'sessionId contains invalid characters'),
  /** UTM parameters, click ids and landing referrer of the session (issue 15); usable values kept. */
  attribution: attributionField,
});
export type TrackEventInput = z.input<typeof trackEventSchema>;
export type TrackEvent = z.output<typeof trackEventSchema>;

/** What counts as a click on the dashboard: a submitted form or a tracked button press. */
export const CLICK_EVENT_TYPES: readonly AnalyticsEventType[] = ['form_submit', 'button_click'];

/** Entries in topCountries and topReferrers. */
export const ANALYTICS_TOP_LIMIT = 10;

/**
 * The funnel of a visit (issue 15), in order. Every step counts visits of the range (issue 26): a visit
 * counts at each step up to the deepest one it reached, so no step exceeds the one before it. Leads
 * whose browser session had no tracked visit are counted apart (leadsWithoutVisit). "Lead accepted" is
 * not a step (issue 49): the visits after "lead stored" go on whatever the verdict, so the accepted ones
 * are counted beside the chain (funnelLeadAccepted), never between two of its steps.
 */
export const FUNNEL_STEPS = [
  'page_view',
  'survey_started',
  'form_submitted',
  'lead_stored',
  'beneficiary_answered',
  'state_site_click',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** Totals of one period, for the change against the previous period of the same length. */
export type PeriodTotals = {
  pageViews: number;
  clicks: number;
  surveyStarts: number;
  countries: number;
  visitors: number;
  visits: number;
};

export type SourceRow = {
  channel: Channel;
  source: string;
  campaign: string;
  visitors: number;
  visits: number;
  surveyStarts: number;
  /** Every website lead of the source, tracked visit or not. */
  leads: number;
  /** Visits of the source that stored a lead (issue 26). */
  leadVisits: number;
  /** Leads of the source whose browser session had no tracked visit (not in the visit figures). */
  leadsWithoutVisit: number;
  /** Leads whose consent is complete (TCPA evidence) and not withdrawn since. */
  consentingLeads: number;
  /** consentingLeads ÷ leads, percent with one decimal; null without leads. */
  consentRate: number | null;
  /** leadVisits ÷ visits (one population, issue 26), percent with one decimal; null without visits. */
  conversionRate: number | null;
  /** Lead quality (issue 33): the source's leads by verdict, and the reasons most often given. */
  accepted: number;
  held: number;
  rejected: number;
  topReasons: { reason: string; leads: number }[];
  /** Lead buyers (issue 34): what the source's leads sold for, USD, gross (MONEY_WORDS, ADR 073). */
  revenue: number;
} & MoneyColumns;

/**
 * Money per source (issue 35), for the filter's dates. A figure without meaning is null (blank on
 * screen), never 0 or ∞.
 */
export type MoneyColumns = {
  /** Leads a buyer bought, returned ones included (MONEY_WORDS, ADR 073). */
  sold: number;
  /** Of the sold leads, the ones their buyer returned. */
  returned: number;
  /** Revenue after returns, USD: what profit, ROI and earnings per visit are worked out from. */
  net: number;
  /** Ad cost imported for the source and campaign, USD; 0 when none was; null under a country filter (ad cost has no country). */
  cost: number | null;
  /** net − cost, USD; null when cost is. */
  profit: number | null;
  /** profit ÷ cost, percent; null without cost. */
  roi: number | null;
  /** net ÷ visits, USD in whole cents; null without visits. */
  earningsPerVisit: number | null;
  /** cost ÷ accepted leads, USD; null without cost or accepted leads. */
  costPerAcceptedLead: number | null;
};

/** One line of a breakdown (device type, browser, operating system): visits. */
export type BreakdownRow = { name: string; count: number };

/** Spec §3 analytics response. Countries are ISO 3166-1 alpha-2 codes; dates are YYYY-MM-DD. */
export type AnalyticsSummary = {
  totalPageViews: number;
  totalClicks: number;
  totalSurveyStarts: number;
  uniqueCountries: number;
  topCountries: { country: string; count: number }[];
  topReferrers: { referrer: string; count: number }[];
  dailyViews: { date: string; views: number; clicks: number; surveyStarts: number }[];
  // Additions of issue 15 (the spec's fields above keep their meaning; topReferrers counts visits).
  /** Cookieless unique visitors (a visitor counts once a day) and visits (browser sessions). */
  totalVisitors: number;
  totalVisits: number;
  /** The period's totals against the previous period of the same length (last 30 days by default). */
  comparison: {
    startDate: string;
    endDate: string;
    previousStartDate: string;
    previousEndDate: string;
    current: PeriodTotals;
    previous: PeriodTotals;
  };
  funnel: { step: FunnelStep; count: number }[];
  sources: SourceRow[];
  /**
   * Issue 35: revenue (gross), net (after returns) and ad cost per day, USD, the same money as moneyTotals
   * day by day: one entry for each day of dailyViews and for each day with money but no event, in date
   * order. cost is null under a country filter (ad cost has no country).
   */
  dailyMoney: { date: string; revenue: number; net: number; cost: number | null }[];
  /** Issue 35: the money columns over every source of the filter (not only the rows listed). */
  moneyTotals: { revenue: number } & MoneyColumns;
  // Additions of issue 26.
  /** Leads of the range whose browser session had no tracked visit: shown apart from the funnel. */
  leadsWithoutVisit: number;
  /** Visits of the range whose lead was accepted (issue 33): a part of "lead stored", beside the funnel (issue 49). */
  funnelLeadAccepted: number;
  /** Visits by device type (desktop, mobile, tablet, other, unknown), browser and operating system. */
  deviceTypes: BreakdownRow[];
  browsers: BreakdownRow[];
  operatingSystems: BreakdownRow[];
};
