import { MAX_AD_COST_CSV } from '@uf/shared/ad-costs';
import { describe, expect, it } from 'vitest';
import {
  deletionWords,
  fileRequest,
  importWords,
  lastThirtyDays,
  manualFieldErrors,
  manualRequest,
  parseCost,
  RECOGNISED_REPORTS,
  rangeProblem,
  reportWords,
  usd,
} from './cost-form';

describe('the ad costs screen (issue 35)', () => {
  it('starts from the last 30 business days, across a month and a leap day', () => {
    expect(lastThirtyDays('2026-11-26')).toEqual({ from: '2026-10-28', to: '2026-11-26' });
    expect(lastThirtyDays('2028-03-01')).toEqual({ from: '2028-02-01', to: '2028-03-01' });
  });

  it('says why a range cannot be shown', () => {
    expect(rangeProblem('2026-11-01', '2026-11-30')).toBeNull();
    expect(rangeProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(rangeProblem('', '2026-11-30')).toMatch(/both dates/);
    expect(rangeProblem('2026-12-01', '2026-11-30')).toMatch(/after/);
  });

  it('reads a cost in dollars, with or without $ and thousands commas, at most 2 decimals', () => {
    expect(parseCost('120.50')).toBe(120.5);
    expect(parseCost(' $1,204.07 ')).toBe(1204.07);
    expect(parseCost('0')).toBe(0);
    for (const bad of ['', 'abc', '-5', '12.345', '1.2.3', '€5']) expect(parseCost(bad), bad).toBeNull();
  });

  it('builds one USD row from a day entered by hand, trimmed', () => {
    expect(
      manualRequest({ date: '2026-11-03', source: ' google ', campaign: ' Spring Sale ', cost: '$99.99' }),
    ).toEqual({
      ok: true,
      request: {
        rows: [
          { date: '2026-11-03', source: 'google', campaign: 'Spring Sale', cost: 99.99, currency: 'USD' },
        ],
      },
    });
  });

  it('names every field to fix instead of sending a blank or unreadable one', () => {
    const answer = manualRequest({ date: '', source: ' ', campaign: '', cost: '12.345' });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(Object.keys(answer.errors).sort()).toEqual(['campaign', 'cost', 'date', 'source']);
  });

  it("puts the server's field errors for the row beside the form's fields", () => {
    expect(
      manualFieldErrors([
        { field: 'rows.0.cost', message: 'cost must be a number of dollars' },
        { field: 'rows.0.date', message: 'date must be a date YYYY-MM-DD' },
        { field: 'rows', message: 'ignored' },
      ]),
    ).toEqual({ cost: 'cost must be a number of dollars', date: 'date must be a date YYYY-MM-DD' });
    expect(manualFieldErrors(undefined)).toEqual({});
  });

  it("sends a file's text as csv, refusing an empty or too large file", () => {
    expect(fileRequest('Day,Campaign,Cost\n2026-11-01,A,1')).toEqual({
      ok: true,
      request: { csv: 'Day,Campaign,Cost\n2026-11-01,A,1' },
    });
    expect(fileRequest(' \n')).toEqual({ ok: false, error: 'The file is empty.' });
    expect(fileRequest('x'.repeat(MAX_AD_COST_CSV + 1)).ok).toBe(false);
  });

  it('says what an import did', () => {
    // Rows, not days (issue 49): three campaigns of one day are three rows.
    expect(importWords({ imported: 3, replaced: 0, skipped: [], merged: [] })).toBe(
      '3 rows imported, 0 replaced. A row is one campaign’s cost on one day.',
    );
    expect(importWords({ imported: 1, replaced: 2, skipped: [{ line: 4, reason: 'x' }], merged: [] })).toBe(
      '1 row imported, 2 replaced, 1 line skipped. A row is one campaign’s cost on one day.',
    );
    const merged = { date: '2026-11-03', source: 'google', campaign: 'Spring', cost: 40 };
    expect(
      importWords({ imported: 1, replaced: 0, skipped: [], merged: [{ ...merged, lines: [2, 5, 7] }] }),
    ).toBe('1 row imported, 0 replaced, 3 lines merged into 1 row. A row is one campaign’s cost on one day.');
  });

  it('names the recognised reports and the source each is filed under', () => {
    expect(RECOGNISED_REPORTS.map(reportWords)).toEqual([
      'Google Ads (Day, Campaign, Cost): filed under source “google”',
      'Microsoft Advertising (TimePeriod, CampaignName, Spend): filed under source “bing”',
      'Meta Ads Manager (Reporting starts, Campaign name, Amount spent (USD)): filed under source “facebook”',
    ]);
  });

  it('says what a deletion removes', () => {
    expect(
      deletionWords({ source: 'google', campaign: 'Spring Sale', from: '2026-11-01', to: '2026-11-01' }),
    ).toBe(
      'Delete the imported cost of the campaign “Spring Sale” of google on 2026-11-01? Import the report again to get it back.',
    );
    expect(deletionWords({ source: 'bing', from: '2026-11-01', to: '2026-11-30' })).toMatch(
      /every campaign of bing from 2026-11-01 to 2026-11-30/,
    );
    expect(usd(1204.5)).toBe('$1,204.50');
  });
});
