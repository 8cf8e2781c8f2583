// The three ad platforms' campaign reports as they download them (issue 35): preamble, header, rows, totals
// and footer. Read by the unit tests of the reader and by the import's integration test.

export const GOOGLE_CSV = [
  'Campaign report',
  '"November 1, 2026 - November 2, 2026"',
  'Day,Campaign,Campaign status,Currency code,Cost,Clicks',
  '2026-11-01,Spring Sale,Enabled,USD,120.50,40',
  '2026-11-01,"Brand, Exact",Enabled,USD,"1,204.07",310',
  '2026-11-02,Spring Sale,Enabled,USD,99.99,35',
  'Total: Account,--,--,USD,"1,424.56",385',
  'Total: Search,--,--,USD,"1,424.56",385',
  'Total: Campaigns,--,--,USD,"1,424.56",385',
].join('\r\n');

export const MICROSOFT_CSV = [
  '\uFEFF"Report Name: Campaign performance"',
  '"Report Time: 11/3/2026 5:02:11 PM"',
  '"Time Zone: (GMT-05:00) Eastern Time (US & Canada)"',
  '"Report Aggregation: Daily"',
  '"Report Filter: "',
  '"Potential Incomplete Data: false"',
  '"Rows: 3"',
  '',
  '"TimePeriod","AccountName","CampaignName","CurrencyCode","Impressions","Clicks","Spend"',
  '"11/1/2026","Acme","Spring Sale","USD","1000","30","45.10"',
  '"11/2/2026","Acme","Spring Sale","USD","900","25","38.00"',
  '"11/2/2026","Acme","Retargeting","USD","10","1","0.40"',
  '"Total","","","","1910","56","83.50"',
  '',
  '"©2026 Microsoft Corporation. All rights reserved. "',
].join('\r\n');

export const META_CSV = [
  '"Reporting starts","Reporting ends","Campaign name","Campaign delivery","Results","Amount spent (USD)"',
  '2026-11-01,2026-11-02,,,7,110.20',
  '2026-11-01,2026-11-01,"Spring Sale",active,3,55.20',
  '2026-11-02,2026-11-02,"Spring Sale",active,4,55.00',
  '2026-11-01,2026-11-02,"Lookalike",active,1,12.00',
].join('\n');
