import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { businessClock } from '../../business-clock';
import { trpc } from '../../trpc';
import { revenueRange, revenueSummary, revenueUsd } from './revenue-figures';
import type { StatCard } from './stat-cards';

// The leads dashboard's Revenue card (issue 34), beside the website figures: what the buyers paid today, over
// the last 7 and the last 30 days, net of returns, in USD, for website and API leads; days in the business
// time zone. It shows net (ADR 073: revenue after returns) and says so on every figure (issue 47). One light query of its own (a row per day): the page and the other cards never wait on it, the
// card shows '—' until it comes. A card of the row, not a row of its own: the page below keeps its place.

export function useRevenueCard(enabled: boolean): StatCard {
  const clock = businessClock();
  const today = clock.today();
  const range = useMemo(() => revenueRange(today), [today]);
  const revenue = trpc.admin.buyers.revenue.useQuery(range, { enabled, staleTime: 0 });
  const sums = revenue.data ? revenueSummary(revenue.data, today) : undefined;
  const line = (label: string, value: number | undefined) =>
    `${label}, net: ${value === undefined ? '—' : revenueUsd(value)}`;
  return {
    label: 'Net Revenue Today',
    value: sums ? revenueUsd(sums.today) : undefined,
    definition: revenue.isError ? (
      <Text span c="red.8" size="xs" role="alert">
        Failed to load the revenue
      </Text>
    ) : (
      <>
        {line('Last 7 days', sums?.last7)}
        <br />
        {line('Last 30 days', sums?.last30)}
        <br />
        Net: revenue after returns, all leads
      </>
    ),
  };
}
