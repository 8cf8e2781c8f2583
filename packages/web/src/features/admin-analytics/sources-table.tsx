import {
  Anchor,
  Paper,
  ScrollArea,
  SegmentedControl,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
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
  'sold',
  'returned',
  'revenue',
  'net',
  'cost',
  'profit',
  'roi',
  'earningsPerVisit',
  'costPerAcceptedLead',
];
/** An undefined money figure (issue 35) is blank, never $0.00; every figure in whole cents (issue 49). */
const money = (v: number | null) => (v === null ? '' : usd.format(v));
const HINTS: Partial<Record<SortKey, string>> = {
  ...T.moneyHints,
  consentRate: T.consentRateHint,
  conversionRate: T.conversionRateHint,
  accepted: T.qualityHint,
  held: T.qualityHint,
  rejected: T.qualityHint,
};

type View = keyof typeof T.views;
/**
 * Issue 49: the table's columns in two views, each narrow enough for a 1440 px screen without scrolling —
 * the traffic and lead quality of each source, or its money (the columns an operator opens it for: sold,
 * returned, revenue, net, cost, profit, ROI, earnings per visit, cost per accepted lead). The key columns
 * and Visits and Accepted (what the money is divided by) stand in both.
 */
const VIEWS: Record<View, readonly SortKey[]> = {
  traffic: [
    'channel',
    'source',
    'campaign',
    'visitors',
    'visits',
    'surveyStarts',
    'leads',
    'consentRate',
    'conversionRate',
    'accepted',
    'held',
    'rejected',
  ],
  money: [
    'channel',
    'source',
    'campaign',
    'visits',
    'accepted',
    'sold',
    'returned',
    'revenue',
    'net',
    'cost',
    'profit',
    'roi',
    'earningsPerVisit',
    'costPerAcceptedLead',
  ],
};

/** A cell's text (the Source cell is a filter link, drawn apart). */
function cellText(row: SourceRow, key: SortKey): string {
  switch (key) {
    case 'channel':
    case 'source':
      return row[key];
    case 'campaign':
      return row.campaign || T.noCampaign;
    case 'consentRate':
    case 'conversionRate':
      return formatPercent(row[key]);
    case 'roi':
      return row.roi === null ? '' : formatPercent(row.roi);
    case 'revenue':
    case 'net':
    case 'cost':
    case 'profit':
    case 'earningsPerVisit':
    case 'costPerAcceptedLead':
      return money(row[key]);
    default:
      return formatCount(row[key]);
  }
}

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
  const [view, setView] = useState<View>('traffic');
  const columns = VIEWS[view];
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
      <Text size="xs" c="dimmed">
        {T.consentRule}
      </Text>
      <Text size="sm" mb="sm" data-testid="sources-money-totals">
        {T.totals({
          sold: formatCount(totals.sold),
          returned: formatCount(totals.returned),
          revenue: usd.format(totals.revenue),
          net: usd.format(totals.net),
          cost: money(totals.cost) || '—',
          profit: money(totals.profit) || '—',
          roi: formatPercent(totals.roi),
        })}
      </Text>
      <SegmentedControl
        mb="sm"
        size="xs"
        aria-label={T.viewsLabel}
        value={view}
        onChange={(v) => setView(v === 'money' ? 'money' : 'traffic')}
        data={(Object.keys(T.views) as View[]).map((v) => ({ value: v, label: T.views[v] }))}
      />
      {rows.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          {T.empty}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover miw={900} data-testid="sources-table" data-view={view}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((key) => {
                  const active = sort.key === key;
                  return (
                    <Table.Th
                      key={key}
                      ta={NUMERIC.includes(key) ? 'right' : undefined}
                      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
                    >
                      <UnstyledButton onClick={() => toggle(key)} title={HINTS[key]} fw={600} fz="sm">
                        {T.columns[key]}
                        {active ? (sort.desc ? ' ↓' : ' ↑') : ''}
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
                {view === 'traffic' && (
                  <Table.Th title={T.topReasonsHint} fz="sm">
                    {T.topReasons}
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((row) => (
                <Table.Tr key={`${row.channel}|${row.source}|${row.campaign}`}>
                  {columns.map((key) =>
                    key === 'source' ? (
                      <Table.Td key={key}>
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
                    ) : (
                      <Table.Td key={key} ta={NUMERIC.includes(key) ? 'right' : undefined}>
                        {cellText(row, key)}
                      </Table.Td>
                    ),
                  )}
                  {view === 'traffic' && (
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
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  );
}
