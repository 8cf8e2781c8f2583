import { Alert, Group, Loader, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import type { BuyerView, SaleAttemptView } from '@uf/shared/buyers';
import { useEffect, useState } from 'react';
import { trpc } from '../../trpc';
import { AttemptsTable } from './attempts-table';

// A buyer's log (issue 34): its last 100 offers, skips and test posts, newest first; each opens to the
// request as sent and the first 8 KB of the answer.

type Which = 'all' | 'live' | 'test';
const TEST_QUERY: Record<Which, 'true' | 'false' | undefined> = {
  all: undefined,
  live: 'false',
  test: 'true',
};

export function BuyerLogDialog({ buyer, onClose }: { buyer: BuyerView | null; onClose: () => void }) {
  const [which, setWhich] = useState<Which>('all');
  // Each buyer's log opens on everything.
  useEffect(() => {
    if (buyer) setWhich('all');
  }, [buyer]);
  const test = TEST_QUERY[which];
  const attempts = trpc.admin.buyers.attempts.useQuery(
    { id: buyer?.id ?? '', limit: 100, ...(test ? { test } : {}) },
    { enabled: buyer !== null, staleTime: 0 },
  );
  const rows = (attempts.data ?? []) as SaleAttemptView[];
  return (
    <Modal opened={buyer !== null} onClose={onClose} title={`Log of ${buyer?.name ?? ''}`} size="80rem">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="gray.7">
            The last 100 offers, skips and test posts, newest first. Secrets in the requests are shown as
            ••••.
          </Text>
          <NativeSelect
            size="xs"
            aria-label="Which posts"
            value={which}
            onChange={(e) => setWhich(e.currentTarget.value as Which)}
            data={[
              { value: 'all', label: 'Leads and tests' },
              { value: 'live', label: 'Leads only' },
              { value: 'test', label: 'Tests only' },
            ]}
          />
        </Group>
        {attempts.isError ? (
          <Alert color="red" title="Failed to load the log" />
        ) : attempts.isPending ? (
          <Group gap="sm">
            <Loader size="xs" />
            <Text size="sm">Loading the log...</Text>
          </Group>
        ) : rows.length === 0 ? (
          <Text size="sm">
            Nothing yet: no lead has been offered to this buyer. Send it a test lead from its page.
          </Text>
        ) : (
          <AttemptsTable attempts={rows} label={`Posts to ${buyer?.name ?? ''}`} show="lead" />
        )}
      </Stack>
    </Modal>
  );
}
