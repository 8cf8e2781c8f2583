import { Anchor, Paper, ScrollArea, Table, Text, Title, UnstyledButton } from '@mantine/core';
import type { AnalyticsSummary, SourceRow } from '@uf/shared/analytics.schema';
import { ANALYTICS_TEXTS, formatPercent } from '@uf/shared/analytics-dashboard';
import { isReasonCode, QUALITY_REASONS } from '@uf/shared/quality';
import { useState } from 'react';
import { formatCount, usd } from './format';

const T = ANALYTICS_TEXTS.sources;

type SortKey = keyof typeof T.columns;
const NUMERIC: readonly SortKey[] = [
  'visitors',
  'visits',
  'surveyStarts',
  'leads',
  'consentRate',
  'conversionRate',
  'accepted',
  'held',
  'rejected',
  'revenue',
  'sold',
  'cost',
  'profit',
  'roi',
  'earningsPerVisit',
  'costPerAcceptedLead',
];
// A visit earns fractions of a cent: earnings per visit shows four decimals.
const usdFine = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
/** An undefined money figure (issue 35) is blank, never $0.00. */
const money = (v: number | null, format = usd) => (v === null ? '' : format.format(v));
const MONEY_HINTS: Partial<Record<SortKey, string>> = T.moneyHints;
const COLUMNS = Object.keys(T.columns) as SortKey[];

function compare(a: SourceRow, b: SourceRow, key: SortKey): number {
  const x = a[key] as string | number | null;
  const y = b[key] as string | number | null;
  if (typeof x === 'string' && typeof y === 'string') return x.localeCompare(y);
  // No figure (no leads, no visitors) sorts below every figure.
  return (x === null ? -1 : Number(x)) - (y === null ? -1 : Number(y));
}

/** Issue 15: visitors, survey starts, leads, consent and conversion per channel / source / campaign. */
export function SourcesTable({
  rows,
  totals,
  onPick,
}: {
  rows: AnalyticsSummary['sources'];
  /** Issue 35: the money over every source of the filter, shown above the rows. */
  totals: AnalyticsSummary['moneyTotals'];
  /** Narrows the dashboard to one source and campaign. */
  onPick(row: SourceRow): void;
}) {
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'visitors', desc: true });
  const sorted = [...rows].sort((a, b) => (sort.desc ? -1 : 1) * compare(a, b, sort.key));
  const toggle = (key: SortKey) =>
    setSort((s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: NUMERIC.includes(key) }));

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="sources-title">
      <Title order={2} size="h4" id="sources-title">
        {T.title}
      </Title>
      <Text size="sm" c="dimmed">
        {T.description}
      </Text>
      <Text size="xs" c="dimmed">
        {T.deletedLeadsRule}
      </Text>
      <Text size="sm" mb="md" data-testid="sources-money-totals">
        {T.totals({
          revenue: usd.format(totals.revenue),
          cost: money(totals.cost) || '—',
          profit: money(totals.profit) || '—',
          roi: formatPercent(totals.roi),
        })}
      </Text>
      {rows.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          {T.empty}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover miw={1700} data-testid="sources-table">
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((key) => {
                  const active = sort.key === key;
                  const hint =
                    key === 'consentRate'
                      ? T.consentRateHint
                      : key === 'conversionRate'
                        ? T.conversionRateHint
                        : key === 'accepted' || key === 'held' || key === 'rejected'
                          ? T.qualityHint
                          : key === 'revenue'
                            ? T.revenueHint
                            : MONEY_HINTS[key];
                  return (
                    <Table.Th
                      key={key}
                      ta={NUMERIC.includes(key) ? 'right' : undefined}
                      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
                    >
                      <UnstyledButton onClick={() => toggle(key)} title={hint} fw={600} fz="sm">
                        {T.columns[key]}
                        {active ? (sort.desc ? ' ↓' : ' ↑') : ''}
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
                <Table.Th title={T.topReasonsHint} fz="sm">
                  {T.topReasons}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((row) => (
                <Table.Tr key={`${row.channel}|${row.source}|${row.campaign}`}>
                  <Table.Td>{row.channel}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      fz="sm"
                      onClick={() => onPick(row)}
                      title={T.filterBy(row.source, row.campaign)}
                    >
                      {row.source}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.campaign || T.noCampaign}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.visitors)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.visits)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.surveyStarts)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.leads)}</Table.Td>
                  <Table.Td ta="right">{formatPercent(row.consentRate)}</Table.Td>
                  <Table.Td ta="right">{formatPercent(row.conversionRate)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.accepted)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.held)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.rejected)}</Table.Td>
                  <Table.Td ta="right">{usd.format(row.revenue)}</Table.Td>
                  <Table.Td ta="right">{formatCount(row.sold)}</Table.Td>
                  <Table.Td ta="right">{money(row.cost)}</Table.Td>
                  <Table.Td ta="right">{money(row.profit)}</Table.Td>
                  <Table.Td ta="right">{row.roi === null ? '' : formatPercent(row.roi)}</Table.Td>
                  <Table.Td ta="right">{money(row.earningsPerVisit, usdFine)}</Table.Td>
                  <Table.Td ta="right">{money(row.costPerAcceptedLead)}</Table.Td>
                  <Table.Td fz="xs">
                    {row.topReasons.map((r, i) => (
                      <span
                        key={r.reason}
                        title={isReasonCode(r.reason) ? QUALITY_REASONS[r.reason].label : undefined}
                      >
                        {i > 0 ? ', ' : ''}
                        {r.reason} ({formatCount(r.leads)})
                      </span>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  );
}
