import { describe, expect, it } from 'vitest';
import { analyticsQuerySchema, NO_CAMPAIGN } from './analytics-query.schema';

describe('analytics query: the campaign filter (issue 37)', () => {
  it('reads "(none)" as the traffic without a campaign, and empty or "all" as no filter', () => {
    expect(analyticsQuerySchema.parse({ campaign: NO_CAMPAIGN })).toEqual({ campaign: '' });
    expect(analyticsQuerySchema.parse({ campaign: '' }).campaign).toBeUndefined();
    expect(analyticsQuerySchema.parse({ campaign: 'all' }).campaign).toBeUndefined();
    expect(analyticsQuerySchema.parse({ campaign: 'spring' })).toEqual({ campaign: 'spring' });
  });
});

describe('analytics query, parsed as tRPC parses it (parseAsync)', () => {
  it('reads "(none)" the same way', async () => {
    expect(await analyticsQuerySchema.parseAsync({ campaign: NO_CAMPAIGN })).toEqual({ campaign: '' });
  });
});

describe('analytics query: source and campaign "all" or empty (issue 37)', () => {
  it('are no filter under parseAsync too', async () => {
    for (const value of ['all', '', ' all ']) {
      const parsed = await analyticsQuerySchema.parseAsync({ source: value, campaign: value });
      expect(parsed.source).toBeUndefined();
      expect(parsed.campaign).toBeUndefined();
    }
  });
});
