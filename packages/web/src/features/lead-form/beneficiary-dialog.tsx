import './dialog-styles';
import '@mantine/core/styles/RadioIndicator.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import { Button, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { BENEFICIARY_NOT_SPECIFIED, BENEFICIARY_OPTIONS, type Beneficiary } from '@uf/shared/constants';
import { useState } from 'react';
import { useBeneficiaryChoice } from './beneficiary-choice';

export type BeneficiaryDialogProps = {
  opened: boolean;
  /** Sends the choice; the dialog is busy until it settles. */
  onChoose: (beneficiary: Beneficiary) => Promise<void>;
  onClose: () => void;
};

export function BeneficiaryDialog({ opened, onChoose, onClose }: BeneficiaryDialogProps) {
  const [choice, setChoice] = useState<string>('');
  const { pending, choose } = useBeneficiaryChoice(onChoose);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Who is your beneficiary?"
      centered
      size="md"
      // The close button needs a name; focus starts on the first choice, not on the close button, and
      // does not jump back to the form when the dialog closes (the next screen takes it).
      closeButtonProps={{ 'aria-label': 'Close' }}
      returnFocus={false}
      // In the page, not in a portal: a portal renders its content only once it has mounted, in a second,
      // synchronous render of the whole dialog inside the commit — one task of 100 ms and more on a slow
      // phone. In place, the dialog renders in the transition's slices (landing-page.tsx; issue 36).
      withinPortal={false}
      // No scroll lock by script: it restyles the page's body, and the dialog's first focus then laid out the
      // whole page again inside Mantine's focus timer (40+ ms on a slow phone, issue 36). A drag on the dim
      // overlay still does not move the page behind (touch-action); a mouse wheel there may.
      lockScroll={false}
      overlayProps={{ style: { touchAction: 'none' } }}
    >
      <Stack>
        <Text size="sm">
          Unclaimed money can pass to family members. Tell us who you would name as your beneficiary, or skip
          this step.
        </Text>
        <Radio.Group value={choice} onChange={setChoice} label="Beneficiary" name="beneficiary">
          <SimpleGrid cols={{ base: 2, xs: 3 }} mt="xs" spacing="xs">
            {BENEFICIARY_OPTIONS.map((option, i) => (
              <Radio key={option} value={option} label={option} data-autofocus={i === 0 ? true : undefined} />
            ))}
          </SimpleGrid>
        </Radio.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => choose(BENEFICIARY_NOT_SPECIFIED)} disabled={pending}>
            Skip
          </Button>
          <Button
            onClick={() => choose(choice as Beneficiary)}
            disabled={choice === '' || pending}
            loading={pending}
          >
            Submit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
