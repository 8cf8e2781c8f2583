import { Badge, Group, Loader, Table, Text } from '@mantine/core';
import type { DeliveryState } from '@uf/shared/webhooks';
import { businessClock } from '../../business-clock';
import { trpc } from '../../trpc';

// Where a lead went (issues 24 and 26): its webhook deliveries to every endpoint, newest first, with
// their state, attempts and last answer; times in TIME_ZONE with the zone named. Resending is done from
// the Webhooks screen's delivery log.

const STATE_COLOR: Record<DeliveryState, string> = { delivered: 'green', pending: 'yellow', failed: 'red' };

export function LeadDeliveries({ leadId }: { leadId: string }) {
  const deliveries = trpc.admin.webhooks.leadDeliveries.useQuery({ id: leadId }, { staleTime: 0 });
  const endpoints = trpc.admin.webhooks.list.useQuery(undefined, { staleTime: 30_000 });
  if (deliveries.error) return <Text c="red.8">Failed to load the deliveries</Text>;
  if (!deliveries.data) {
    return (
      <Group gap="sm">
        <Loader size="xs" />
        <Text size="sm">Loading deliveries...</Text>
      </Group>
    );
  }
  if (deliveries.data.length === 0) {
    return <Text c="gray.7">No webhook delivery concerns this lead.</Text>;
  }
  const urlOf = (id: string) => endpoints.data?.find((e) => e.id === id)?.url ?? id;
  const clock = businessClock();
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{clock.label('Queued')}</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Last answer</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.format(d.createdAt)}</Table.Td>
              <Table.Td>{d.event}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{urlOf(d.endpointId)}</Table.Td>
              <Table.Td>
                <Badge color={STATE_COLOR[d.state]} variant="light">
                  {d.state}
                </Badge>
              </Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>
                {d.lastStatus ?? d.lastError ?? '—'}
                {d.deliveredAt ? ` (delivered ${clock.format(d.deliveredAt)})` : ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
