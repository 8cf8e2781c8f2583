import './dialog-styles';
import { Button, Group, Modal, Text } from '@mantine/core';

// Spec §2: this dialog exists, though nothing in the normal flow opens it.
export type ReviewConfirmDialogProps = {
  opened: boolean;
  onCloseAndSubmit: () => void;
  onDisregard: () => void;
};

export function ReviewConfirmDialog({ opened, onCloseAndSubmit, onDisregard }: ReviewConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onDisregard}
      title="Don't Forget To Review & Confirm Your Profile Details"
      centered
    >
      <Text mb="lg">Click Close &amp; Review then check the red box</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDisregard}>
          Disregard
        </Button>
        <Button onClick={onCloseAndSubmit}>Close &amp; Submit</Button>
      </Group>
    </Modal>
  );
}
