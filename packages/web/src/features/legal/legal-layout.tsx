import { Anchor, Container, Divider, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useAppConfig } from '../../app-config';
import { useMarkAppReady } from '../../app-ready';

type LegalLayoutProps = {
  title: string;
  subtitle?: string;
  showLastUpdated?: boolean;
  children: ReactNode;
};

export function LegalLayout({ title, subtitle, showLastUpdated = false, children }: LegalLayoutProps) {
  useMarkAppReady();
  // The spec makes the last-updated date always read as today: the server's today, given with the
  // page's config, so the prerendered text and the hydrated one are the same (ADR 053).
  const { dates } = useAppConfig();
  const lastUpdated = showLastUpdated ? dates.today : null;

  return (
    <Container size="md" py="xl">
      <article>
        <Stack gap="xl">
          <Stack component="header" gap="xs">
            <Title order={1}>{title}</Title>
            {subtitle ? <Text size="lg">{subtitle}</Text> : null}
            {lastUpdated ? <Text size="sm">Last updated: {lastUpdated}</Text> : null}
          </Stack>
          {children}
          <Divider />
          <Anchor component={Link} to="/" underline="always" fw={500}>
            Back to Home
          </Anchor>
        </Stack>
      </article>
    </Container>
  );
}

type LegalSectionProps = {
  title: string;
  children: ReactNode;
};

export function LegalSection({ title, children }: LegalSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </section>
  );
}

type SupportEmailLinkProps = {
  subject?: string;
};

export function SupportEmailLink({ subject }: SupportEmailLinkProps) {
  const { supportEmail } = useAppConfig();
  const href = subject
    ? `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}`
    : `mailto:${supportEmail}`;
  return (
    <Anchor href={href} underline="always">
      {supportEmail}
    </Anchor>
  );
}
