import { describe, expect, it } from 'vitest';
import {
  chartDays,
  formatChange,
  formatPercent,
  pageViewsCaption,
  presetRange,
  rangeLabel,
  zeroFillDays,
} from './analytics-dashboard';

const day = (date: string, views = 1) => ({ date, views, clicks: 0, surveyStarts: 0 });
const zero = (date: string) => ({ date, views: 0, clicks: 0, surveyStarts: 0 });

describe('zeroFillDays', () => {
  it('fills the days between events with zeros, in order', () => {
    expect(zeroFillDays([day('2026-03-05'), day('2026-03-02')], { today: '2026-03-10' })).toEqual([
      day('2026-03-02'),
      zero('2026-03-03'),
      zero('2026-03-04'),
      day('2026-03-05'),
    ]);
  });

  it('extends to the filter dates but never past today, across a month end', () => {
    expect(
      zeroFillDays([day('2026-02-28')], {
        startDate: '2026-02-27',
        endDate: '2026-03-31',
        today: '2026-03-02',
      }),
    ).toEqual([zero('2026-02-27'), day('2026-02-28'), zero('2026-03-01'), zero('2026-03-02')]);
  });

  it('keeps an empty series empty, and a very long span to its data days', () => {
    expect(zeroFillDays([], { startDate: '2026-01-01', endDate: '2026-01-31', today: '2026-03-01' })).toEqual(
      [],
    );
    const far = [day('2020-01-01'), day('2026-01-01')];
    expect(zeroFillDays(far, { today: '2026-03-01' })).toEqual(far);
  });
});

describe('presetRange', () => {
  it('gives inclusive ranges ending today, across month and year ends', () => {
    const today = '2026-03-03';
    expect(presetRange('Today', today)).toEqual({ startDate: '2026-03-03', endDate: '2026-03-03' });
    expect(presetRange('7 days', today)).toEqual({ startDate: '2026-02-25', endDate: '2026-03-03' });
    expect(presetRange('30 days', today)).toEqual({ startDate: '2026-02-02', endDate: '2026-03-03' });
    expect(presetRange('This month', today)).toEqual({ startDate: '2026-03-01', endDate: '2026-03-03' });
    expect(presetRange('7 days', '2026-01-02')).toEqual({
      startDate: '2025-12-27',
      endDate: '2026-01-02',
    });
  });
});

describe('pageViewsCaption', () => {
  it("says 'All time' (spec §2) only while no dates are chosen (issue 37)", () => {
    expect(pageViewsCaption(false)).toBe('All time');
    expect(pageViewsCaption(true)).not.toMatch(/all time/i);
  });
});

describe('formatChange', () => {
  it('shows the change against the previous period', () => {
    expect(formatChange(112, 100, 30)).toEqual({ text: '+12% vs previous 30 days', direction: 'up' });
    expect(formatChange(95, 100, 7)).toEqual({ text: '−5% vs previous 7 days', direction: 'down' });
    expect(formatChange(7, 7, 1)).toEqual({ text: 'Same as the previous 1 day', direction: 'flat' });
  });

  it('names the period it compares beside an all-time figure (issue 37)', () => {
    expect(formatChange(1057, 0, 30, true)).toEqual({
      text: 'Last 30 days: 1,057 · Up from 0 in the previous 30 days',
      direction: 'up',
    });
    expect(formatChange(3, 0, 30)).toEqual({ text: 'Up from 0 in the previous 30 days', direction: 'up' });
    expect(formatChange(1001, 1000, 30)).toEqual({ text: '+<1% vs previous 30 days', direction: 'up' });
  });
});

describe('formatPercent', () => {
  it('rounds above 10 % and keeps one decimal below', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(33.3)).toBe('33%');
    expect(formatPercent(2.5)).toBe('2.5%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(null)).toBe('—');
  });
});

describe('rangeLabel', () => {
  it('names the range a card counts', () => {
    expect(rangeLabel({})).toBe('All dates');
    expect(rangeLabel({ startDate: '2026-11-18' })).toBe('Since Nov 18, 2026');
    expect(rangeLabel({ endDate: '2026-11-24' })).toBe('Until Nov 24, 2026');
    expect(rangeLabel({ startDate: '2026-11-24', endDate: '2026-11-24' })).toBe('Nov 24, 2026');
    expect(rangeLabel({ startDate: '2026-11-18', endDate: '2026-11-24' })).toBe('Nov 18 – Nov 24, 2026');
    expect(rangeLabel({ startDate: '2025-12-28', endDate: '2026-01-03' })).toBe('Dec 28, 2025 – Jan 3, 2026');
  });
});

describe('chartDays (issue 35: the daily chart’s money)', () => {
  const days = [
    { date: '2026-11-02', views: 4, clicks: 1, surveyStarts: 0 },
    { date: '2026-11-03', views: 2, clicks: 0, surveyStarts: 1 },
  ];
  it('is the activity alone while the money is not shown', () => {
    expect(chartDays(days, null)).toBe(days);
  });
  it('puts each day’s revenue and cost beside its events, and adds the days with money only', () => {
    expect(
      chartDays(days, [
        { date: '2026-11-03', net: 37.34, cost: 45.5 },
        { date: '2026-11-04', net: 25, cost: null },
      ]),
    ).toEqual([
      { date: '2026-11-02', views: 4, clicks: 1, surveyStarts: 0, net: 0, cost: 0 },
      { date: '2026-11-03', views: 2, clicks: 0, surveyStarts: 1, net: 37.34, cost: 45.5 },
      { date: '2026-11-04', views: 0, clicks: 0, surveyStarts: 0, net: 25, cost: null },
    ]);
  });
});
