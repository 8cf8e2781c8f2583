import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { US_STATE_CODES } from '@uf/shared/state-sites';
import { WEBHOOK_EVENTS, type WebhookEndpointView, type WebhookEvent } from '@uf/shared/webhooks';
import { useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { appErrorOf, trpc } from '../../trpc';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';
import { FULL_WIDTH_BADGE } from './lead-columns';

// Webhook endpoints (issue 24, ADR 062): list, create (the secret is shown once), edit events, filters
// and enabled, rotate the secret, send a test, and each endpoint's delivery log with Resend.

type Draft = {
  url: string;
  description: string;
  events: WebhookEvent[];
  states: string[];
  leadTypes: string[];
  utmSources: string[];
  enabled: boolean;
};

const EMPTY: Draft = {
  url: '',
  description: '',
  events: ['lead.created'],
  states: [],
  leadTypes: [],
  utmSources: [],
  enabled: true,
};

const draftOf = (e: WebhookEndpointView): Draft => ({
  url: e.url,
  description: e.description ?? '',
  events: e.events,
  states: e.filters.states ?? [],
  leadTypes: e.filters.leadTypes ?? [],
  utmSources: e.filters.utmSources ?? [],
  enabled: e.enabled,
});

const filtersOf = (d: Draft) => ({
  ...(d.states.length ? { states: d.states } : {}),
  ...(d.leadTypes.length ? { leadTypes: d.leadTypes as ('website' | 'api')[] } : {}),
  ...(d.utmSources.length ? { utmSources: d.utmSources } : {}),
});

function EndpointForm({
  draft,
  onChange,
  isEdit,
  urlError,
}: {
  draft: Draft;
  onChange: (d: Draft) => void;
  isEdit: boolean;
  /** The server's word on the URL (its rule, WEBHOOKS_ALLOW_PRIVATE_URLS included), beside the field. */
  urlError?: string;
}) {
  return (
    <Stack gap="xs">
      <TextInput
        label="URL"
        placeholder="https://crm.example.com/hooks/leads"
        value={draft.url}
        onChange={(e) => onChange({ ...draft, url: e.currentTarget.value })}
        error={urlError}
        required
      />
      <TextInput
        label="Description"
        value={draft.description}
        onChange={(e) => onChange({ ...draft, description: e.currentTarget.value })}
      />
      <Checkbox.Group
        label="Events"
        value={draft.events}
        onChange={(v) => onChange({ ...draft, events: v as WebhookEvent[] })}
      >
        <Group gap="md" mt={4}>
          {WEBHOOK_EVENTS.map((e) => (
            <Checkbox key={e} value={e} label={e} />
          ))}
        </Group>
      </Checkbox.Group>
      <Group grow align="flex-start">
        <MultiSelect
          label="Only these states"
          placeholder="All states"
          data={[...US_STATE_CODES]}
          value={draft.states}
          onChange={(v) => onChange({ ...draft, states: v })}
          searchable
          clearable
        />
        <MultiSelect
          label="Only these lead types"
          placeholder="Website and API"
          data={[
            { value: 'website', label: 'Website' },
            { value: 'api', label: 'API' },
          ]}
          value={draft.leadTypes}
          onChange={(v) => onChange({ ...draft, leadTypes: v })}
          clearable
        />
        <TagsInput
          label="Only these UTM sources"
          placeholder="All sources"
          value={draft.utmSources}
          onChange={(v) => onChange({ ...draft, utmSources: v })}
        />
      </Group>
      {isEdit && (
        <Switch
          label="Enabled"
          checked={draft.enabled}
          onChange={(e) => onChange({ ...draft, enabled: e.currentTarget.checked })}
        />
      )}
    </Stack>
  );
}

function SecretShownOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Alert color="yellow" title="Signing secret: shown only now">
      <Stack gap={6}>
        <Text size="sm">
          Copy it into the receiver: it verifies the webhook-signature header with it (Standard Webhooks).
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button size="compact-sm" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

type StateFilter = 'all' | 'delivered' | 'pending' | 'failed';

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpointView }) {
  const clock = businessClock();
  const [state, setState] = useState<StateFilter>('all');
  const deliveries = trpc.admin.webhooks.deliveries.useQuery(
    { id: endpoint.id, ...(state === 'all' ? {} : { state }) },
    { staleTime: 0, refetchInterval: 2_000 },
  );
  const resend = trpc.admin.webhooks.resend.useMutation();
  const resendFailed = trpc.admin.webhooks.resendFailed.useMutation();
  const rows = deliveries.data ?? [];

  const resendOne = async (deliveryId: string) => {
    try {
      await resend.mutateAsync({ id: endpoint.id, deliveryId });
      notifySuccess('Delivery queued again');
    } catch (err) {
      notifyError('Error', appErrorOf(err)?.message ?? 'Failed to resend');
    } finally {
      await deliveries.refetch();
    }
  };
  const resendAllFailed = async () => {
    try {
      const since = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
      const { requeued } = await resendFailed.mutateAsync({ id: endpoint.id, since });
      notifySuccess('Failed deliveries queued again', `${requeued} deliveries`);
    } catch (err) {
      notifyError('Error', appErrorOf(err)?.message ?? 'Failed to resend');
    } finally {
      await deliveries.refetch();
    }
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Deliveries to {endpoint.url}
        </Title>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={state}
            onChange={(v) => setState(v as StateFilter)}
            data={[
              { value: 'all', label: 'All' },
              { value: 'delivered', label: 'Delivered' },
              { value: 'pending', label: 'Pending' },
              { value: 'failed', label: 'Failed' },
            ]}
          />
          <Button size="compact-sm" variant="default" onClick={() => void resendAllFailed()}>
            Resend failed (last 7 days)
          </Button>
        </Group>
      </Group>
      {deliveries.isLoading && <Loader size="sm" />}
      {deliveries.isSuccess && rows.length === 0 && <Text size="sm">No deliveries</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640} mah="40vh">
          <Table striped stickyHeader aria-label="Deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{clock.label('Created')}</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last answer</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => {
                const last = d.attemptLog[d.attemptLog.length - 1];
                return (
                  <Table.Tr key={d.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.format(d.createdAt)}</Table.Td>
                    <Table.Td>{d.event}</Table.Td>
                    <Table.Td>
                      <Badge
                        color={d.state === 'delivered' ? 'green' : d.state === 'failed' ? 'red' : 'gray'}
                        variant="light"
                        styles={FULL_WIDTH_BADGE}
                      >
                        {d.state}
                      </Badge>
                      {/* When a pending delivery is tried next (issue 37). */}
                      {d.nextAttemptAt && (
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          Next attempt {clock.formatWithZone(d.nextAttemptAt)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>
                      <Text size="xs" lineClamp={2} title={last?.responseExcerpt ?? last?.error ?? ''}>
                        {last
                          ? `${last.statusCode ?? last.error ?? ''} · ${last.durationMs} ms`
                          : (d.lastError ?? '—')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Button size="compact-sm" variant="default" onClick={() => void resendOne(d.id)}>
                        Resend
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export function WebhooksDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const endpoints = trpc.admin.webhooks.list.useQuery(undefined, { enabled: opened, staleTime: 0 });
  const create = trpc.admin.webhooks.create.useMutation();
  const update = trpc.admin.webhooks.update.useMutation();
  const remove = trpc.admin.webhooks.remove.useMutation();
  const rotate = trpc.admin.webhooks.rotateSecret.useMutation();
  const test = trpc.admin.webhooks.test.useMutation();
  // urlError: the server's refusal of the URL, shown inline until the URL changes (issue 37: was a toast).
  const [editing, setEditing] = useState<{ id: string | null; draft: Draft; urlError?: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const rows = endpoints.data ?? [];
  const shownLog = rows.find((e) => e.id === logOf);

  const save = async () => {
    if (!editing) return;
    const { id, draft } = editing;
    const body = {
      url: draft.url.trim(),
      description: draft.description.trim() || null,
      events: draft.events,
      filters: filtersOf(draft),
    };
    try {
      if (id) {
        await update.mutateAsync({ id, ...body, enabled: draft.enabled });
        notifySuccess('Endpoint saved');
      } else {
        const created = await create.mutateAsync(body);
        setSecret(created.secret);
        notifySuccess('Endpoint created');
      }
      setEditing(null);
    } catch (err) {
      const app = appErrorOf(err);
      const urlError = app?.fieldErrors?.find((f) => f.field === 'url')?.message;
      if (urlError) setEditing({ id, draft, urlError });
      else notifyError('Error', app?.message ?? 'Failed to save the endpoint');
    } finally {
      await endpoints.refetch();
    }
  };
  const sendTest = async (id: string) => {
    try {
      await test.mutateAsync({ id });
      notifySuccess('Test message queued', 'See it in the deliveries below.');
      setLogOf(id);
    } catch (err) {
      notifyError('Error', appErrorOf(err)?.message ?? 'Failed to send the test');
    }
  };
  const askRotate = (e: WebhookEndpointView) =>
    setConfirm({
      title: 'Rotate secret',
      message: `Make a new signing secret for ${e.url}? The old one keeps signing beside it for 24 hours.`,
      confirmLabel: 'Rotate secret',
      onConfirm: async () => {
        try {
          const rotated = await rotate.mutateAsync({ id: e.id });
          setSecret(rotated.secret);
        } catch (err) {
          notifyError('Error', appErrorOf(err)?.message ?? 'Failed to rotate the secret');
        } finally {
          await endpoints.refetch();
        }
      },
    });
  const askDelete = (e: WebhookEndpointView) =>
    setConfirm({
      title: 'Delete endpoint',
      message: `Delete the endpoint ${e.url} and its delivery log?`,
      confirmLabel: 'Delete endpoint',
      onConfirm: async () => {
        try {
          await remove.mutateAsync({ id: e.id });
          notifySuccess('Endpoint deleted');
          if (logOf === e.id) setLogOf(null);
        } catch (err) {
          notifyError('Error', appErrorOf(err)?.message ?? 'Failed to delete the endpoint');
        } finally {
          await endpoints.refetch();
        }
      },
    });

  return (
    <Modal opened={opened} onClose={onClose} title="Webhooks" size="80rem">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Each lead is posted, signed (Standard Webhooks), to the endpoints whose events and filters match it,
          as soon as it is stored; failures are retried for about a day and a half. Opt-outs and deletions go
          to every endpoint that received the lead.
        </Text>
        {secret && <SecretShownOnce secret={secret} onDone={() => setSecret(null)} />}
        {endpoints.isLoading && <Loader size="sm" />}
        {endpoints.isError && <Alert color="red" title="Failed to load the endpoints" />}
        {endpoints.isSuccess && rows.length === 0 && !editing && <Text>No endpoints yet</Text>}
        {rows.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-label="Webhook endpoints">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {e.url}
                      </Text>
                      {e.description && (
                        <Text size="xs" c="dimmed">
                          {e.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{e.events.join(', ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      {e.enabled ? (
                        <Badge color="green" variant="light" styles={FULL_WIDTH_BADGE}>
                          Enabled
                        </Badge>
                      ) : (
                        <Badge
                          color="red"
                          variant="light"
                          title={e.disabledReason ?? ''}
                          styles={FULL_WIDTH_BADGE}
                        >
                          Disabled
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        <Button size="compact-sm" variant="default" onClick={() => setLogOf(e.id)}>
                          Deliveries
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="default"
                          onClick={() => setEditing({ id: e.id, draft: draftOf(e) })}
                        >
                          Edit
                        </Button>
                        <Button size="compact-sm" variant="default" onClick={() => void sendTest(e.id)}>
                          Send test
                        </Button>
                        <Button size="compact-sm" variant="default" onClick={() => askRotate(e)}>
                          Rotate secret
                        </Button>
                        <Button size="compact-sm" color="red" variant="light" onClick={() => askDelete(e)}>
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
        {editing ? (
          <Stack gap="xs">
            <Title order={3} size="h5">
              {editing.id ? 'Edit endpoint' : 'Add endpoint'}
            </Title>
            <EndpointForm
              draft={editing.draft}
              isEdit={editing.id !== null}
              urlError={editing.urlError}
              onChange={(draft) =>
                setEditing({
                  ...editing,
                  draft,
                  urlError: draft.url === editing.draft.url ? editing.urlError : undefined,
                })
              }
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button onClick={() => void save()} loading={create.isPending || update.isPending}>
                {editing.id ? 'Save endpoint' : 'Create endpoint'}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group>
            <Button onClick={() => setEditing({ id: null, draft: EMPTY })}>Add endpoint</Button>
          </Group>
        )}
        {shownLog && <DeliveryLog endpoint={shownLog} />}
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </Modal>
  );
}
