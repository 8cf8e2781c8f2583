import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import { ANALYTICS_TEXTS } from '@uf/shared/analytics-dashboard';
import { displayReferrer } from '@uf/shared/referrer';

export function TopReferrers({ referrers }: { referrers: AnalyticsSummary['topReferrers'] }) {
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Title order={2} size="h4" mb="md">
        {ANALYTICS_TEXTS.topReferrers}
      </Title>
      {referrers.length === 0 ? (
        <Stack gap={4} py="xl" align="center">
          <Text c="dimmed">{ANALYTICS_TEXTS.noReferrers}</Text>
          <Text size="sm" c="dimmed">
            {ANALYTICS_TEXTS.noReferrersHint}
          </Text>
        </Stack>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {referrers.map(({ referrer, count }) => {
            const shown = displayReferrer(referrer);
            return (
              <Group key={referrer} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} title={shown.title} truncate>
                    {shown.text}
                  </Text>
                  {shown.domain && (
                    <Text size="xs" c="dimmed" truncate>
                      {shown.domain}
                    </Text>
                  )}
                </Stack>
                <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
                  {ANALYTICS_TEXTS.visits(count)}
                </Badge>
              </Group>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
