import { Alert, Anchor, Badge, Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { LeadSaleView } from '@uf/shared/buyers';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifySuccess } from '../../notify';
import { appErrorOf, trpc } from '../../trpc';
import { AttemptsTable } from './attempts-table';
import { buyerLink } from './buyer-links';
import { SALE_STATUS_WORDS, saleSentence, usd } from './buyer-words';
import { SettleActions } from './settle-actions';

// The Sale section of a lead's page (issue 34), website and API leads alike: sold to whom for how much,
// unsold, pending or not for sale; whether it was returned; every offer in waterfall order (skips with
// their reason in words), each opening to its request and answer; and Return lead while it can be. A sale
// whose outcome is unknown (issue 47) waits for settlement with its buyer: the two settle actions.

const WHOLE_LABEL = { root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible' } };

export function LeadSaleSection({
  leadId,
  leadName,
  verdict,
}: {
  leadId: string;
  leadName: string;
  /** The lead's quality verdict: a release offers it to the buyers, so the sale is read again. */
  verdict?: string;
}) {
  const sale = trpc.admin.buyers.leadSale.useQuery(
    { id: leadId },
    {
      staleTime: 0,
      // While the lead is being offered, the page follows the waterfall.
      refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2_000 : false),
    },
  );
  const [returning, setReturning] = useState(false);
  // A verdict changed on this page (Release): read the sale again.
  const { refetch } = sale;
  const seenVerdict = useRef(verdict);
  useEffect(() => {
    if (verdict === seenVerdict.current) return;
    seenVerdict.current = verdict;
    void refetch();
  }, [verdict, refetch]);

  if (sale.error) {
    return (
      <Alert color="red" title="Failed to load the sale" maw={560}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{appErrorOf(sale.error)?.message ?? 'Please try again.'}</Text>
          <Button size="xs" variant="default" onClick={() => void sale.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!sale.data) {
    return (
      <Group gap="sm">
        <Loader size="xs" />
        <Text size="sm">Loading the sale...</Text>
      </Group>
    );
  }
  const data = sale.data as LeadSaleView;
  const clock = businessClock();
  const words = SALE_STATUS_WORDS[data.status];
  const canReturn = data.status === 'sold' && !data.returned;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" wrap="nowrap">
          <Badge color={words.color} variant="light" styles={WHOLE_LABEL}>
            {words.label}
          </Badge>
          <Text size="sm" data-testid="sale-status">
            {data.status === 'sold' && data.buyerId ? (
              <>
                Sold to{' '}
                <Anchor
                  size="sm"
                  renderRoot={(props) => <Link {...props} {...buyerLink(data.buyerId ?? '')} />}
                >
                  {data.buyerName ?? 'a deleted buyer'}
                </Anchor>{' '}
                for {usd(data.price)}
                {data.soldAt ? ` on ${clock.formatWithZone(data.soldAt)}` : ''}
              </>
            ) : data.status === 'unknown' && data.buyerId ? (
              <>
                Unknown — waiting for settlement with{' '}
                <Anchor
                  size="sm"
                  renderRoot={(props) => <Link {...props} {...buyerLink(data.buyerId ?? '')} />}
                >
                  {data.buyerName ?? 'a deleted buyer'}
                </Anchor>
                : it may have taken the lead (its answer was cut, or the server stopped mid-post). Ask the
                buyer, then settle it.
              </>
            ) : (
              saleSentence(data)
            )}
          </Text>
        </Group>
        {canReturn && (
          <Button variant="light" color="red" onClick={() => setReturning(true)}>
            Return lead
          </Button>
        )}
      </Group>
      {data.status === 'unknown' && data.buyerId && (
        <SettleActions
          leadId={leadId}
          leadName={leadName}
          buyerId={data.buyerId}
          buyerName={data.buyerName ?? 'the buyer'}
          onSettled={() => void sale.refetch()}
        />
      )}
      {data.returned && (
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Badge color="orange" variant="light" styles={WHOLE_LABEL}>
            Returned
          </Badge>
          <Text size="sm">
            Returned on {clock.formatWithZone(data.returned.at)}: {data.returned.reason}
            {data.returned.note ? ` (${data.returned.note})` : ''}. {usd(data.price)} was credited to the
            buyer.
          </Text>
        </Group>
      )}
      {data.attempts.length === 0 ? (
        <Text size="sm" c="gray.7">
          No buyer was offered this lead.
        </Text>
      ) : (
        <>
          <Text size="sm" c="gray.7">
            Every offer in waterfall order (the first buyer to accept buys the lead).
          </Text>
          <AttemptsTable attempts={data.attempts} label="Offers to buyers" show="buyer" />
        </>
      )}
      <ReturnLeadDialog
        opened={returning}
        leadId={leadId}
        leadName={leadName}
        sale={data}
        onClose={() => setReturning(false)}
        onReturned={() => void sale.refetch()}
      />
    </Stack>
  );
}

function ReturnLeadDialog({
  opened,
  leadId,
  leadName,
  sale,
  onClose,
  onReturned,
}: {
  opened: boolean;
  leadId: string;
  leadName: string;
  sale: LeadSaleView;
  onClose: () => void;
  onReturned: () => void;
}) {
  const returnLead = trpc.admin.buyers.returnLead.useMutation();
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | null>(null);
  // Each opening starts empty.
  useEffect(() => {
    if (opened) {
      setReason('');
      setNote('');
      setReasonError(undefined);
      setRefusal(null);
    }
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setReasonError('Give the reason for the return (the buyer’s words, e.g. Disconnected number).');
      return;
    }
    try {
      const answer = await returnLead.mutateAsync({
        id: leadId,
        reason: reason.trim(),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      notifySuccess('Lead returned', `${usd(answer.credited)} credited to ${sale.buyerName ?? 'the buyer'}.`);
      onReturned();
      onClose();
    } catch (err) {
      const app = appErrorOf(err);
      const onReason = app?.fieldErrors?.find((f) => f.field === 'reason')?.message;
      if (onReason) setReasonError(onReason);
      else setRefusal(app?.message ?? 'The lead was not returned. Please try again.');
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Return lead ${leadName}?`} centered>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          <Text size="sm">
            The sale to {sale.buyerName ?? 'the buyer'} is credited: revenue falls by {usd(sale.price)}. Only
            within the buyer’s return window.
          </Text>
          {refusal && (
            <Alert color="red" title="Not returned" role="alert">
              {refusal}
            </Alert>
          )}
          <TextInput
            label="Reason"
            description="What the buyer said was wrong with the lead."
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(undefined);
            }}
            error={reasonError}
            maxLength={200}
            required
            data-autofocus
          />
          <TextInput
            label="Note (optional)"
            description="Kept with the return, e.g. the buyer's ticket number."
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={2000}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={returnLead.isPending}>
              Return lead
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
