import type { AnalyticsEventType } from './constants';

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
} as const;

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
