import '@mantine/charts/styles.layer.css';
import { BarChart, PieChart } from '@mantine/charts';
import { Anchor, Box, Center, Paper, Text, Title } from '@mantine/core';
import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import {
  ANALYTICS_CHART_HEIGHT,
  ANALYTICS_PIE_COLOR_COUNT,
  ANALYTICS_TEXTS,
} from '@uf/shared/analytics-dashboard';
import type { PieLabelRenderProps } from 'recharts';
import { countryName, formatCount, shortMonthDay } from './format';

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

/** The legend's order: the series' own (Page Views, Clicks, Survey Starts), as the bars stand. */
const seriesOrder = (item: { dataKey?: unknown }) => SERIES.findIndex((s) => s.name === item.dataKey);

export function DailyActivityChart({ days }: { days: AnalyticsSummary['dailyViews'] }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="md">
        {ANALYTICS_TEXTS.dailyActivity}
      </Title>
      {/* A chart's root is a plain <div>, which may not carry a name: the figure around it does. */}
      <Box role="figure" aria-label={ANALYTICS_TEXTS.dailyActivity}>
        <BarChart
          h={ANALYTICS_CHART_HEIGHT}
          data={days}
          dataKey="date"
          series={SERIES}
          withLegend
          // Recharts sorts legend items by name unless told otherwise: keep the bars' order.
          legendProps={{ itemSorter: seriesOrder }}
          valueFormatter={formatCount}
          xAxisProps={{ tickFormatter: (value: string) => shortMonthDay(value) }}
          tooltipProps={{ labelFormatter: (value) => shortMonthDay(String(value)) }}
        />
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
