import type { AnalyticsSummary } from './analytics.schema';
import { ANALYTICS_TEXTS, FUNNEL_LABELS } from './analytics-dashboard';
import type { AnalyticsQueryInput } from './analytics-query.schema';

// "Download CSV" of the analytics dashboard (issue 26): what the page shows for its current filters and
// range, as one long table (section, name, metric, value) that any spreadsheet pivots. Built from the
// answer the page already holds, so the file always matches the screen.

/** A plain decimal number such as -9.50: a spreadsheet reads it as a number, never runs it. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One field: quoted when needed; a leading = + - @ (or tab/CR) is defused so a spreadsheet never runs it. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text)) {
    text = `'${text}`;
  }
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

type Row = [section: string, name: string, metric: string, value: string | number];
/**
 * A money figure (issue 35) in dollars with two decimals, as every screen shows it (issue 49: "5.0682"
 * beside "9"), and an undefined one as an empty cell, never 0. A loss's "-15.50" is a plain number: not
 * defused.
 */
const money = (v: number | null) => (v === null ? '' : v.toFixed(2));
/** A percent (ROI) as a number; an undefined one as an empty cell. */
const percent = (v: number | null) => v ?? '';

export function analyticsCsv(summary: AnalyticsSummary, query: AnalyticsQueryInput, zone: string): string {
  const rows: Row[] = [];
  const filters = Object.entries(query).filter(([, v]) => v !== undefined && v !== '' && v !== 'all');
  rows.push(['filter', 'timeZone', '', zone]);
  for (const [key, value] of filters) rows.push(['filter', key, '', String(value)]);
  const C = ANALYTICS_TEXTS.cards;
  rows.push(
    ['summary', C.pageViews.title, 'count', summary.totalPageViews],
    ['summary', C.clicks.title, 'count', summary.totalClicks],
    ['summary', C.surveyStarts.title, 'count', summary.totalSurveyStarts],
    ['summary', C.countries.title, 'count', summary.uniqueCountries],
    ['summary', ANALYTICS_TEXTS.visitorCards.visitors.title, 'count', summary.totalVisitors],
    ['summary', ANALYTICS_TEXTS.visitorCards.visits.title, 'count', summary.totalVisits],
  );
  for (const d of summary.dailyViews) {
    rows.push(
      ['daily', d.date, 'views', d.views],
      ['daily', d.date, 'clicks', d.clicks],
      ['daily', d.date, 'surveyStarts', d.surveyStarts],
    );
  }
  for (const f of summary.funnel) rows.push(['funnel', FUNNEL_LABELS[f.step], 'visits', f.count]);
  rows.push(
    [
      'funnel',
      `${ANALYTICS_TEXTS.funnel.accepted} (part of ${FUNNEL_LABELS.lead_stored})`,
      'visits',
      summary.funnelLeadAccepted,
    ],
    ['funnel', 'Leads without a tracked visit', 'leads', summary.leadsWithoutVisit],
  );
  for (const s of summary.sources) {
    const name = [s.channel, s.source, s.campaign].join(' / ');
    rows.push(
      ['source', name, 'visitors', s.visitors],
      ['source', name, 'visits', s.visits],
      ['source', name, 'surveyStarts', s.surveyStarts],
      ['source', name, 'leads', s.leads],
      ['source', name, 'leadVisits', s.leadVisits],
      ['source', name, 'leadsWithoutVisit', s.leadsWithoutVisit],
      ['source', name, 'consentingLeads', s.consentingLeads],
      ['source', name, 'consentRate', s.consentRate ?? ''],
      ['source', name, 'conversionRate', s.conversionRate ?? ''],
      ['source', name, 'accepted', s.accepted],
      ['source', name, 'held', s.held],
      ['source', name, 'rejected', s.rejected],
      ['source', name, 'topReasons', s.topReasons.map((r) => `${r.reason} ${r.leads}`).join('; ')],
      ['source', name, 'sold', s.sold],
      ['source', name, 'returned', s.returned],
      ['source', name, 'revenue', money(s.revenue)],
      ['source', name, 'net', money(s.net)],
      ['source', name, 'cost', money(s.cost)],
      ['source', name, 'profit', money(s.profit)],
      ['source', name, 'roi', percent(s.roi)],
      ['source', name, 'earningsPerVisit', money(s.earningsPerVisit)],
      ['source', name, 'costPerAcceptedLead', money(s.costPerAcceptedLead)],
    );
  }
  const m = summary.moneyTotals;
  rows.push(
    ['money', 'All sources', 'sold', m.sold],
    ['money', 'All sources', 'returned', m.returned],
    ['money', 'All sources', 'revenue', money(m.revenue)],
    ['money', 'All sources', 'net', money(m.net)],
    ['money', 'All sources', 'cost', money(m.cost)],
    ['money', 'All sources', 'profit', money(m.profit)],
    ['money', 'All sources', 'roi', percent(m.roi)],
    ['money', 'All sources', 'earningsPerVisit', money(m.earningsPerVisit)],
    ['money', 'All sources', 'costPerAcceptedLead', money(m.costPerAcceptedLead)],
  );
  for (const c of summary.topCountries) rows.push(['country', c.country, 'events', c.count]);
  for (const r of summary.topReferrers) rows.push(['referrer', r.referrer, 'visits', r.count]);
  for (const d of summary.deviceTypes) rows.push(['deviceType', d.name, 'visits', d.count]);
  for (const b of summary.browsers) rows.push(['browser', b.name, 'visits', b.count]);
  for (const o of summary.operatingSystems) rows.push(['os', o.name, 'visits', o.count]);
  const lines = [['section', 'name', 'metric', 'value'], ...rows].map((r) => r.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's name: the applied range, else today's date (in TIME_ZONE). */
export function analyticsCsvName(query: AnalyticsQueryInput, today: string): string {
  const range =
    query.startDate || query.endDate ? `${query.startDate ?? 'start'}_${query.endDate ?? today}` : today;
  return `analytics-${range}.csv`;
}
