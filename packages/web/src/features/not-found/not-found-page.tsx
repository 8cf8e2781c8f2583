import { Anchor, Card, Container, Group, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useMarkAppReady } from '../../app-ready';
import { usePageMeta } from '../../page-meta';

export function NotFoundPage() {
  useMarkAppReady();
  usePageMeta({ title: 'Page Not Found', description: 'The page you are looking for does not exist.' });
  return (
    <Container size="sm" py={80}>
      <Card withBorder padding="xl">
        <Group gap="sm" mb="md" wrap="nowrap">
          <svg width="32" height="32" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="10" fill="none" stroke="#c92a2a" strokeWidth="2" />
            <path d="M12 7v6M12 16.5v.5" stroke="#c92a2a" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <Title order={1} size="h2">
            404 Page Not Found
          </Title>
        </Group>
        <Text mb="md">Did you forget to add the page to the router?</Text>
        <Anchor component={Link} to="/">
          Back to Home
        </Anchor>
      </Card>
    </Container>
  );
}
