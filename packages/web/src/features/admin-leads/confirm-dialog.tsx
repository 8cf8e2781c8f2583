import { Button, Group, Modal, Text } from '@mantine/core';

export type ConfirmRequest = { title: string; message: string; confirmLabel: string; onConfirm: () => void };

/** Asks before anything is deleted. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  return (
    <Modal opened={request !== null} onClose={onClose} title={request?.title} centered>
      <Text mb="lg">{request?.message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red"
          onClick={() => {
            request?.onConfirm();
            onClose();
          }}
        >
          {request?.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
