import { Table, Text } from '@mantine/core';
import type { AuditEntry } from '@uf/shared/admin-leads';
import { businessClock } from '../../business-clock';
import { describeAction, describeDetail } from './audit-log-format';

// A lead's history (issue 26): the audit entries that concern it, newest first, worded as in the audit
// log, times in TIME_ZONE with the zone named.

export function LeadAuditTrail({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) {
    return <Text c="gray.7">No admin action concerns this lead yet.</Text>;
  }
  const clock = businessClock();
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{clock.label('Time')}</Table.Th>
            <Table.Th>Admin</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th>IP Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.format(e.createdAt)}</Table.Td>
              <Table.Td>{e.actor}</Table.Td>
              <Table.Td title={e.action}>{describeAction(e.action)}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{describeDetail(e.detail)}</Table.Td>
              <Table.Td>{e.ipAddress ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The newest entry that deleted the lead, if its trail has one (what a deleted lead's page says). */
export function deletionOf(entries: AuditEntry[] | undefined): AuditEntry | undefined {
  return entries?.find((e) => e.action === 'leads.delete' || e.action === 'api_leads.delete');
}
