import { Alert, Container, Title } from '@mantine/core';
import { usePageMeta } from '../../page-meta';

/** Honest stand-in for a screen whose issue has not landed yet: it says so instead of pretending. */
export function UnfinishedPage({ title }: { title: string }) {
  usePageMeta({ title, description: `${title} is not built yet.` });
  return (
    <Container size="sm" py={60}>
      <Title order={1} mb="md">
        {title}
      </Title>
      <Alert color="gray" variant="outline" title="Not built yet">
        This screen is still being built and does not work yet.
      </Alert>
    </Container>
  );
}
