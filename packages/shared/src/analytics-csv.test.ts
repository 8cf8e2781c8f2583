import { describe, expect, it } from 'vitest';
import type { AnalyticsSummary } from './analytics.schema';
import { analyticsCsv, analyticsCsvName, csvField } from './analytics-csv';

const period = { pageViews: 0, clicks: 0, surveyStarts: 0, countries: 0, visitors: 0, visits: 0 };
const summary: AnalyticsSummary = {
  totalPageViews: 3,
  totalClicks: 1,
  totalSurveyStarts: 1,
  uniqueCountries: 1,
  topCountries: [{ country: 'US', count: 3 }],
  topReferrers: [{ referrer: '=HYPERLINK("http://evil")', count: 1 }],
  dailyViews: [{ date: '2026-11-20', views: 3, clicks: 1, surveyStarts: 1 }],
  totalVisitors: 2,
  totalVisits: 2,
  comparison: {
    startDate: '2026-11-20',
    endDate: '2026-11-20',
    previousStartDate: '2026-11-19',
    previousEndDate: '2026-11-19',
    current: period,
    previous: period,
  },
  funnel: [
    { step: 'page_view', count: 2 },
    { step: 'survey_started', count: 1 },
    { step: 'form_submitted', count: 1 },
    { step: 'lead_stored', count: 1 },
    { step: 'beneficiary_answered', count: 0 },
    { step: 'state_site_click', count: 0 },
  ],
  sources: [
    {
      channel: 'Paid Search',
      source: 'google',
      campaign: 'spring, "sale"',
      visitors: 2,
      visits: 2,
      surveyStarts: 1,
      leads: 3,
      leadVisits: 1,
      leadsWithoutVisit: 2,
      consentingLeads: 3,
      consentRate: 100,
      conversionRate: 50,
      accepted: 2,
      held: 1,
      rejected: 0,
      topReasons: [{ reason: 'EMAIL_TYPO', leads: 1 }],
      revenue: 45.5,
      sold: 3,
      returned: 1,
      net: 20.5,
      cost: 30,
      profit: -9.5,
      roi: -31.7,
      earningsPerVisit: 10.25,
      costPerAcceptedLead: 15,
    },
  ],
  dailyMoney: [],
  moneyTotals: {
    sold: 3,
    returned: 1,
    revenue: 45.5,
    net: 20.5,
    cost: null,
    profit: null,
    roi: null,
    earningsPerVisit: 9,
    costPerAcceptedLead: null,
  },
  leadsWithoutVisit: 2,
  funnelLeadAccepted: 1,
  deviceTypes: [{ name: 'mobile', count: 2 }],
  browsers: [{ name: 'Safari', count: 2 }],
  operatingSystems: [{ name: 'iOS', count: 2 }],
};

describe('analytics CSV (issue 26)', () => {
  it('holds what the dashboard shows for its filters, one value a line', () => {
    const csv = analyticsCsv(
      summary,
      { startDate: '2026-11-20', country: 'US', eventType: 'all' },
      'America/New_York',
    );
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section,name,metric,value');
    expect(lines).toContain('filter,timeZone,,America/New_York');
    expect(lines).toContain('filter,startDate,,2026-11-20');
    expect(lines).toContain('filter,country,,US');
    expect(lines.some((l) => l.startsWith('filter,eventType'))).toBe(false);
    expect(lines).toContain('summary,Total Page Views,count,3');
    expect(lines).toContain('daily,2026-11-20,views,3');
    expect(lines).toContain('funnel,Lead stored,visits,1');
    // Issue 49: beside the chain, said so in its name.
    expect(lines).toContain('funnel,Lead accepted (part of Lead stored),visits,1');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",held,1');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",topReasons,EMAIL_TYPO 1');
    // Issue 47: sold counts the returned lead too, revenue is gross, net is after the return.
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",sold,3');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",returned,1');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",revenue,45.50');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",net,20.50');
    expect(lines).toContain('money,All sources,returned,1');
    expect(lines).toContain('money,All sources,net,20.50');
    expect(lines).toContain('funnel,Leads without a tracked visit,leads,2');
    // Issue 35: a loss stays a number (not defused as a formula); an undefined figure is an empty cell.
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",profit,-9.50');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",roi,-31.7');
    expect(lines).toContain('money,All sources,cost,');
    // Issue 49: money per visit in cents, two decimals, as every other money figure.
    expect(lines).toContain('money,All sources,earningsPerVisit,9.00');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",earningsPerVisit,10.25');
    expect(lines).toContain('source,"Paid Search / google / spring, ""sale""",conversionRate,50');
    expect(lines).toContain('deviceType,mobile,visits,2');
    expect(lines).toContain('browser,Safari,visits,2');
    expect(lines).toContain('os,iOS,visits,2');
  });

  it('never lets a spreadsheet run a value as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('-1+1')).toBe("'-1+1");
    expect(csvField(-1)).toBe('-1');
    expect(analyticsCsv(summary, {}, 'UTC')).toContain(`referrer,"'=HYPERLINK(""http://evil"")",visits,1`);
  });

  it('names the file after the range, or today', () => {
    expect(analyticsCsvName({}, '2026-11-25')).toBe('analytics-2026-11-25.csv');
    expect(analyticsCsvName({ startDate: '2026-11-01', endDate: '2026-11-07' }, '2026-11-25')).toBe(
      'analytics-2026-11-01_2026-11-07.csv',
    );
  });
});
