import { describe, expect, it } from 'vitest';
import { GOOGLE_CSV, META_CSV, MICROSOFT_CSV } from '../../test/support/ad-cost-reports';
import { CostFileError, parseReportDay, readCost, readCostFile, splitLine } from './ad-cost-csv';

describe('readCostFile', () => {
  it('reads a Google Ads campaign report: preamble, quoted thousands and totals left out', () => {
    const file = readCostFile(GOOGLE_CSV);
    expect(file.platform).toBe('google');
    expect(file.skipped).toEqual([]);
    expect(file.rows).toEqual([
      { line: 4, date: '2026-11-01', source: 'google', campaign: 'Spring Sale', cents: 12050 },
      { line: 5, date: '2026-11-01', source: 'google', campaign: 'Brand, Exact', cents: 120407 },
      { line: 6, date: '2026-11-02', source: 'google', campaign: 'Spring Sale', cents: 9999 },
    ]);
  });

  it('reads a Microsoft Advertising report: its preamble, US dates, total and copyright footer', () => {
    const file = readCostFile(MICROSOFT_CSV);
    expect(file.platform).toBe('microsoft');
    expect(file.rows.map((r) => [r.line, r.date, r.source, r.campaign, r.cents])).toEqual([
      [10, '2026-11-01', 'bing', 'Spring Sale', 4510],
      [11, '2026-11-02', 'bing', 'Spring Sale', 3800],
      [12, '2026-11-02', 'bing', 'Retargeting', 40],
    ]);
  });

  it('reads a Meta report by day; its summary row is left out, a row over two days skipped', () => {
    const file = readCostFile(META_CSV);
    expect(file.platform).toBe('meta');
    expect(file.rows.map((r) => [r.date, r.source, r.campaign, r.cents])).toEqual([
      ['2026-11-01', 'facebook', 'Spring Sale', 5520],
      ['2026-11-02', 'facebook', 'Spring Sale', 5500],
    ]);
    expect(file.skipped).toEqual([{ line: 5, reason: expect.stringContaining('more than one day') }]);
  });

  it('skips rows in another currency, with their line', () => {
    const eur = META_CSV.replace('Amount spent (USD)', 'Amount spent (EUR)');
    expect(readCostFile(eur).rows).toEqual([]);
    expect(readCostFile(eur).skipped[0]).toEqual({ line: 3, reason: 'the cost is in EUR, not USD' });
    const google = readCostFile(
      GOOGLE_CSV.replace('Spring Sale,Enabled,USD,99.99', 'Spring Sale,Enabled,CAD,99.99'),
    );
    expect(google.skipped).toEqual([{ line: 6, reason: 'the cost is in CAD, not USD' }]);
  });

  it('reads tab-separated exports (Google’s "Excel" download)', () => {
    const tsv = 'Campaign report\nDay\tCampaign\tCost\n2026-11-01\tSpring Sale\t1,000.00\n';
    expect(readCostFile(tsv).rows).toEqual([
      { line: 3, date: '2026-11-01', source: 'google', campaign: 'Spring Sale', cents: 100000 },
    ]);
  });

  it('keeps a campaign whose name starts with "Total" when its day is a day', () => {
    const file = readCostFile('Day,Campaign,Cost\n2026-11-01,Total Auto Cover,5.00\n');
    expect(file.rows.map((r) => r.campaign)).toEqual(['Total Auto Cover']);
  });

  it('refuses a file it cannot read, naming the line and why', () => {
    const bad = (text: string) => {
      try {
        readCostFile(text);
      } catch (err) {
        if (err instanceof CostFileError) return [err.line, err.reason];
      }
      return null;
    };
    expect(bad('hello,world\n1,2\n')?.[0]).toBe(1);
    expect(bad(GOOGLE_CSV.replace('2026-11-02,Spring', '2026-13-02,Spring'))).toEqual([
      6,
      '"2026-13-02" is not a day (YYYY-MM-DD or M/D/YYYY)',
    ]);
    expect(bad(GOOGLE_CSV.replace('99.99', '99,99x'))?.[0]).toBe(6);
    expect(bad(GOOGLE_CSV.replace('120.50', 'twelve'))).toEqual([4, '"twelve" is not an amount']);
    expect(bad(GOOGLE_CSV.replace('99.99,35', '"99.99,35'))).toEqual([6, 'a quoted field is not closed']);
    expect(bad('Day,Campaign,Cost\n2026-11-01,Spring\n')).toEqual([2, '2 fields where the header has 3']);
  });
});

describe('the pieces', () => {
  it('splits quoted fields with doubled quotes and empty trailing fields', () => {
    expect(splitLine('a,"b ""c"", d",', ',', 1)).toEqual(['a', 'b "c", d', '']);
    expect(() => splitLine('"a"b,c', ',', 7)).toThrow('line 7');
  });

  it('reads days in both formats, only real ones', () => {
    expect(parseReportDay('2026-11-03')).toBe('2026-11-03');
    expect(parseReportDay('11/3/2026')).toBe('2026-11-03');
    expect(parseReportDay('2/30/2026')).toBeNull();
    expect(parseReportDay('Nov 3')).toBeNull();
  });

  it('reads amounts as whole cents without floating point', () => {
    expect(readCost('0.29')).toEqual({ cents: 29 });
    expect(readCost('$1,234.5')).toEqual({ cents: 123450 });
    expect(readCost('1.230')).toEqual({ cents: 123 }); // whole cents written with a third digit
    expect(readCost('--')).toEqual({ cents: 0 });
    expect(readCost('')).toEqual({ cents: 0 });
    expect(readCost('1.2.3')).toEqual({ problem: '"1.2.3" is not an amount' });
    expect(readCost('-5')).toEqual({ problem: '"-5" is not an amount' });
  });

  it("keeps a row's limits (issue 47): a fraction of a cent refused, not rounded; at most $10,000,000", () => {
    expect(readCost('1.005')).toEqual({
      problem: '"1.005" has more than 2 decimals: costs are whole cents, and a fraction is not rounded',
    });
    expect(readCost('12.345')).toMatchObject({ problem: expect.stringContaining('more than 2 decimals') });
    expect(readCost('10,000,000.00')).toEqual({ cents: 1_000_000_000 });
    expect(readCost('99,999,999,999')).toEqual({
      problem: '"99,999,999,999" is more than $10,000,000.00, the largest cost of a day',
    });
  });
});
