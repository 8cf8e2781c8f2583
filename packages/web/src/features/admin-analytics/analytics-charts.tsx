import '@mantine/charts/styles.layer.css';
import { BarChart, CompositeChart, PieChart } from '@mantine/charts';
import { Anchor, Box, Center, Group, Paper, Switch, Text, Title } from '@mantine/core';
import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import {
  ANALYTICS_CHART_HEIGHT,
  ANALYTICS_PIE_COLOR_COUNT,
  ANALYTICS_TEXTS,
  chartDays,
} from '@uf/shared/analytics-dashboard';
import { useState } from 'react';
import type { PieLabelRenderProps } from 'recharts';
import { countryName, formatCount, shortMonthDay, usd } from './format';

// The dashboard's two charts. This module (and with it @mantine/charts and recharts) is only ever
// loaded by the lazily imported analytics page.

// Spec §9: ANALYTICS_PIE_COLOR_COUNT (six) slice colours, cycling when there are more countries.
const PIE_COLORS: readonly string[] = ['blue.6', 'teal.6', 'yellow.6', 'red.6', 'grape.6', 'orange.6'].slice(
  0,
  ANALYTICS_PIE_COLOR_COUNT,
);

const SERIES = [
  { name: 'views', label: ANALYTICS_TEXTS.series.views, color: 'blue.6' },
  { name: 'clicks', label: ANALYTICS_TEXTS.series.clicks, color: 'teal.6' },
  { name: 'surveyStarts', label: ANALYTICS_TEXTS.series.surveyStarts, color: 'orange.6' },
];

/** Issue 35: net revenue and ad cost as lines on a right-hand axis in dollars, beside the bars. */
const MONEY_SERIES = [
  { name: 'net', label: ANALYTICS_TEXTS.moneySeries.net, color: 'green.7', yAxisId: 'right' },
  { name: 'cost', label: ANALYTICS_TEXTS.moneySeries.cost, color: 'red.7', yAxisId: 'right' },
];
const wholeUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** The legend's order: the series' own (Page Views, Clicks, Survey Starts, then the money), as they stand. */
const ORDER = [...SERIES, ...MONEY_SERIES].map((s) => s.name);
const seriesOrder = (item: { dataKey?: unknown }) => ORDER.indexOf(String(item.dataKey));

type TooltipItem = { dataKey?: unknown; value?: unknown; color?: string };

/** The day's figures, counts as counts and the money in dollars (a day without a cost figure: none). */
function MoneyTooltip({ label, payload }: { label?: unknown; payload?: readonly TooltipItem[] }) {
  if (!payload?.length) return null;
  const all = [...SERIES, ...MONEY_SERIES];
  return (
    <Paper withBorder shadow="md" p="xs" radius="md">
      <Text fw={500} size="sm" mb={4}>
        {shortMonthDay(String(label))}
      </Text>
      {all.map((s) => {
        const item = payload.find((p) => p.dataKey === s.name);
        if (!item || item.value === null || item.value === undefined) return null;
        const value = Number(item.value);
        const money = 'yAxisId' in s;
        return (
          <Group key={s.name} justify="space-between" gap="md">
            <Text size="sm">{s.label}</Text>
            <Text size="sm">{money ? usd.format(value) : formatCount(value)}</Text>
          </Group>
        );
      })}
    </Paper>
  );
}

export function DailyActivityChart({
  days,
  money,
}: {
  days: AnalyticsSummary['dailyViews'];
  money: AnalyticsSummary['dailyMoney'];
}) {
  const [showMoney, setShowMoney] = useState(false);
  const common = {
    h: ANALYTICS_CHART_HEIGHT,
    dataKey: 'date',
    withLegend: true,
    // Recharts sorts legend items by name unless told otherwise: keep the series' order.
    legendProps: { itemSorter: seriesOrder },
    xAxisProps: { tickFormatter: (value: string) => shortMonthDay(value) },
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {ANALYTICS_TEXTS.dailyActivity}
        </Title>
        <Switch
          label={ANALYTICS_TEXTS.showMoney}
          checked={showMoney}
          onChange={(event) => setShowMoney(event.currentTarget.checked)}
        />
      </Group>
      {/* A chart's root is a plain <div>, which may not carry a name: the figure around it does. */}
      <Box role="figure" aria-label={ANALYTICS_TEXTS.dailyActivity}>
        {showMoney ? (
          <CompositeChart
            {...common}
            data={chartDays(days, money)}
            series={[
              ...SERIES.map((s) => ({ ...s, type: 'bar' as const })),
              ...MONEY_SERIES.map((s) => ({ ...s, type: 'line' as const })),
            ]}
            withRightYAxis
            rightYAxisProps={{ tickFormatter: (value: number) => wholeUsd.format(value) }}
            // A money series in dollars, the others as counts; a day without a cost figure (a country
            // filter: ad cost has no country) shows none.
            valueFormatter={formatCount}
            tooltipProps={{ content: MoneyTooltip }}
          />
        ) : (
          <BarChart
            {...common}
            data={days}
            series={SERIES}
            valueFormatter={formatCount}
            tooltipProps={{ labelFormatter: (value) => shortMonthDay(String(value)) }}
          />
        )}
      </Box>
    </Paper>
  );
}

/** Slice label: the country's name and its rounded share. */
function sliceLabel({ x, y, cx, name, percent }: PieLabelRenderProps) {
  const left = Number(x) < Number(cx);
  return (
    <text
      x={x}
      y={y}
      textAnchor={left ? 'end' : 'start'}
      dominantBaseline="central"
      fill="var(--mantine-color-text)"
      fontSize={12}
    >
      {`${name} ${Math.round(Number(percent ?? 0) * 100)}%`}
    </text>
  );
}

export function TopCountriesChart({ countries }: { countries: AnalyticsSummary['topCountries'] }) {
  const data = countries.map((c, i) => ({
    name: countryName(c.country),
    value: c.count,
    color: PIE_COLORS[i % PIE_COLORS.length] ?? 'blue.6',
  }));
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Title order={2} size="h4" mb="md">
        {ANALYTICS_TEXTS.topCountries}
      </Title>
      {data.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed">{ANALYTICS_TEXTS.noCountries}</Text>
        </Center>
      ) : (
        <Center role="figure" aria-label={ANALYTICS_TEXTS.topCountries}>
          <PieChart
            data={data}
            size={180}
            withLabels
            withLabelsLine
            withTooltip
            valueFormatter={formatCount}
            pieProps={{ label: sliceLabel }}
            w="100%"
            style={{ overflow: 'visible' }}
          />
        </Center>
      )}
      <Text size="xs" c="dimmed" ta="right" mt="sm">
        <Anchor href="https://db-ip.com" target="_blank" rel="noopener noreferrer" inherit>
          {ANALYTICS_TEXTS.geoAttribution}
        </Anchor>
      </Text>
    </Paper>
  );
}
