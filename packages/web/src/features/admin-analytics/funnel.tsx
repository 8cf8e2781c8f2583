import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { AnalyticsSummary } from '@uf/shared/analytics.schema';
import { ANALYTICS_TEXTS, FUNNEL_LABELS, formatPercent } from '@uf/shared/analytics-dashboard';
import { formatCount } from './format';

const T = ANALYTICS_TEXTS.funnel;

/** Issue 15: each step's count with its conversion from the previous step and from the first. */
export function Funnel({
  steps,
  leadAccepted,
  leadsWithoutVisit,
}: {
  steps: AnalyticsSummary['funnel'];
  /** Visits whose lead was accepted (issue 33): a part of "lead stored", shown beside it (issue 49). */
  leadAccepted: number;
  /** Leads whose browser session had no tracked visit (issue 26): not in the steps, shown apart. */
  leadsWithoutVisit: number;
}) {
  const first = steps[0]?.count ?? 0;
  return (
    <Paper withBorder p="md" radius="md" h="100%" component="section" aria-labelledby="funnel-title">
      <Title order={2} size="h4" id="funnel-title">
        {T.title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {T.description}
      </Text>
      {first === 0 && steps.every((s) => s.count === 0) ? (
        <Text c="dimmed" py="xl" ta="center">
          {T.empty}
        </Text>
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {steps.map((step, i) => {
            const previous = i === 0 ? null : (steps[i - 1]?.count ?? 0);
            const ofFirst = first === 0 ? null : (step.count / first) * 100;
            const ofPrevious = previous === null || previous === 0 ? null : (step.count / previous) * 100;
            return (
              <li key={step.step} data-testid={`funnel-${step.step}`}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" fw={500}>
                    {FUNNEL_LABELS[step.step]}
                  </Text>
                  <Text size="sm" fw={700} data-testid="funnel-count">
                    {formatCount(step.count)}
                  </Text>
                </Group>
                <Progress
                  value={Math.min(100, ofFirst ?? 0)}
                  size="sm"
                  mt={4}
                  aria-label={`${FUNNEL_LABELS[step.step]}: ${formatPercent(ofFirst)} ${T.fromFirst}`}
                />
                {i > 0 && (
                  <Text size="xs" c="dimmed" mt={2}>
                    {formatPercent(ofPrevious)} {T.fromPrevious} · {formatPercent(ofFirst)} {T.fromFirst}
                  </Text>
                )}
                {step.step === 'lead_stored' && (
                  // Beside the chain, not a step of it (issue 49): indented under the step it is a part of.
                  <Text size="xs" mt={4} pl="sm" data-testid="funnel-lead-accepted">
                    {T.accepted}: <b>{formatCount(leadAccepted)}</b> ·{' '}
                    {formatPercent(step.count === 0 ? null : (leadAccepted / step.count) * 100)}{' '}
                    {T.acceptedOf}
                  </Text>
                )}
              </li>
            );
          })}
        </Stack>
      )}
      <Text size="xs" c="dimmed" mt="md">
        {T.acceptedNote}
      </Text>
      <Text size="sm" mt="xs" title={T.withoutVisitHint} data-testid="leads-without-visit">
        {T.withoutVisit(formatCount(leadsWithoutVisit))}
      </Text>
    </Paper>
  );
}
