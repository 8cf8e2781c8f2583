import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { SaleAttemptView } from '@uf/shared/buyers';
import { type FormEvent, useState } from 'react';
import { appErrorOf, trpc } from '../../trpc';
import { AttemptExchange, OutcomeBadge, RequestBlock } from './attempts-table';
import { latencyWords, leadIdOf, usd } from './buyer-words';

// Trying a saved buyer out (issue 34), side by side: Preview shows the exact request a lead would be sent
// as (nothing is sent, secrets masked); Send test lead posts a made-up lead to the test URL (else the URL)
// and shows what the rules made of the answer. Neither counts against caps or revenue.

type PreviewRequest = { method: string; url: string; headers: Record<string, string>; body: string | null };

export function BuyerTryPanel({ buyerId, isDirty }: { buyerId: string; isDirty: boolean }) {
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Try it
        </Title>
        <Text size="sm" c="gray.7">
          Both use the saved buyer{isDirty ? ': save your changes first to try them' : ''}. Nothing here
          counts against its caps or revenue.
        </Text>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <PreviewPane buyerId={buyerId} />
          <TestPane buyerId={buyerId} />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function PreviewPane({ buyerId }: { buyerId: string }) {
  const preview = trpc.admin.buyers.preview.useMutation();
  const [pasted, setPasted] = useState('');
  const [request, setRequest] = useState<PreviewRequest | null>(null);
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setRequest(null);
    const leadId = leadIdOf(pasted);
    if (leadId === '') {
      setError('Paste the id of a lead (or the address of its page).');
      return;
    }
    try {
      setRequest((await preview.mutateAsync({ id: buyerId, leadId })).request);
    } catch (err) {
      const app = appErrorOf(err);
      setError(app?.fieldErrors?.[0]?.message ?? app?.message ?? 'Failed to build the request');
    }
  };
  return (
    <section aria-labelledby="buyer-preview-heading">
      <Stack gap="xs">
        <Title order={3} size="h5" id="buyer-preview-heading">
          Preview a lead
        </Title>
        <Text size="sm" c="gray.7">
          The exact request a lead would be sent as: method, address, headers and body. Nothing is sent.
        </Text>
        <form noValidate onSubmit={(e) => void submit(e)}>
          <Stack gap="xs" align="flex-start">
            <TextInput
              label="Lead id"
              description="A website or API lead's id, or the address of its page."
              placeholder="7b1c7d1e-4a1f-4b55-9a51-1c7f0f4b8d10"
              value={pasted}
              onChange={(e) => setPasted(e.currentTarget.value)}
              error={error}
              w="100%"
              spellCheck={false}
            />
            <Button type="submit" variant="default" loading={preview.isPending}>
              Preview request
            </Button>
          </Stack>
        </form>
        {request && <RequestBlock request={request} />}
      </Stack>
    </section>
  );
}

function TestPane({ buyerId }: { buyerId: string }) {
  const test = trpc.admin.buyers.test.useMutation();
  const [attempt, setAttempt] = useState<SaleAttemptView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    setError(null);
    setAttempt(null);
    try {
      setAttempt((await test.mutateAsync({ id: buyerId })) as SaleAttemptView);
    } catch (err) {
      setError(appErrorOf(err)?.message ?? 'Failed to send the test lead');
    }
  };
  return (
    <section aria-labelledby="buyer-test-heading">
      <Stack gap="xs">
        <Title order={3} size="h5" id="buyer-test-heading">
          Send a test lead
        </Title>
        <Text size="sm" c="gray.7">
          Posts a made-up lead to the test URL (else the URL), even while the buyer is paused, and reads the
          answer with the response rules.
        </Text>
        <Group>
          <Button onClick={() => void send()} loading={test.isPending}>
            Send test lead
          </Button>
        </Group>
        {error && (
          <Alert color="red" title="Not sent" role="alert">
            {error}
          </Alert>
        )}
        {attempt && (
          <Stack gap="xs">
            <Group gap="md" role="status" aria-label="Test result">
              <OutcomeBadge outcome={attempt.outcome} />
              <Text size="sm">Price {usd(attempt.price)}</Text>
              {attempt.reference && <Text size="sm">Reference {attempt.reference}</Text>}
              <Text size="sm">HTTP {attempt.status ?? '—'}</Text>
              <Text size="sm">Latency {latencyWords(attempt.latencyMs)}</Text>
            </Group>
            {attempt.reason && <Text size="sm">Reason: {attempt.reason}</Text>}
            <AttemptExchange attempt={attempt} />
          </Stack>
        )}
      </Stack>
    </section>
  );
}
