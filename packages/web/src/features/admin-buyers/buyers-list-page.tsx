import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { BuyerView } from '@uf/shared/buyers';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { ConfirmDialog, type ConfirmRequest } from '../admin-leads/confirm-dialog';
import { useAdminSession, useLeaveWhenSignedOut } from '../admin-quality/admin-session';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import { buyerLink } from './buyer-links';
import { BuyerLogDialog } from './buyer-log-dialog';
import { capUseWords, openingWords, usd } from './buyer-words';

// The Buyers screen (issue 34): every buyer in waterfall order (priority, lower first) with its status,
// price, today's offers, sales and revenue and the use of its caps; Edit, Pause / Resume, its Log, and
// Delete (refused, with the server's words, once it has bought a lead: pause it instead). A buyer with
// sales whose outcome is unknown says how many are to settle (issue 47), linking to its screen's list.

const WHOLE_LABEL = { root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible' } };

/** Where the buyer is posted: 'POST json → api.buyer.example' or 'E-mail → a@b.example'. */
function deliveryWords(b: BuyerView): string {
  if (b.delivery.kind === 'email') return `E-mail → ${b.delivery.to.join(', ')}`;
  let host = b.delivery.url;
  try {
    host = new URL(b.delivery.url).host;
  } catch {
    // Shown as it is.
  }
  return `${b.delivery.method} ${b.delivery.encoding} → ${host}`;
}

export function BuyersListPage() {
  usePageMeta({
    title: 'Buyers',
    description:
      'Who each lead is offered to, in waterfall order, with today’s figures and each buyer’s log.',
  });
  const session = useAdminSession();
  const buyers = trpc.admin.buyers.list.useQuery(undefined, { enabled: session.isSuccess, staleTime: 0 });
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, buyers.error]);
  const update = trpc.admin.buyers.update.useMutation();
  const remove = trpc.admin.buyers.remove.useMutation();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [logOf, setLogOf] = useState<BuyerView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;
  const rows = (buyers.data ?? []) as BuyerView[];

  const setStatus = async (b: BuyerView, status: 'active' | 'paused') => {
    setBusy(b.id);
    setProblem(null);
    try {
      await update.mutateAsync({ id: b.id, status });
      notifySuccess(status === 'paused' ? 'Buyer paused' : 'Buyer resumed', b.name);
    } catch (err) {
      notifyError('Error', appErrorOf(err)?.message ?? 'Failed to change the buyer');
    } finally {
      setBusy(null);
      await buyers.refetch();
    }
  };
  const askDelete = (b: BuyerView) =>
    setConfirm({
      title: 'Delete buyer',
      message: `Delete the buyer ${b.name} and its log? A buyer that has bought leads cannot be deleted: pause it instead.`,
      confirmLabel: 'Delete buyer',
      onConfirm: async () => {
        setProblem(null);
        try {
          await remove.mutateAsync({ id: b.id });
          notifySuccess('Buyer deleted', b.name);
        } catch (err) {
          const message = appErrorOf(err)?.message ?? 'Failed to delete the buyer';
          setProblem(`${b.name} was not deleted. ${message}`);
          notifyError('Buyer not deleted', message);
        } finally {
          await buyers.refetch();
        }
      },
    });

  return (
    <Container size="xl" py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Buyers</Title>
          <Group gap="xs">
            <Button renderRoot={(props) => <Link {...props} {...buyerLink('new')} />}>Add buyer</Button>
            <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/leads" />}>
              Back to Leads
            </Button>
          </Group>
        </Group>
        <Text c="gray.7" size="sm" maw={900}>
          Each accepted lead is offered to the active buyers in this order (priority, lower first); the first
          to accept it buys it. A buyer is passed over when its filters, hours or caps say so, and paused
          after too many errors in a row.
        </Text>
        {problem && (
          <Alert
            color="red"
            title="Not deleted"
            role="alert"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setProblem(null)}
          >
            {problem}
          </Alert>
        )}
        {buyers.isError ? (
          <Alert color="red" title="Failed to load the buyers" maw={560}>
            <Button size="xs" variant="default" onClick={() => void buyers.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : !buyers.data ? (
          <Center py="xl">
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Loading buyers...</Text>
            </Group>
          </Center>
        ) : rows.length === 0 ? (
          <Paper withBorder p="xl">
            <Stack align="flex-start" gap="sm">
              <Text fw={600}>No buyers yet: add one from its posting spec.</Text>
              <Text size="sm" c="gray.7">
                A buyer is an address leads are posted to (or an e-mail inbox), the fields it expects, and how
                to read its answer. Until one is active, leads are stored but not sold.
              </Text>
              <Button renderRoot={(props) => <Link {...props} {...buyerLink('new')} />}>Add buyer</Button>
            </Stack>
          </Paper>
        ) : (
          <Table.ScrollContainer minWidth={1100}>
            <Table
              striped
              withTableBorder
              verticalSpacing="xs"
              fz="sm"
              aria-label="Buyers in waterfall order"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Priority</Table.Th>
                  <Table.Th>Buyer</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Price</Table.Th>
                  <Table.Th>Offered today</Table.Th>
                  <Table.Th>Sold today</Table.Th>
                  <Table.Th>Revenue today</Table.Th>
                  <Table.Th>Caps</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td>{b.priority}</Table.Td>
                    <Table.Td>
                      <Anchor
                        size="sm"
                        fw={600}
                        renderRoot={(props) => <Link {...props} {...buyerLink(b.id)} />}
                      >
                        {b.name}
                      </Anchor>
                      <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                        {deliveryWords(b)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {b.status === 'active' ? (
                        <Badge color="green" variant="light" styles={WHOLE_LABEL}>
                          Active
                        </Badge>
                      ) : (
                        <>
                          <Badge color="red" variant="light" styles={WHOLE_LABEL}>
                            Paused
                          </Badge>
                          {b.pausedReason && (
                            <Text size="xs" c="gray.7">
                              {b.pausedReason}
                            </Text>
                          )}
                        </>
                      )}
                      {/* Its hours, now (issue 49): open, or closed until when, in its own zone. */}
                      <Text
                        size="xs"
                        c={b.openNow ? undefined : 'gray.7'}
                        data-testid="buyer-opening"
                        title={b.schedule ? `Hours in ${b.schedule.timeZone}` : 'No hours set: always open'}
                      >
                        {openingWords(b)}
                      </Text>
                      {b.toSettle > 0 && (
                        <Anchor
                          size="xs"
                          display="block"
                          renderRoot={(props) => <Link {...props} {...buyerLink(b.id)} />}
                        >
                          {b.toSettle.toLocaleString()} to settle
                        </Anchor>
                      )}
                    </Table.Td>
                    <Table.Td>{usd(b.price)}</Table.Td>
                    <Table.Td>{b.today.offered.toLocaleString()}</Table.Td>
                    <Table.Td>
                      {b.today.sold.toLocaleString()}
                      {b.today.returned > 0 && (
                        <Text size="xs" c="gray.7">
                          {b.today.returned.toLocaleString()} returned
                        </Text>
                      )}
                    </Table.Td>
                    {/* Issue 47: gross and net, each named (ADR 073), as the Revenue card counts them. */}
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{usd(b.today.revenue)} gross</Text>
                      <Text size="sm">{usd(b.today.net)} net</Text>
                    </Table.Td>
                    <Table.Td>
                      {b.caps.length === 0 ? (
                        <Text size="sm" c="gray.7">
                          None
                        </Text>
                      ) : (
                        b.caps.map((c) => (
                          <Text key={c.period} size="sm" style={{ whiteSpace: 'nowrap' }}>
                            {capUseWords(c)}
                          </Text>
                        ))
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="default"
                          aria-label={`Edit ${b.name}`}
                          renderRoot={(props) => <Link {...props} {...buyerLink(b.id)} />}
                        >
                          Edit
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="default"
                          aria-label={`${b.status === 'active' ? 'Pause' : 'Resume'} ${b.name}`}
                          loading={busy === b.id}
                          onClick={() => void setStatus(b, b.status === 'active' ? 'paused' : 'active')}
                        >
                          {b.status === 'active' ? 'Pause' : 'Resume'}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="default"
                          aria-label={`Log of ${b.name}`}
                          onClick={() => setLogOf(b)}
                        >
                          Log
                        </Button>
                        <Button
                          size="compact-sm"
                          color="red"
                          variant="light"
                          aria-label={`Delete ${b.name}`}
                          onClick={() => askDelete(b)}
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
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
      <BuyerLogDialog buyer={logOf} onClose={() => setLogOf(null)} />
    </Container>
  );
}
