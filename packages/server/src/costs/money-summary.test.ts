import type { SourceRow } from '@uf/shared/analytics.schema';
import { describe, expect, it } from 'vitest';
import { formatMoney, moneySection } from './money-summary';

const row = (source: string, campaign: string, net: number, cost: number) =>
  ({ source, campaign, sold: net > 0 ? 1 : 0, revenue: net, net, cost, profit: net - cost }) as SourceRow;
const totals = { sold: 0, returned: 0, revenue: 0, net: 0, cost: 0, profit: 0 } as Parameters<
  typeof moneySection
>[0]['moneyTotals'];

describe('the money section', () => {
  it('lists a campaign once: with four, three at the top and the worst one at the bottom', () => {
    const section = moneySection({
      moneyTotals: totals,
      sources: [
        row('a', 'x', 10, 0),
        row('b', '', 0, 5),
        row('c', 'y', 3, 1),
        row('d', 'z', 1, 0),
        row('e', 'idle', 0, 0),
      ],
    });
    expect(section.rows.slice(6)).toEqual([
      { label: 'Top: a / x', value: '$10.00' },
      { label: 'Top: c / y', value: '$2.00' },
      { label: 'Top: d / z', value: '$1.00' },
      { label: 'Bottom: b / (none)', value: '-$5.00' },
    ]);
  });

  it('writes dollars with cents and an ASCII minus', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(-0.07)).toBe('-$0.07');
  });
});
