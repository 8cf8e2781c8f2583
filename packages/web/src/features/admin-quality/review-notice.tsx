import { Alert, Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { trpc } from '../../trpc';
import { REVIEW_QUEUE_LINK } from './quality-links';

// The leads dashboard's pointer to the review queue (issue 33): how many leads the rules hold, shown only
// while some wait, with the way there. Counted by the lists' own verdict filter (one row each).

const HELD_COUNT = { verdict: 'hold', pageSize: 1 } as const;

export function ReviewNotice() {
  const website = trpc.admin.leads.list.useQuery(HELD_COUNT);
  const api = trpc.admin.apiLeads.list.useQuery(HELD_COUNT);
  const held = (website.data?.total ?? 0) + (api.data?.total ?? 0);
  if (held === 0) return null;
  return (
    <Alert color="yellow" variant="light" py="xs" role="status">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {held.toLocaleString()} {held === 1 ? 'lead is' : 'leads are'} waiting for review.
        </Text>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} {...REVIEW_QUEUE_LINK} />}>
          Open the review queue
        </Anchor>
      </Group>
    </Alert>
  );
}
