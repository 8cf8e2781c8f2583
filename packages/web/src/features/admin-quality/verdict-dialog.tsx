import { Button, Group, Modal, Text, Textarea } from '@mantine/core';
import type { AdminVerdict } from '@uf/shared/quality';
import { useEffect, useState } from 'react';

// Asks before a verdict changes (issue 33): Release offers the lead to the buyers and sends it to the
// webhook endpoints at once, which cannot be called back; Reject keeps it from both until a release
// (the words: REVIEW_WORDS). An optional note goes into the audit log with the decision.

export type VerdictRequest = {
  verdict: AdminVerdict;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: (note: string | undefined) => void;
};

export const NOTE_MAX = 500;

export function VerdictDialog({ request, onClose }: { request: VerdictRequest | null; onClose: () => void }) {
  const [note, setNote] = useState('');
  // A new question starts with an empty note.
  useEffect(() => {
    if (request) setNote('');
  }, [request]);
  const confirm = () => {
    const trimmed = note.trim();
    request?.onConfirm(trimmed === '' ? undefined : trimmed);
    onClose();
  };
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={request?.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text mb="md">{request?.message}</Text>
      <Textarea
        label="Note (optional)"
        description="Kept in the audit log with your decision."
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        maxLength={NOTE_MAX}
        autosize
        minRows={2}
        maxRows={6}
        mb="lg"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color={request?.verdict === 'accept' ? undefined : 'red'} onClick={confirm}>
          {request?.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
