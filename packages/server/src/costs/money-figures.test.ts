import { describe, expect, it } from 'vitest';
import { moneyFigures } from './money-figures';

describe('moneyFigures', () => {
  it('computes profit, ROI, earnings per visit and cost per accepted lead from cents', () => {
    expect(moneyFigures({ netCents: 15_000, costCents: 10_000, visits: 400, accepted: 3 })).toEqual({
      cost: 100,
      profit: 50,
      roi: 50,
      earningsPerVisit: 0.38,
      costPerAcceptedLead: 33.33,
    });
    // A loss: negative profit and ROI; 0.1 + 0.2 never enters (cents throughout).
    expect(moneyFigures({ netCents: 30, costCents: 70, visits: 3, accepted: 1 })).toEqual({
      cost: 0.7,
      profit: -0.4,
      roi: -57.1,
      earningsPerVisit: 0.1,
      costPerAcceptedLead: 0.7,
    });
  });

  it('gives earnings per visit in whole cents (issue 49), rounded half up', () => {
    // 5,068.2 ¢ a visit → $50.68; 516.3 ¢ → $5.16; 0.5 ¢ → $0.01; 0.4 ¢ → $0.00.
    const epv = (netCents: number, visits: number) =>
      moneyFigures({ netCents, costCents: null, visits, accepted: 0 }).earningsPerVisit;
    expect(epv(50_682, 10)).toBe(50.68);
    expect(epv(5_163, 10)).toBe(5.16);
    expect(epv(1, 2)).toBe(0.01);
    expect(epv(2, 5)).toBe(0);
    expect(epv(900, 1)).toBe(9);
  });

  it('leaves undefined figures null, never 0 or Infinity', () => {
    expect(moneyFigures({ netCents: 500, costCents: 0, visits: 0, accepted: 0 })).toEqual({
      cost: 0,
      profit: 5,
      roi: null,
      earningsPerVisit: null,
      costPerAcceptedLead: null,
    });
    expect(moneyFigures({ netCents: 0, costCents: 2_000, visits: 10, accepted: 0 })).toEqual({
      cost: 20,
      profit: -20,
      roi: -100,
      earningsPerVisit: 0,
      costPerAcceptedLead: null,
    });
    expect(moneyFigures({ netCents: 500, costCents: null, visits: 5, accepted: 1 })).toMatchObject({
      cost: null,
      profit: null,
      roi: null,
      costPerAcceptedLead: null,
    });
  });
});
