import type { FunnelStep } from './analytics.schema';
import type { AnalyticsEventType } from './constants';
import { MONEY_WORDS } from './money-words';
import { VALID_CONSENT } from './valid-consent';

// The analytics dashboard's texts (spec §2, §4, §8; word for word where the spec gives them) and
// display constants (§9). The refresh interval is ANALYTICS_REFRESH_MS in constants.ts.

/** Height of the Daily Activity chart, in pixels. */
export const ANALYTICS_CHART_HEIGHT = 300;
/** The Top Countries pie cycles through this many slice colours. */
export const ANALYTICS_PIE_COLOR_COUNT = 6;

export const ANALYTICS_TEXTS = {
  title: 'Analytics Dashboard',
  subtitle: 'Track visitor behavior and engagement',
  backToLeads: 'Back to Leads',
  filters: {
    startDate: 'Start Date',
    endDate: 'End Date',
    eventType: 'Event Type',
    country: 'Country',
    clear: 'Clear Filters',
    allEvents: 'All Events',
    allCountries: 'All Countries',
    rangeInverted: 'End Date must not be before Start Date',
  },
  cards: {
    pageViews: { title: 'Total Page Views', caption: 'All time' },
    clicks: { title: 'Total Clicks', caption: 'Form submissions & button clicks' },
    surveyStarts: { title: 'Survey Starts', caption: 'Users who started the survey' },
    countries: { title: 'Countries', caption: 'Unique countries' },
  },
  dailyActivity: 'Daily Activity',
  series: { views: 'Page Views', clicks: 'Clicks', surveyStarts: 'Survey Starts' },
  /** Issue 35: the daily chart's money, on its own axis in dollars. */
  moneySeries: { net: 'Net revenue (after returns)', cost: 'Ad Cost' },
  showMoney: 'Revenue and cost',
  topCountries: 'Top Countries',
  noCountries: 'No country data available',
  topReferrers: 'Top Referrers',
  noReferrers: 'No referrer data available',
  noReferrersHint: 'Traffic data will appear as visitors arrive',
  visits: (count: number) => `${count} visits`,
  loading: 'Loading analytics...',
  failed: 'Failed to load analytics',
  retry: 'Retry',
  // DB-IP's licence (CC BY 4.0) asks for a link on pages that show results derived from its data.
  geoAttribution: 'IP Geolocation by DB-IP',
  // Attribution and funnel (issue 15): additions to the spec's screen.
  visitorCards: {
    visitors: { title: 'Visitors', caption: 'Unique visitors (counted once a day, no cookies)' },
    visits: { title: 'Visits', caption: 'Browser sessions' },
  },
  change: {
    period: (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`,
  },
  attributionFilters: {
    channel: 'Channel',
    source: 'Source',
    campaign: 'Campaign',
    allChannels: 'All channels',
    allSources: 'All sources',
    allCampaigns: 'All campaigns',
    note: 'Channel, source, campaign, experiment and arm narrow visitors, visits, the funnel and the sources table.',
    // Issue 48: a landing experiment and one of its arms.
    experiment: 'Experiment',
    arm: 'Arm',
    allExperiments: 'No experiment',
    allArms: 'All arms',
    experimentNote:
      'Under an experiment: the visitors its page was shown to (a visit tracked the same day), and the leads sent from its pages. Ad cost has no arm: blank.',
  },
  funnel: {
    title: 'Funnel',
    description: 'The visits of the range, each counted at every step up to the furthest one it reached',
    fromPrevious: 'of previous step',
    fromFirst: 'of page views',
    empty: 'No visits in this period',
    // Issue 26: leads whose browser session had no tracked visit are not in the funnel; shown apart.
    withoutVisit: (count: string) => `Leads without a tracked visit: ${count}`,
    withoutVisitHint:
      'Posted without a tracked visit (analytics blocked, no scripts, or sent straight to the API)',
    // Issue 49: "lead accepted" (issue 33) is not a step the visitor takes — held and rejected visitors go
    // on to answer and click like the others — so it stands beside "lead stored", never between two steps.
    accepted: 'Lead accepted',
    acceptedOf: 'of leads stored',
    acceptedNote:
      'Lead accepted is a part of Lead stored, beside the chain: the steps after Lead stored count every stored lead, accepted or not.',
  },
  // Issue 26: visits by device type, browser and operating system (from the user agent).
  breakdowns: {
    deviceTypes: 'Device Types',
    browsers: 'Browsers',
    operatingSystems: 'Operating Systems',
    empty: 'No device data available',
    note: 'Visits, by the first user agent of each visit. The event type filter does not apply.',
    name: 'Name',
    visits: 'Visits',
    share: 'Share',
  },
  downloadCsv: 'Download CSV',
  sources: {
    title: 'Sources',
    description: 'Which channel, source and campaign brought visitors who became consenting leads',
    // One rule for deleted leads, said on the page (issue 37: "Leads 0, Conversion Rate 30 %").
    deletedLeadsRule:
      'Visits, the funnel and the conversion rate count what visitors did, also when their lead was deleted since; Leads and Valid Consent Rate count the leads kept now.',
    empty: 'No visits in this period',
    noCampaign: '(none)',
    columns: {
      channel: 'Channel',
      source: 'Source',
      campaign: 'Campaign',
      visitors: 'Visitors',
      visits: 'Visits',
      surveyStarts: 'Survey Starts',
      leads: 'Leads',
      // Not the dashboard's "Consent Rate" (consent given): named for what it counts (issue 37).
      consentRate: 'Valid Consent Rate',
      conversionRate: 'Conversion Rate',
      accepted: 'Accepted',
      held: 'Held',
      rejected: 'Rejected',
      sold: 'Sold',
      returned: 'Returned',
      revenue: 'Revenue',
      net: 'Net',
      cost: 'Cost',
      profit: 'Profit',
      roi: 'ROI',
      earningsPerVisit: 'EPV',
      costPerAcceptedLead: 'Cost / Accepted',
    },
    // Issue 35: the money columns; blank where a figure has no meaning. The words of ADR 073 (issue 47).
    moneyHints: {
      sold: MONEY_WORDS.sold,
      returned: MONEY_WORDS.returned,
      revenue: MONEY_WORDS.revenue,
      net: MONEY_WORDS.net,
      cost: 'Ad cost imported for this source and campaign (USD); blank under a country or experiment filter: ad cost has neither',
      profit: 'Net − cost',
      roi: 'Profit ÷ cost; blank without cost',
      earningsPerVisit: 'Earnings per visit: net ÷ visits, to the cent; blank without visits',
      costPerAcceptedLead: 'Cost ÷ accepted leads; blank without cost or accepted leads',
    },
    /** Issue 49: the table's two sets of columns, so that either fits a 1440 px screen. */
    views: { traffic: 'Traffic and quality', money: 'Money' },
    viewsLabel: 'Columns shown',
    totals: (t: {
      sold: string;
      returned: string;
      revenue: string;
      net: string;
      cost: string;
      profit: string;
      roi: string;
    }) =>
      `All sources: ${t.sold} sold, ${t.returned} returned; revenue ${t.revenue}, net ${t.net}, cost ${t.cost}, profit ${t.profit}, ROI ${t.roi}`,
    topReasons: 'Top Reasons',
    topReasonsHint: 'The lead-quality reasons given most often to this source’s leads',
    qualityHint: 'Leads by lead-quality verdict (issue 33): accepted leads are the ones sent on',
    consentRateHint: `${VALID_CONSENT.rule} Of all leads.`,
    consentRule: `${VALID_CONSENT.rule} ${VALID_CONSENT.pageAddress}`,
    conversionRateHint: 'Visits that stored a lead ÷ visits',
    filterBy: (source: string, campaign: string) => `Show only ${source}${campaign ? ` / ${campaign}` : ''}`,
  },
} as const;

/** How the device types of the breakdown are shown (issue 26). */
export const DEVICE_TYPE_LABELS: Record<string, string> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  other: 'Other (TV, console)',
  unknown: 'Unknown',
};

/** Funnel step labels (issue 15), in FUNNEL_STEPS order. */
export const FUNNEL_LABELS: Record<FunnelStep, string> = {
  page_view: 'Page view',
  survey_started: 'Survey started',
  form_submitted: 'Form submitted',
  lead_stored: 'Lead stored',
  beneficiary_answered: 'Beneficiary answered',
  state_site_click: 'State-site click',
};

/** The change of a figure against the previous period of `days` days, as a card shows it. */
/**
 * The Total Page Views card's caption: spec §2's 'All time' while no dates are chosen; with dates the card
 * counts only those (issue 37: it read "All time" above a 7-day range), and its range line names them.
 */
export function pageViewsCaption(hasDates: boolean): string {
  return hasDates ? 'In the dates below' : ANALYTICS_TEXTS.cards.pageViews.caption;
}

export function formatChange(
  current: number,
  previous: number,
  days: number,
  /** The card's figure is all time (no dates chosen): the change then names the period it compares. */
  valueIsAllTime = false,
): { text: string; direction: 'up' | 'down' | 'flat' } {
  const period = ANALYTICS_TEXTS.change.period(days);
  const change = changeOf(current, previous, period);
  // Issue 37: "Up from 0 in the previous 30 days" beside an all-time total read as a change of that total.
  return valueIsAllTime
    ? { ...change, text: `Last ${period}: ${current.toLocaleString('en-US')} · ${change.text}` }
    : change;
}

function changeOf(current: number, previous: number, period: string) {
  if (current === previous) return { text: `Same as the previous ${period}`, direction: 'flat' as const };
  if (previous === 0) return { text: `Up from 0 in the previous ${period}`, direction: 'up' as const };
  const percent = Math.round(((current - previous) / previous) * 100);
  const shown = percent === 0 ? '<1%' : `${Math.abs(percent)}%`;
  return current > previous
    ? { text: `+${shown} vs previous ${period}`, direction: 'up' as const }
    : { text: `−${shown} vs previous ${period}`, direction: 'down' as const };
}

/** A share as shown in the funnel and sources table: one decimal below 10 %, whole above; '—' without a base. */
export function formatPercent(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  return `${value < 10 && value > 0 ? value.toFixed(1) : Math.round(value)}%`;
}

/** Event Type filter options (spec §9 values); 'all' is the default. */
export const EVENT_TYPE_LABELS: Record<AnalyticsEventType, string> = {
  page_view: 'Page View',
  button_click: 'Button Click',
  form_submit: 'Form Submit',
  survey_started: 'Survey Started',
};

/** Spec §9: the order of the Event Type filter's values. */
export const EVENT_TYPE_FILTER_ORDER: readonly AnalyticsEventType[] = [
  'page_view',
  'button_click',
  'form_submit',
  'survey_started',
];

type DayActivity = { date: string; views: number; clicks: number; surveyStarts: number };

/** Longest span of days the time series is zero-filled over (a longer one keeps only its data days). */
export const ZERO_FILL_MAX_DAYS = 400;

const addDay = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/**
 * The daily series with a zero entry for every day without events (issue 16): from the filter's start
 * date (or the first day with events) to its end date (or the last day with events), never past
 * `today`. No events at all stays an empty series (the dashboard's empty state).
 */
export function zeroFillDays(
  days: DayActivity[],
  range: { startDate?: string; endDate?: string; today: string },
): DayActivity[] {
  if (days.length === 0) return [];
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const firstData = sorted[0]?.date ?? '';
  const lastData = sorted[sorted.length - 1]?.date ?? '';
  const first = range.startDate && range.startDate < firstData ? range.startDate : firstData;
  let last = range.endDate && range.endDate > lastData ? range.endDate : lastData;
  if (last > range.today && lastData <= range.today) last = range.today;
  const spanDays = (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000;
  if (spanDays > ZERO_FILL_MAX_DAYS) return sorted;
  const byDate = new Map(sorted.map((d) => [d.date, d]));
  const out: DayActivity[] = [];
  for (let date = first; date <= last; date = addDay(date)) {
    out.push(byDate.get(date) ?? { date, views: 0, clicks: 0, surveyStarts: 0 });
  }
  return out;
}

/**
 * A day of the daily chart: its events, and with the money shown its net revenue (after returns: what was
 * earned, as profit counts it — ADR 073) and ad cost (USD).
 */
export type ChartDay = DayActivity & { net?: number; cost?: number | null };

/**
 * The daily chart's days (issue 35): the activity alone, or with each day's revenue and ad cost beside it —
 * every day of either series (a day with money and no event shows no bars).
 */
export function chartDays(
  days: DayActivity[],
  money: { date: string; net: number; cost: number | null }[] | null,
): ChartDay[] {
  if (!money) return days;
  const byDate = new Map<string, ChartDay>(days.map((d) => [d.date, { ...d, net: 0, cost: 0 }]));
  for (const m of money) {
    const day = byDate.get(m.date) ?? { date: m.date, views: 0, clicks: 0, surveyStarts: 0 };
    byDate.set(m.date, { ...day, net: m.net, cost: m.cost });
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** Date presets of the analytics filters (issue 16), in the order shown. */
export const DATE_PRESETS = ['Today', '7 days', '30 days', 'This month'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/**
 * The start and end dates (inclusive, YYYY-MM-DD) of a preset ending on the calendar day `today`
 * (YYYY-MM-DD: today in TIME_ZONE, not in the browser's zone — issue 26). Day arithmetic in UTC, where
 * every day has 24 hours.
 */
export function presetRange(preset: DatePreset, today: string): { startDate: string; endDate: string } {
  const start = new Date(`${today}T00:00:00Z`);
  if (preset === '7 days') start.setUTCDate(start.getUTCDate() - 6);
  else if (preset === '30 days') start.setUTCDate(start.getUTCDate() - 29);
  else if (preset === 'This month') start.setUTCDate(1);
  return { startDate: start.toISOString().slice(0, 10), endDate: today };
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const asDay = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * The range a card counts, in words (issue 26: every card names its range). The dates are calendar days
 * in TIME_ZONE already (formatted in UTC so they never shift): 'Nov 18 – Nov 24, 2026', 'Since Nov 18,
 * 2026', 'All dates'.
 */
export function rangeLabel(range: { startDate?: string; endDate?: string }): string {
  const { startDate, endDate } = range;
  if (!startDate && !endDate) return 'All dates';
  if (startDate && !endDate) return `Since ${dayFormat.format(asDay(startDate))}`;
  if (!startDate && endDate) return `Until ${dayFormat.format(asDay(endDate))}`;
  const start = startDate ?? '';
  const end = endDate ?? '';
  if (start === end) return dayFormat.format(asDay(end));
  const from =
    start.slice(0, 4) === end.slice(0, 4) ? monthDay.format(asDay(start)) : dayFormat.format(asDay(start));
  return `${from} – ${dayFormat.format(asDay(end))}`;
}
