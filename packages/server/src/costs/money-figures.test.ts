import { describe, expect, it } from 'vitest';
import { moneyFigures } from './money-figures';

describe('moneyFigures', () => {
  it('computes profit, ROI, earnings per visit and cost per accepted lead from cents', () => {
    expect(moneyFigures({ revenueCents: 15_000, costCents: 10_000, visits: 400, accepted: 3 })).toEqual({
      cost: 100,
      profit: 50,
      roi: 50,
      earningsPerVisit: 0.375,
      costPerAcceptedLead: 33.33,
    });
    // A loss: negative profit and ROI; 0.1 + 0.2 never enters (cents throughout).
    expect(moneyFigures({ revenueCents: 30, costCents: 70, visits: 3, accepted: 1 })).toEqual({
      cost: 0.7,
      profit: -0.4,
      roi: -57.1,
      earningsPerVisit: 0.1,
      costPerAcceptedLead: 0.7,
    });
  });

  it('leaves undefined figures null, never 0 or Infinity', () => {
    expect(moneyFigures({ revenueCents: 500, costCents: 0, visits: 0, accepted: 0 })).toEqual({
      cost: 0,
      profit: 5,
      roi: null,
      earningsPerVisit: null,
      costPerAcceptedLead: null,
    });
    expect(moneyFigures({ revenueCents: 0, costCents: 2_000, visits: 10, accepted: 0 })).toEqual({
      cost: 20,
      profit: -20,
      roi: -100,
      earningsPerVisit: 0,
      costPerAcceptedLead: null,
    });
    expect(moneyFigures({ revenueCents: 500, costCents: null, visits: 5, accepted: 1 })).toMatchObject({
      cost: null,
      profit: null,
      roi: null,
      costPerAcceptedLead: null,
    });
  });
});
