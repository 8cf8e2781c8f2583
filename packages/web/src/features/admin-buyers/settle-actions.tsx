import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { notifySuccess } from '../../notify';
import { appErrorOf, trpc } from '../../trpc';

// Settling a post whose outcome is unknown (issue 47, ADR 069 "Unknown outcomes"): the buyer's answer was
// cut, or the server stopped while the post was in flight, so only the buyer knows whether it took the
// lead. After asking it, the admin says which: "The buyer took it" books the sale at the buyer's price;
// "The buyer did not take it" offers the lead on down the waterfall. Used on the lead's page and in the
// buyer's To settle list. Each asks first; a settle someone else made meanwhile is refused with the
// server's words (409) and the screens read again.

export function SettleActions({
  leadId,
  leadName,
  buyerId,
  buyerName,
  onSettled,
}: {
  leadId: string;
  leadName: string;
  buyerId: string;
  buyerName: string;
  onSettled?: () => void;
}) {
  const settle = trpc.admin.buyers.settleLead.useMutation();
  const utils = trpc.useUtils();
  const [taken, setTaken] = useState<boolean | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setTaken(null);
    setRefusal(null);
  };
  const refresh = () => {
    void utils.admin.buyers.invalidate();
    onSettled?.();
  };
  const confirm = async () => {
    if (taken === null) return;
    try {
      await settle.mutateAsync({ id: leadId, buyerId, taken });
      notifySuccess(
        taken ? 'Sale booked' : 'Offered on',
        taken
          ? `Lead ${leadName} is sold to ${buyerName} at its price.`
          : `Lead ${leadName} goes on down the waterfall; ${buyerName} is not offered it again.`,
      );
      close();
      refresh();
    } catch (err) {
      setRefusal(appErrorOf(err)?.message ?? 'The sale was not settled. Please try again.');
      refresh();
    }
  };
  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="light" color="green" onClick={() => setTaken(true)}>
          The buyer took it
        </Button>
        <Button size="xs" variant="default" onClick={() => setTaken(false)}>
          The buyer did not take it
        </Button>
      </Group>
      <Modal
        opened={taken !== null}
        onClose={close}
        centered
        title={
          taken ? `Did ${buyerName} take lead ${leadName}?` : `${buyerName} did not take lead ${leadName}?`
        }
      >
        <Stack gap="sm">
          <Text size="sm">
            {taken
              ? `The lead is booked as sold to ${buyerName} at the buyer's price, and stays counted against its caps.`
              : `The post is closed (its caps released) and the lead is offered to the next buyers in the waterfall. ${buyerName} is never offered it again.`}{' '}
            Recorded in the audit log.
          </Text>
          {refusal && (
            <Alert color="red" title="Not settled" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={settle.isPending} disabled={refusal !== null} onClick={() => void confirm()}>
              {taken ? 'Book the sale' : 'Offer it on'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
