import { Alert, Badge, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { calendarDateIn } from '@uf/shared/business-time';
import {
  DATA_REQUEST_MESSAGES,
  type DataRequestInput,
  dataRequestSchema,
} from '@uf/shared/data-request.schema';
import { useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { appErrorOf, trpc } from '../../trpc';
import { saveJson } from './save-file';

// Data subject requests (issue 6): find everything held for an e-mail address or phone number, export it
// for the person, or delete it in one action (only a hashed suppression entry stays). Every step is
// written to the audit log by the server.

type Found = {
  websiteLeads: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    createdAt: string;
  }[];
  apiLeads: {
    id: string;
    firstName: string;
    lastName: string;
    phone: string;
    partner: string | null;
    createdAt: string;
  }[];
  consentReceipts: { id: string }[];
  suppression: { kind: string; source: string; createdAt: string }[];
};

const day = (iso: string) => calendarDateIn(new Date(iso), businessClock().timeZone);

export function DataRequestDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const lookup = trpc.privacy.lookup.useMutation();
  const exporter = trpc.privacy.export.useMutation();
  const remover = trpc.privacy.delete.useMutation();
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'email' | 'phone', string>>>({});
  const [request, setRequest] = useState<DataRequestInput | null>(null);
  const [found, setFound] = useState<Found | null>(null);
  const [confirming, setConfirming] = useState(false);

  const reset = () => {
    setFound(null);
    setRequest(null);
    setConfirming(false);
  };
  const close = () => {
    reset();
    setEmail('');
    setPhone('');
    setErrors({});
    onClose();
  };

  const parse = (): DataRequestInput | null => {
    const parsed = dataRequestSchema.safeParse({ email: email || undefined, phone: phone || undefined });
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const next: Partial<Record<'email' | 'phone', string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'phone' ? 'phone' : 'email';
      next[field] ??= issue.message;
    }
    setErrors(next);
    return null;
  };

  const onLookup = async () => {
    const input = parse();
    if (!input) return;
    reset();
    try {
      setFound(await lookup.mutateAsync(input));
      setRequest(input);
    } catch (err) {
      notifyError('Lookup failed', appErrorOf(err)?.message ?? 'Please try again.');
    }
  };

  const onExport = async () => {
    if (!request) return;
    try {
      const data = await exporter.mutateAsync(request);
      saveJson(data, `data-request-${businessClock().today()}.json`);
      notifySuccess('Export successful', 'The records were saved as a JSON file.');
    } catch (err) {
      notifyError('Export failed', appErrorOf(err)?.message ?? 'Please try again.');
    }
  };

  const onDelete = async () => {
    if (!request) return;
    try {
      const { deleted } = await remover.mutateAsync(request);
      notifySuccess(
        'Deletion complete',
        `Deleted ${deleted.websiteLeads} website lead(s), ${deleted.apiLeads} API lead(s) and ${deleted.consentReceipts} consent receipt(s). Kept a suppression entry.`,
      );
      setConfirming(false);
      await utils.admin.invalidate();
      setFound(await lookup.mutateAsync(request));
    } catch (err) {
      notifyError('Deletion failed', appErrorOf(err)?.message ?? 'Please try again.');
    }
  };

  const personal = found
    ? found.websiteLeads.length + found.apiLeads.length + found.consentReceipts.length
    : 0;

  return (
    <Modal opened={opened} onClose={close} title="Data requests" size="xl">
      <Stack gap="md">
        <Text size="sm">
          Find everything held for a person — website leads, API leads, consent receipts and opt-outs — to
          answer an access or deletion request. {DATA_REQUEST_MESSAGES.identifierRequired}.
        </Text>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void onLookup();
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="E-mail address"
              type="email"
              value={email}
              error={errors.email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 220 }}
            />
            <TextInput
              label="Phone number"
              type="tel"
              value={phone}
              error={errors.phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 180 }}
            />
            <Button type="submit" loading={lookup.isPending}>
              Look up
            </Button>
          </Group>
        </form>

        {found ? (
          <Stack gap="sm" aria-live="polite">
            <Group gap="xs">
              <Badge variant="light">{found.websiteLeads.length} website lead(s)</Badge>
              <Badge variant="light">{found.apiLeads.length} API lead(s)</Badge>
              <Badge variant="light">{found.consentReceipts.length} consent receipt(s)</Badge>
              <Badge variant="light" color="gray">
                {found.suppression.length} suppression entr{found.suppression.length === 1 ? 'y' : 'ies'}
              </Badge>
            </Group>
            {found.websiteLeads.length > 0 ? (
              <RecordTable
                title="Website leads"
                head={['Name', 'E-mail', 'Phone', 'Submitted']}
                rows={found.websiteLeads.map((l) => [
                  l.id,
                  `${l.firstName} ${l.lastName}`,
                  l.email,
                  l.phone,
                  day(l.createdAt),
                ])}
              />
            ) : null}
            {found.apiLeads.length > 0 ? (
              <RecordTable
                title="API leads"
                head={['Name', 'Phone', 'Partner', 'Received']}
                rows={found.apiLeads.map((l) => [
                  l.id,
                  `${l.firstName} ${l.lastName}`,
                  l.phone,
                  l.partner ?? '—',
                  day(l.createdAt),
                ])}
              />
            ) : null}
            {found.suppression.length > 0 ? (
              <RecordTable
                title="Suppression list (kept as hashes)"
                head={['Kind', 'Source', 'Since']}
                rows={found.suppression.map((s) => [
                  `${s.kind}-${s.source}`,
                  s.kind,
                  s.source,
                  day(s.createdAt),
                ])}
              />
            ) : null}
            {personal === 0 && found.suppression.length === 0 ? <Text>No records found.</Text> : null}

            {confirming ? (
              <Alert color="red" title="Delete these records?">
                <Stack gap="xs">
                  <Text size="sm">
                    This permanently deletes {personal} record(s) — leads and their consent receipts — and
                    keeps only a hashed suppression entry so the person is never contacted again. It cannot be
                    undone.
                  </Text>
                  <Group>
                    <Button color="red" loading={remover.isPending} onClick={() => void onDelete()}>
                      Delete permanently
                    </Button>
                    <Button variant="default" onClick={() => setConfirming(false)}>
                      Cancel
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : (
              <Group justify="flex-end">
                <Button variant="default" loading={exporter.isPending} onClick={() => void onExport()}>
                  Export JSON
                </Button>
                <Button
                  color="red"
                  variant="light"
                  disabled={personal === 0}
                  onClick={() => setConfirming(true)}
                >
                  Delete all records
                </Button>
              </Group>
            )}
          </Stack>
        ) : null}
      </Stack>
    </Modal>
  );
}

function RecordTable({ title, head, rows }: { title: string; head: string[]; rows: string[][] }) {
  return (
    <div>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <Table withTableBorder striped>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([key, ...cells]) => (
            <Table.Tr key={key}>
              {cells.map((c, i) => (
                <Table.Td key={head[i]}>{c}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
