import { Alert, Anchor, Button, Card, Container, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { UNSUBSCRIBE_DELAY_MS } from '@uf/shared/constants';
import { createUnsubscribeSchema } from '@uf/shared/unsubscribe.schema';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useAppConfig } from '../../app-config';
import { useMarkAppReady } from '../../app-ready';
import { enteredValues } from '../../entered-values';
import { focusFirstInvalid } from '../../focus-invalid';
import { useFormTakeover } from '../../form-takeover';
import { notifyError } from '../../notify';
import { usePageMeta } from '../../page-meta';

// Spec §2 /unsubscribe: idle → processing (about 2 s) → done. Unlike the original, the address really is
// recorded (POST /api/unsubscribe → suppression list); the screen shows success only once it is.

type Phase = 'idle' | 'processing' | 'done';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function UnsubscribePage() {
  useMarkAppReady();
  usePageMeta({
    title: 'Unsubscribe',
    description:
      'Stop marketing e-mails from Unclaimed Funds Finder. Enter your e-mail address to unsubscribe.',
  });
  const { supportEmail } = useAppConfig();
  const schema = useMemo(() => createUnsubscribeSchema(supportEmail), [supportEmail]);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const processing = phase === 'processing';
  const formRef = useRef<HTMLFormElement>(null);
  // The prerendered field takes input before the app starts (ADR 053, ADR 057): what it holds becomes the
  // state, and a submit made while the app loaded is sent again.
  useFormTakeover(formRef, (form) => {
    const typed = enteredValues(form, ['email']).email;
    if (typeof typed === 'string') setEmail(typed);
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = schema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setError(null);
    setPhase('processing');
    try {
      // The API client is its own chunk, loaded on submit (ADR 053).
      const { publicApi } = await import('../../public-api');
      await Promise.all([publicApi.privacy.unsubscribe.mutate(parsed.data), delay(UNSUBSCRIBE_DELAY_MS)]);
      setPhase('done');
    } catch {
      notifyError('Error', 'We could not process your request. Please try again.');
      setPhase('idle');
    }
  };

  const support = (
    <Anchor href={`mailto:${supportEmail}`} underline="always">
      {supportEmail}
    </Anchor>
  );

  return (
    <Container size="sm" py="xl">
      <Card withBorder shadow="sm" padding="xl" radius="md">
        {phase === 'done' ? (
          <Stack gap="md" role="status">
            <Title order={1} size="h2" c="green.9">
              Successfully Unsubscribed
            </Title>
            <Text>
              <strong>{email.trim()}</strong> will no longer receive marketing e-mails from us. Please allow
              up to 48 hours for the change to take effect.
            </Text>
            <Text fw={600}>Not what you wanted? You can also:</Text>
            <List spacing="xs">
              <List.Item>
                <Text span fw={600}>
                  Reduce frequency
                </Text>{' '}
                — hear from us less often instead of not at all.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  Update preferences
                </Text>{' '}
                — choose which messages you receive: e-mail, text or calls.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  Temporary pause
                </Text>{' '}
                — take a break from our messages for a while.
              </List.Item>
            </List>
            <Text size="sm">
              To arrange any of these, e-mail us at {support}. To stop text messages, reply STOP.
            </Text>
          </Stack>
        ) : (
          // POST, never GET (the address must not end up in a URL). Before the app runs, the page's entry
          // script keeps the button in step with the field and holds a submit for the app (ADR 057); the
          // form has no server answer of its own (data-app-only).
          <form
            ref={formRef}
            method="post"
            data-app-only="true"
            noValidate
            onSubmit={(e) => void onSubmit(e)}
            aria-label="Unsubscribe"
          >
            <Stack gap="md">
              <Title order={1} size="h2">
                Unsubscribe
              </Title>
              <Text>Enter your e-mail address to stop receiving marketing e-mails from us.</Text>
              <TextInput
                label="Email Address"
                type="email"
                required
                autoComplete="email"
                name="email"
                value={email}
                disabled={processing}
                error={error}
                onChange={(e) => {
                  setEmail(e.currentTarget.value);
                  if (error) setError(null);
                }}
              />
              <Button type="submit" disabled={email.trim() === '' || processing} data-requires-field="email">
                {processing ? 'Processing...' : 'Unsubscribe'}
              </Button>
              {processing ? null : (
                <Alert color="gray" variant="light">
                  Questions? E-mail us at {support}.
                </Alert>
              )}
            </Stack>
          </form>
        )}
      </Card>
    </Container>
  );
}
