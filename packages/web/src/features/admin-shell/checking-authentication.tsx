import { Center, Group, Loader, Text } from '@mantine/core';

/** An admin page's whole screen while it waits: a spinner and what it waits for. */
export function PageLoading({ label }: { label: string }) {
  return (
    <Center mih="60vh">
      <Group gap="sm">
        <Loader size="sm" />
        <Text>{label}</Text>
      </Group>
    </Center>
  );
}

/**
 * What a signed-in admin page shows while its session check runs (spec §2: "First shows 'Checking
 * authentication...'"). The server's document for those pages carries the same markup, rendered at build
 * time (entry-server.tsx), so it is on screen before the admin area's code has loaded (ADR 071).
 */
export function CheckingAuthentication() {
  return <PageLoading label="Checking authentication..." />;
}
