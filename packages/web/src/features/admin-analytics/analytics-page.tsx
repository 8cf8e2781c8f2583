import {
  Button,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import { analyticsCsv, analyticsCsvName } from '@uf/shared/analytics-csv';
import { ANALYTICS_TEXTS, formatChange, pageViewsCaption, rangeLabel } from '@uf/shared/analytics-dashboard';
import {
  type AnalyticsQueryInput,
  analyticsQuerySchema,
  NO_CAMPAIGN,
} from '@uf/shared/analytics-query.schema';
import { ANALYTICS_REFRESH_MS } from '@uf/shared/constants';
import { PAGES } from '@uf/shared/pages';
import { useEffect, useMemo, useState } from 'react';
import { businessClock } from '../../business-clock';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { DailyActivityChart, TopCountriesChart } from './analytics-charts';
import { AnalyticsFilters, DEFAULT_FILTERS, type Filters, isRangeInverted } from './analytics-filters';
import { Breakdowns } from './breakdowns';
import { formatCount } from './format';
import { Funnel } from './funnel';
import { SourcesTable } from './sources-table';
import { TopReferrers } from './top-referrers';

const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === 'unauthorized';

/** Spec §5: empty values and 'all' are dropped and not sent. */
function toQuery(f: Filters): AnalyticsQueryInput {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(f)) if (value !== '' && value !== 'all') query[key] = value;
  return query as AnalyticsQueryInput;
}

/**
 * The filters a dashboard URL holds (issue 15: bookmarkable, shareable, Back/Forward), each checked by
 * the shared schema: a value it refuses falls back to its default instead of breaking the page.
 */
export function filtersFromSearch(search: Record<string, unknown>): Filters {
  const filters: Filters = { ...DEFAULT_FILTERS };
  for (const key of Object.keys(DEFAULT_FILTERS) as (keyof Filters)[]) {
    const value = search[key];
    if (typeof value === 'string' || typeof value === 'number') filters[key] = String(value);
  }
  const parsed = analyticsQuerySchema.safeParse(toQuery(filters));
  if (parsed.success) return filters;
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && key in filters)
      filters[key as keyof Filters] = DEFAULT_FILTERS[key as keyof Filters];
  }
  return analyticsQuerySchema.safeParse(toQuery(filters)).success ? filters : { ...DEFAULT_FILTERS };
}

/**
 * "Download CSV" (issue 26): the answer the page shows, for its applied filters, as a file. Built in the
 * browser from that answer, so the file is exactly what is on screen.
 */
function downloadCsv(data: AnalyticsSummary, query: AnalyticsQueryInput) {
  const clock = businessClock();
  const csv = analyticsCsv(data, query, clock.timeZone);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = analyticsCsvName(query, clock.today());
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function AnalyticsPage() {
  usePageMeta({ title: ANALYTICS_TEXTS.title, description: ANALYTICS_TEXTS.subtitle });
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  // The URL holds the applied filters; the form may briefly hold an inverted range, which is not applied.
  const applied = useMemo(() => filtersFromSearch(search), [search]);
  const [filters, setFilters] = useState<Filters>(applied);
  useEffect(() => setFilters(applied), [applied]);
  const changeFilters = (next: Filters) => {
    setFilters(next);
    if (!isRangeInverted(next)) void navigate({ to: PAGES.adminAnalytics, search: toQuery(next) });
  };

  // Spec §7: the auth check is never served from cache.
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });

  const query = toQuery(applied);

  const analytics = trpc.analytics.summary.useQuery(query, {
    enabled: session.isSuccess,
    // Spec §4/§7: refresh every 30 s; TanStack Query pauses the interval while the tab is hidden.
    refetchInterval: ANALYTICS_REFRESH_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });

  // Spec §9: the country list comes from topCountries — of an answer not narrowed to one country,
  // so choosing a country does not shrink the list to that country alone.
  const [countries, setCountries] = useState<string[]>([]);
  useEffect(() => {
    if (analytics.data && !analytics.isPlaceholderData && !query.country) {
      setCountries(analytics.data.topCountries.map((c) => c.country));
    }
  }, [analytics.data, analytics.isPlaceholderData, query.country]);
  // The same for the source and campaign lists: taken from a sources table not narrowed by them.
  const [attribution, setAttribution] = useState<{ sources: string[]; campaigns: string[] }>({
    sources: [],
    campaigns: [],
  });
  useEffect(() => {
    if (analytics.data && !analytics.isPlaceholderData && !query.source && !query.campaign) {
      const rows = analytics.data.sources;
      setAttribution({
        sources: [...new Set(rows.map((r) => r.source))].sort(),
        // Traffic without a campaign is its own choice: '' would read as "no filter" (issue 37).
        campaigns: [...new Set(rows.map((r) => r.campaign || NO_CAMPAIGN))].sort(),
      });
    }
  }, [analytics.data, analytics.isPlaceholderData, query.source, query.campaign]);

  // The experiments the filter offers (issue 48): the ones that have started, newest first.
  const experimentList = trpc.admin.experiments.list.useQuery(undefined, { enabled: session.isSuccess });
  const experiments = useMemo(
    () =>
      (experimentList.data ?? [])
        .filter((e) => e.startedAt !== null)
        .sort((a, b) => ((a.startedAt ?? '') < (b.startedAt ?? '') ? 1 : -1))
        .map((e) => ({ id: e.id, name: e.name, arms: e.arms.map((a) => ({ key: a.key, name: a.name })) })),
    [experimentList.data],
  );

  // The admin area's session guard takes a signed-out tab to the sign-in page (issue 37).
  const signedOut = isUnauthorized(session.error) || isUnauthorized(analytics.error);

  if (signedOut || session.isPending || (session.isSuccess && analytics.isPending)) {
    return (
      <Center mih="60vh">
        <Stack align="center" gap="sm">
          <Loader />
          <Text>{ANALYTICS_TEXTS.loading}</Text>
        </Stack>
      </Center>
    );
  }

  if (session.isError || analytics.isError || !analytics.data) {
    return (
      <Center mih="60vh">
        <Stack align="center" gap="sm">
          <Title order={1} size="h3">
            {ANALYTICS_TEXTS.failed}
          </Title>
          <Button onClick={() => window.location.reload()}>{ANALYTICS_TEXTS.retry}</Button>
        </Stack>
      </Center>
    );
  }

  const data = analytics.data;
  const { current, previous } = data.comparison;
  const cards = [
    {
      ...ANALYTICS_TEXTS.cards.pageViews,
      caption: pageViewsCaption(Boolean(applied.startDate || applied.endDate)),
      value: data.totalPageViews,
      now: current.pageViews,
      before: previous.pageViews,
    },
    {
      ...ANALYTICS_TEXTS.cards.clicks,
      value: data.totalClicks,
      now: current.clicks,
      before: previous.clicks,
    },
    {
      ...ANALYTICS_TEXTS.cards.surveyStarts,
      value: data.totalSurveyStarts,
      now: current.surveyStarts,
      before: previous.surveyStarts,
    },
    {
      ...ANALYTICS_TEXTS.cards.countries,
      value: data.uniqueCountries,
      now: current.countries,
      before: previous.countries,
    },
    {
      ...ANALYTICS_TEXTS.visitorCards.visitors,
      value: data.totalVisitors,
      now: current.visitors,
      before: previous.visitors,
    },
    {
      ...ANALYTICS_TEXTS.visitorCards.visits,
      value: data.totalVisits,
      now: current.visits,
      before: previous.visits,
    },
  ];
  const periodDays =
    Math.round((Date.parse(data.comparison.endDate) - Date.parse(data.comparison.startDate)) / 86_400_000) +
    1;
  const countryOptions = countries;
  // Every card names the range it counts (issue 26), below the spec's caption: the applied dates, days
  // in TIME_ZONE.
  const range = { startDate: applied.startDate || undefined, endDate: applied.endDate || undefined };
  const cardRange =
    range.startDate || range.endDate ? `${rangeLabel(range)} (${businessClock().zone})` : rangeLabel(range);

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={1}>{ANALYTICS_TEXTS.title}</Title>
            <Text c="dimmed">{ANALYTICS_TEXTS.subtitle}</Text>
          </div>
          <Group gap="sm">
            <Button variant="default" onClick={() => downloadCsv(data, query)}>
              {ANALYTICS_TEXTS.downloadCsv}
            </Button>
            <Button component={Link} to="/admin/leads" variant="default">
              {ANALYTICS_TEXTS.backToLeads}
            </Button>
          </Group>
        </Group>

        <AnalyticsFilters
          value={filters}
          countries={countryOptions}
          sources={attribution.sources}
          campaigns={attribution.campaigns}
          experiments={experiments}
          onChange={changeFilters}
        />

        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 6 }}>
          {cards.map((card) => {
            const change = formatChange(
              card.now,
              card.before,
              periodDays,
              !range.startDate && !range.endDate,
            );
            return (
              <Paper key={card.title} withBorder p="md" radius="md" role="group" aria-label={card.title}>
                <Text size="sm" c="dimmed" fw={500}>
                  {card.title}
                </Text>
                <Text fz={28} fw={700} data-testid="card-value">
                  {formatCount(card.value)}
                </Text>
                <Text size="xs" c="dimmed">
                  {card.caption}
                </Text>
                <Text size="xs" c="dimmed" data-testid="card-range">
                  {cardRange}
                </Text>
                <Text
                  size="xs"
                  fw={600}
                  mt={4}
                  c={change.direction === 'up' ? 'teal.9' : change.direction === 'down' ? 'red.9' : 'gray.7'}
                  data-testid="card-change"
                  title={`${formatCount(card.now)} (${data.comparison.startDate} – ${data.comparison.endDate}) vs ${formatCount(card.before)} (${data.comparison.previousStartDate} – ${data.comparison.previousEndDate})`}
                >
                  {change.text}
                </Text>
              </Paper>
            );
          })}
        </SimpleGrid>

        <DailyActivityChart days={data.dailyViews} money={data.dailyMoney} />

        <Funnel
          steps={data.funnel}
          leadAccepted={data.funnelLeadAccepted}
          leadsWithoutVisit={data.leadsWithoutVisit}
        />
        <SourcesTable
          rows={data.sources}
          totals={data.moneyTotals}
          onPick={(row) =>
            changeFilters({
              ...filters,
              channel: row.channel,
              source: row.source,
              campaign: row.campaign || NO_CAMPAIGN,
            })
          }
        />

        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TopCountriesChart countries={data.topCountries} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TopReferrers referrers={data.topReferrers} />
          </Grid.Col>
        </Grid>
        <Breakdowns data={data} />
      </Stack>
    </Container>
  );
}
