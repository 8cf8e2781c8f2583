import './dialog-styles';
import '@mantine/core/styles/RadioIndicator.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import { Button, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { BENEFICIARY_NOT_SPECIFIED, BENEFICIARY_OPTIONS, type Beneficiary } from '@uf/shared/constants';
import { useState } from 'react';

export type BeneficiaryDialogProps = {
  opened: boolean;
  pending: boolean;
  onChoose: (beneficiary: Beneficiary) => void;
  onClose: () => void;
};

export function BeneficiaryDialog({ opened, pending, onChoose, onClose }: BeneficiaryDialogProps) {
  const [choice, setChoice] = useState<string>('');
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
          <Button variant="default" onClick={() => onChoose(BENEFICIARY_NOT_SPECIFIED)} disabled={pending}>
            Skip
          </Button>
          <Button
            onClick={() => onChoose(choice as Beneficiary)}
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
