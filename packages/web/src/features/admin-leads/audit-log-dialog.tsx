import { Alert, Button, Center, Group, Loader, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { businessClock } from '../../business-clock';
import { trpc } from '../../trpc';
import { describeAction, describeDetail } from './audit-log-format';

// The audit log (issue 7): who signed in, exported, deleted, backed up or handled a data request, and
// when — newest first, a page at a time (GET /api/admin/audit-log on the REST surface).

const PAGE_SIZE = 50;

type Entry = {
  id: number;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  ipAddress: string | null;
  createdAt: string;
};

export function AuditLogDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [hasMore, setHasMore] = useState(false);

  const load = useCallback(
    async (before?: number) => {
      setStatus('loading');
      try {
        // Always fresh: the log grows while the dashboard is open.
        const page = await utils.admin.auditLog.fetch({ limit: PAGE_SIZE, before }, { staleTime: 0 });
        setEntries((previous) => (before === undefined ? page : [...previous, ...page]));
        setHasMore(page.length === PAGE_SIZE);
        setStatus('ready');
      } catch {
        setStatus('error');
      }
    },
    [utils],
  );

  useEffect(() => {
    if (opened) void load();
  }, [opened, load]);

  const oldest = entries.at(-1)?.id;

  return (
    <Modal opened={opened} onClose={onClose} title="Audit Log" size="80rem">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Admin actions, newest first: sign-ins, exports, deletions, backups and data requests.
        </Text>
        {status === 'error' && (
          <Alert color="red" title="Failed to load the audit log">
            <Button
              size="xs"
              variant="default"
              onClick={() => void load(entries.length ? oldest : undefined)}
            >
              Retry
            </Button>
          </Alert>
        )}
        {status === 'ready' && entries.length === 0 && <Text>No admin actions recorded yet</Text>}
        {entries.length > 0 && (
          // Reachable with the keyboard, to scroll it with the arrow keys (issue 37, axe).
          <ScrollArea.Autosize
            mah="65vh"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Audit log entries' }}
          >
            <Table striped highlightOnHover stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{businessClock().label('Time')}</Table.Th>
                  <Table.Th>Admin</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Details</Table.Th>
                  <Table.Th>IP Address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {businessClock().format(e.createdAt)}
                    </Table.Td>
                    <Table.Td>{e.actor}</Table.Td>
                    <Table.Td title={e.action}>{describeAction(e.action)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{describeDetail(e.detail)}</Table.Td>
                    <Table.Td>{e.ipAddress ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
        {status === 'loading' && (
          <Center py="sm">
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Loading audit log...</Text>
            </Group>
          </Center>
        )}
        {status === 'ready' && hasMore && (
          <Group justify="center">
            <Button variant="default" onClick={() => void load(oldest)}>
              Load older entries
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
