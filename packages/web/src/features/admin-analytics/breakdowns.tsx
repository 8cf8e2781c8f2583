import { Grid, Paper, Table, Text, Title } from '@mantine/core';
import type { AnalyticsSummary, BreakdownRow } from '@uf/shared/analytics.schema';
import { ANALYTICS_TEXTS, DEVICE_TYPE_LABELS, formatPercent } from '@uf/shared/analytics-dashboard';
import { formatCount } from './format';

const T = ANALYTICS_TEXTS.breakdowns;

/** One breakdown (issue 26): visits per device type, browser or operating system, with each one's share. */
function BreakdownTable({
  id,
  title,
  rows,
  label = (name) => name,
}: {
  id: string;
  title: string;
  rows: BreakdownRow[];
  label?: (name: string) => string;
}) {
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  return (
    <Paper withBorder p="md" radius="md" h="100%" component="section" aria-labelledby={`${id}-title`}>
      <Title order={2} size="h4" mb="sm" id={`${id}-title`}>
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          {T.empty}
        </Text>
      ) : (
        <Table data-testid={id} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.name}</Table.Th>
              <Table.Th ta="right">{T.visits}</Table.Th>
              <Table.Th ta="right">{T.share}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.name}>
                <Table.Td>{label(r.name)}</Table.Td>
                <Table.Td ta="right">{formatCount(r.count)}</Table.Td>
                <Table.Td ta="right">{formatPercent(total === 0 ? null : (r.count / total) * 100)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

export function Breakdowns({
  data,
}: {
  data: Pick<AnalyticsSummary, 'deviceTypes' | 'browsers' | 'operatingSystems'>;
}) {
  return (
    <div>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BreakdownTable
            id="device-types"
            title={T.deviceTypes}
            rows={data.deviceTypes}
            label={(name) => DEVICE_TYPE_LABELS[name] ?? name}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BreakdownTable id="browsers" title={T.browsers} rows={data.browsers} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BreakdownTable id="operating-systems" title={T.operatingSystems} rows={data.operatingSystems} />
        </Grid.Col>
      </Grid>
      <Text size="xs" c="dimmed" mt="xs">
        {T.note}
      </Text>
    </div>
  );
}
