import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { businessClock } from '../../business-clock';
import { trpc } from '../../trpc';
import { LeadPageLink } from '../admin-leads/lead-page-link';
import { SettleActions } from './settle-actions';

// A buyer's To settle list (issue 47): its posts whose outcome is unknown, oldest first. Each lead waits
// there — counted against the buyer's caps, offered to nobody else — until an admin settles it with what
// the buyer says. Shown only while there is something to settle.

export function ToSettlePanel({ buyerId, buyerName }: { buyerId: string; buyerName: string }) {
  const list = trpc.admin.buyers.toSettle.useQuery({ id: buyerId }, { staleTime: 0 });
  if (list.error) {
    return (
      <Alert color="red" title="Failed to load the sales to settle" maw={560}>
        {list.error.message}
      </Alert>
    );
  }
  const rows = list.data ?? [];
  if (rows.length === 0) return null;
  const clock = businessClock();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="to-settle-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="to-settle-heading">
          To settle ({rows.length.toLocaleString()})
        </Title>
        <Text size="sm" c="gray.7">
          Posts whose outcome is unknown: the answer was cut, or the server stopped while they were in flight.{' '}
          {buyerName} may have taken these leads, so they count against its caps and wait here, offered to no
          other buyer. Ask the buyer, then settle each.
        </Text>
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Sales to settle" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Lead</Table.Th>
                <Table.Th>Posted</Table.Th>
                <Table.Th>Why unknown</Table.Th>
                <Table.Th>Settle</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    {a.leadId && (
                      <LeadPageLink kind={a.leadType ?? 'website'} id={a.leadId} size="sm" ff="monospace">
                        {a.leadId.slice(0, 8)}
                      </LeadPageLink>
                    )}
                  </Table.Td>
                  <Table.Td>{clock.formatWithZone(a.at)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{a.reason ?? '—'}</Table.Td>
                  <Table.Td>
                    {a.leadId && (
                      <SettleActions
                        leadId={a.leadId}
                        leadName={a.leadId.slice(0, 8)}
                        buyerId={buyerId}
                        buyerName={buyerName}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
