import { Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { NOT_GOVERNMENT_NOTICE, SITE_NAME } from '@uf/shared/consent';
import { useAppConfig } from '../../app-config';

const FOOTER_LINKS = [
  { to: '/terms', label: 'Terms & Conditions' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/privacy-notice', label: 'Privacy Notice' },
  { to: '/ca-privacy', label: 'California Consumers: Do Not Sell My Information' },
  { to: '/contact', label: 'Contact Us' },
  { to: '/unsubscribe', label: 'Unsubscribe' },
] as const;

export function PublicLayout() {
  const { supportEmail, dates } = useAppConfig();
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Anchor component={Link} to="/" fw={700} size="lg" c="brand.8" underline="never">
            {SITE_NAME}
          </Anchor>
        </Container>
      </Box>
      <Box component="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Box component="footer" py="xl" bg="gray.1">
        <Container size="lg">
          <Stack gap="sm">
            <Group component="nav" aria-label="Footer" gap="md" wrap="wrap">
              {FOOTER_LINKS.map((l) => (
                <Anchor key={l.to} component={Link} to={l.to} size="sm" c="dark.7">
                  {l.label}
                </Anchor>
              ))}
              <Anchor href={`mailto:${supportEmail}`} size="sm" c="dark.7">
                {supportEmail}
              </Anchor>
            </Group>
            <Text size="sm" c="dark.6">
              {NOT_GOVERNMENT_NOTICE}
            </Text>
            <Text size="xs" c="dark.6">
              © {dates.year} {SITE_NAME}
            </Text>
          </Stack>
        </Container>
      </Box>
    </Box>
  );
}
