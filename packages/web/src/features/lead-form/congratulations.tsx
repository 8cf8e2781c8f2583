import { Alert, Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { getStateSite } from '@uf/shared/state-sites';
import { type MouseEvent, useEffect, useRef } from 'react';

export type CongratulationsProps = {
  /** Two-letter code derived by the server, or null/undefined when unknown or not yet known. */
  state: string | null | undefined;
  onSearchMore: () => void;
  /** The visitor pressed "Search & Claim Your Assets" (tracked as button_click). */
  onClaim?: () => void;
  /**
   * The screen as the server rendered it for a browser that posted the form itself (ADR 057): "Search for
   * More People" is then a link home, which works without the app; otherwise the spec's button.
   */
  homeLink?: boolean;
};

export function Congratulations({ state, onSearchMore, onClaim, homeLink = false }: CongratulationsProps) {
  const site = getStateSite(state);
  // The one thing the visitor must now press: in view and focused when this screen appears (issue 16),
  // once the beneficiary dialog has let go of the focus.
  const claimRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      const claim = claimRef.current;
      if (!claim) return;
      claim.scrollIntoView({ block: 'center' });
      claim.focus({ preventScroll: true });
    }, 50);
    return () => clearTimeout(timer);
  }, []);
  return (
    // id="search": where the posted form lands (action="/#search") and the hero's button leads (issue 37).
    <Card withBorder shadow="sm" padding="xl" radius="md" id="search">
      <Stack>
        <Title order={2}>Congratulations!</Title>
        <Text>
          Your search was submitted. Continue on the official unclaimed-property site for{' '}
          <strong>{site.name}</strong> to see what is waiting for you.
        </Text>
        <Button
          component="a"
          href={site.url}
          target="_blank"
          rel="noopener noreferrer"
          size="lg"
          data-testid="claim-link"
          ref={claimRef}
          onClick={onClaim}
          // The label wraps on a narrow phone instead of being cut off.
          h="auto"
          py="sm"
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
        >
          Search &amp; Claim Your Assets
        </Button>
        <Text size="sm" c="dark.6">
          This opens{' '}
          {site.name === 'Multiple States'
            ? 'the national multi-state search'
            : `the ${site.name} official site`}{' '}
          in a new tab. Searching and claiming on official sites is free. We are not a government site.
        </Text>
        {homeLink ? (
          <Button
            component="a"
            href="/"
            variant="outline"
            onClick={(event: MouseEvent<HTMLAnchorElement>) => {
              event.preventDefault();
              onSearchMore();
            }}
          >
            Search for More People
          </Button>
        ) : (
          <Button variant="outline" onClick={onSearchMore}>
            Search for More People
          </Button>
        )}
        <Alert color="blue" title="Tips">
          <List size="sm" spacing={4}>
            <List.Item>Searches are always free on official state websites.</List.Item>
            <List.Item>If you have lived in several states, check each state where you lived.</List.Item>
          </List>
        </Alert>
      </Stack>
    </Card>
  );
}
