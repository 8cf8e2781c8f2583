import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BENEFICIARY_NOT_SPECIFIED, BENEFICIARY_OPTIONS, type Beneficiary } from '@uf/shared/constants';
import { LANDING_FORM_FIELDS } from '@uf/shared/landing-step';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useFormTakeover } from '../../form-takeover';
import { useHydrated } from '../../use-hydrated';
import { useBeneficiaryChoice } from './beneficiary-choice';

export type BeneficiaryFormProps = {
  leadId: string;
  /** A message above the choices (the last update failed). */
  alert?: ReactNode;
  /** Sends the choice; the form is busy until it settles. */
  onChoose: (beneficiary: Beneficiary) => Promise<void>;
};

/**
 * The beneficiary question as a plain form on the page (ADR 057): what the server shows after the
 * browser posted the lead form itself, with the spec's seven choices, Submit and Skip ('Not specified').
 * Without the app the browser posts it; with the app, the choice goes through the API as the dialog's does.
 */
export function BeneficiaryForm({ leadId, alert, onChoose }: BeneficiaryFormProps) {
  const [choice, setChoice] = useState('');
  const { pending, choose } = useBeneficiaryChoice(onChoose);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useFormTakeover(formRef, (form) => {
    const checked = form.querySelector<HTMLInputElement>(
      `input[name="${LANDING_FORM_FIELDS.beneficiary}"]:checked`,
    );
    if (checked) setChoice(checked.value);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute('name') === LANDING_FORM_FIELDS.skip) choose(BENEFICIARY_NOT_SPECIFIED);
    else if (choice !== '') choose(choice as Beneficiary);
  };
  return (
    <Card withBorder shadow="md" padding="lg" radius="md" id="search">
      <form
        ref={formRef}
        method="post"
        action="/#search"
        onSubmit={onSubmit}
        aria-labelledby="beneficiary-heading"
      >
        <input type="hidden" name={LANDING_FORM_FIELDS.step} value="beneficiary" />
        <input type="hidden" name={LANDING_FORM_FIELDS.leadId} value={leadId} />
        <Stack>
          <Title order={2} size="h3" id="beneficiary-heading">
            Who is your beneficiary?
          </Title>
          <Text size="sm">
            Your search was submitted. Unclaimed money can pass to family members: tell us who you would name
            as your beneficiary, or skip this step.
          </Text>
          {alert}
          <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
            <legend style={{ fontWeight: 600, marginBottom: 8 }}>Beneficiary</legend>
            <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs">
              {BENEFICIARY_OPTIONS.map((option) => (
                <label key={option} style={{ display: 'flex', gap: 8, alignItems: 'center', minHeight: 44 }}>
                  <input
                    type="radio"
                    name={LANDING_FORM_FIELDS.beneficiary}
                    value={option}
                    required
                    checked={choice === option}
                    onChange={() => setChoice(option)}
                    style={{ width: 20, height: 20, margin: 0 }}
                  />
                  {option}
                </label>
              ))}
            </SimpleGrid>
          </fieldset>
          {/* Submit first: the Enter key sends the form with its first button. */}
          <Group justify="flex-start" style={{ flexDirection: 'row-reverse' }}>
            <Button type="submit" disabled={(hydrated && choice === '') || pending} loading={pending}>
              Submit
            </Button>
            <Button
              type="submit"
              variant="default"
              name={LANDING_FORM_FIELDS.skip}
              value="1"
              formNoValidate
              disabled={pending}
            >
              Skip
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
