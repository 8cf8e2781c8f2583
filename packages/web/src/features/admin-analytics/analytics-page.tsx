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
import { Link, useNavigate } from '@tanstack/react-router';
import type { AnalyticsQueryInput } from '@uf/shared/analytics.schema';
import { ANALYTICS_TEXTS } from '@uf/shared/analytics-dashboard';
import { ANALYTICS_REFRESH_MS } from '@uf/shared/constants';
import { useEffect, useRef, useState } from 'react';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { DailyActivityChart, TopCountriesChart } from './analytics-charts';
import { AnalyticsFilters, DEFAULT_FILTERS, type Filters, isRangeInverted } from './analytics-filters';
import { formatCount } from './format';
import { TopReferrers } from './top-referrers';

const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === 'unauthorized';

/** Spec §5: empty values and 'all' are dropped and not sent. */
function toQuery(f: Filters): AnalyticsQueryInput {
  const query: AnalyticsQueryInput = {};
  if (f.startDate) query.startDate = f.startDate;
  if (f.endDate) query.endDate = f.endDate;
  if (f.eventType !== 'all') query.eventType = f.eventType as AnalyticsQueryInput['eventType'];
  if (f.country !== 'all') query.country = f.country;
  return query;
}

export function AnalyticsPage() {
  usePageMeta({ title: ANALYTICS_TEXTS.title, description: ANALYTICS_TEXTS.subtitle });
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);

  // Spec §7: the auth check is never served from cache.
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });

  // While End Date is before Start Date the field shows why, and the last valid filters stay applied.
  const applied = useRef(DEFAULT_FILTERS);
  if (!isRangeInverted(filters)) applied.current = filters;
  const query = toQuery(applied.current);

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

  const signedOut = isUnauthorized(session.error) || isUnauthorized(analytics.error);
  useEffect(() => {
    if (signedOut) void navigate({ to: '/admin/login', replace: true });
  }, [signedOut, navigate]);

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
  const cards = [
    { ...ANALYTICS_TEXTS.cards.pageViews, value: data.totalPageViews },
    { ...ANALYTICS_TEXTS.cards.clicks, value: data.totalClicks },
    { ...ANALYTICS_TEXTS.cards.surveyStarts, value: data.totalSurveyStarts },
    { ...ANALYTICS_TEXTS.cards.countries, value: data.uniqueCountries },
  ];
  const countryOptions =
    query.country && !countries.includes(query.country) ? [...countries, query.country] : countries;

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={1}>{ANALYTICS_TEXTS.title}</Title>
            <Text c="dimmed">{ANALYTICS_TEXTS.subtitle}</Text>
          </div>
          <Button component={Link} to="/admin/leads" variant="default">
            {ANALYTICS_TEXTS.backToLeads}
          </Button>
        </Group>

        <AnalyticsFilters value={filters} countries={countryOptions} onChange={setFilters} />

        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {cards.map((card) => (
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
            </Paper>
          ))}
        </SimpleGrid>

        <DailyActivityChart days={data.dailyViews} />

        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TopCountriesChart countries={data.topCountries} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TopReferrers referrers={data.topReferrers} />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
