import { Alert, Button, Code, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { appErrorOf, trpc } from '../../trpc';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';

// The backups in BACKUP_DIR (issue 26, ADR 060): the app's own and the backup sidecar's, newest first,
// each downloadable and deletable, with the command that restores one.

const SOURCE_LABELS: Record<string, string> = {
  app: 'Backup Database',
  scheduled: 'Scheduled (sidecar)',
  other: 'Other',
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function BackupsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const clock = businessClock();
  const backups = trpc.admin.backups.list.useQuery(undefined, { enabled: opened, staleTime: 0 });
  const remove = trpc.admin.backups.remove.useMutation();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const rows = backups.data ?? [];
  const example = rows[0]?.name ?? 'uf-backup-….dump';

  const askDelete = (name: string) =>
    setConfirm({
      title: 'Delete backup',
      message: `Delete the backup ${name}? The file is removed from the server for good.`,
      confirmLabel: 'Delete backup',
      onConfirm: async () => {
        try {
          await remove.mutateAsync({ name });
          notifySuccess('Backup deleted', name);
        } catch (err) {
          notifyError('Error', appErrorOf(err)?.message ?? 'Failed to delete the backup');
        } finally {
          await backups.refetch();
        }
      },
    });

  return (
    <Modal opened={opened} onClose={onClose} title="Backups" size="70rem">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          The database backups on the server, newest first: those made with Backup Database (the newest are
          kept, older ones are deleted after each new backup) and the scheduled ones of the backup service.
          Times in {clock.zone}.
        </Text>
        {backups.isLoading && (
          <Group gap="sm">
            <Loader size="sm" />
            <Text>Loading backups...</Text>
          </Group>
        )}
        {backups.isError && (
          <Alert color="red" title="Failed to load the backups">
            <Button size="xs" variant="default" onClick={() => void backups.refetch()}>
              Retry
            </Button>
          </Alert>
        )}
        {backups.isSuccess && rows.length === 0 && <Text>No backups yet</Text>}
        {rows.length > 0 && (
          <Table.ScrollContainer minWidth={640} mah="50vh">
            <Table striped highlightOnHover stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>{clock.label('Created')}</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th>Made by</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((b) => (
                  <Table.Tr key={b.name}>
                    <Table.Td>
                      <Text ff="monospace" size="xs">
                        {b.name}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.format(b.createdAt)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(b.sizeBytes)}</Table.Td>
                    <Table.Td>{SOURCE_LABELS[b.source] ?? b.source}</Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button
                          component="a"
                          size="compact-sm"
                          variant="default"
                          href={`/api/admin/backups/${encodeURIComponent(b.name)}`}
                          download={b.name}
                          aria-label={`Download ${b.name}`}
                        >
                          Download
                        </Button>
                        <Button
                          size="compact-sm"
                          color="red"
                          variant="light"
                          aria-label={`Delete ${b.name}`}
                          onClick={() => askDelete(b.name)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Title order={3} size="h5">
          Restore a backup
        </Title>
        <Text size="sm">
          A restore replaces everything in the database. Stop the server (with Docker: the app and backup
          services), then run on the server:
        </Text>
        <Code block>{`npm run cli -- restore "$BACKUP_DIR/${example}" --yes`}</Code>
        <Text size="sm">With Docker Compose:</Text>
        <Code block>{`docker compose stop app backup
docker compose run --rm --no-deps app node dist/cli.js restore /app/backups/${example} --yes
docker compose up -d`}</Code>
        <Text size="sm" c="dimmed">
          More in the README: Run with Docker, Backup and Restore.
        </Text>
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </Modal>
  );
}
