import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { Beneficiary } from '@uf/shared/constants';
import { PUBLIC_TOASTS } from '@uf/shared/messages';
import { lazy, type MouseEvent, Suspense, startTransition, useEffect, useState } from 'react';
import { afterNextPaint } from '../../after-paint';
import { useAppConfig } from '../../app-config';
import { useMarkAppReady } from '../../app-ready';
import { useServerLandingStep } from '../../landing-step';
import { notifyError } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { loadAdPixel, pushConversion } from './ad-pixel';
import { HeroArt } from './hero-art';
import { LeadForm } from './lead-form';

const ASSETS_LEFT = [
  'Safe deposit box contents',
  'Checking or savings accounts',
  'Stocks',
  'Life insurance policies',
  'Trust distributions',
];
const ASSETS_RIGHT = [
  'Annuities',
  'Uncashed dividends',
  'Utility security deposits',
  'Uncashed payroll checks',
  'Customer overpayments',
];
const STEPS = [
  { title: 'Fill Out Your Information', text: 'Tell us who you are with the short form on this page.' },
  {
    title: 'Wait For Our Team To Look',
    text: 'We point you to the official unclaimed-property records that match where you live.',
  },
  {
    title: 'Claim Your Assets',
    text: 'Claim what you find, for free, directly on your state’s official site.',
  },
];

// Loaded when needed, not with the page (ADR 053): analytics at the document's load (page-load.ts); the API client
// and the post-submit screens on demand, prefetched once the visitor starts the form.
const loadAnalytics = () => import('./analytics');
const loadPublicApi = () => import('../../public-api').then((m) => m.publicApi);
const loadAfterSubmit = () => import('./after-submit');
const BeneficiaryDialog = lazy(() => loadAfterSubmit().then((m) => ({ default: m.BeneficiaryDialog })));
const Congratulations = lazy(() => loadAfterSubmit().then((m) => ({ default: m.Congratulations })));
const BeneficiaryForm = lazy(() => loadAfterSubmit().then((m) => ({ default: m.BeneficiaryForm })));

/** `inPage`: the beneficiary question as the page's own form (the server rendered it, ADR 057), not a dialog. */
type Phase =
  | { step: 'form' }
  | { step: 'beneficiary'; leadId: string; inPage?: boolean }
  | { step: 'done'; leadId: string; inPage?: boolean };

/** The id of the form's first field: the hero's call to action links to it (focus moves, no script needed). */
const FIRST_FIELD_ID = 'lead-first-name';

export function LandingPage() {
  useMarkAppReady();
  usePageMeta({
    title: 'Unclaimed Funds Finder',
    description:
      'Find out if unclaimed money is waiting for you: bank accounts, insurance, stocks, deposits and more. Free to search on official state sites.',
  });
  // The step the server rendered after the browser posted the form itself (ADR 057), else the form.
  const serverStep = useServerLandingStep();
  const [phase, setPhase] = useState<Phase>(() =>
    serverStep?.step === 'beneficiary'
      ? { step: 'beneficiary', leadId: serverStep.leadId, inPage: true }
      : serverStep?.step === 'done'
        ? { step: 'done', leadId: serverStep.leadId, inPage: true }
        : { step: 'form' },
  );
  const [formKey, setFormKey] = useState(0);
  const [leadState, setLeadState] = useState<string | null | undefined>(
    serverStep && serverStep.step !== 'form' ? serverStep.state : undefined,
  );
  const serverForm = formKey === 0 && serverStep?.step === 'form' ? serverStep : undefined;
  const serverAlert = formKey === 0 && serverStep?.step !== 'done' ? serverStep?.alert : undefined;

  // Issue 48: the arm's copy the server rendered the page with (none: the page as built).
  const { adPixelScriptUrl, landingCopy: copy = {} } = useAppConfig();
  const phoneFormAt = copy.formFirst === false ? 2 : 1;

  useEffect(() => {
    void loadAnalytics().then((a) => a.trackPageView('home'));
    loadAdPixel(adPixelScriptUrl);
  }, [adPixelScriptUrl]);

  const onSubmitted = (id: string) => {
    pushConversion('signup', adPixelScriptUrl);
    // The next step as a transition: React renders the dialog in slices that let a tap or a paint through,
    // not in one task of 100 ms and more on a slow phone (ADR 068).
    startTransition(() => setPhase({ step: 'beneficiary', leadId: id }));
    // Learn the state the server derived from the ZIP; a failure only means the national site is shown.
    loadPublicApi()
      .then((api) => api.lead.byId.query({ id }))
      .then((lead) => startTransition(() => setLeadState(lead.state)))
      .catch((err: unknown) => console.warn('Could not read the lead state:', err));
  };

  /** Saves the choice, then shows Congratulations; the dialog or form shows itself busy meanwhile. */
  const chooseBeneficiary = async (beneficiary: Beneficiary) => {
    if (phase.step !== 'beneficiary') return;
    try {
      const api = await loadPublicApi();
      await api.lead.setBeneficiary.mutate({ id: phase.leadId, beneficiary });
      pushConversion('lead', adPixelScriptUrl);
      startTransition(() => setPhase({ step: 'done', leadId: phase.leadId }));
    } catch {
      notifyError(PUBLIC_TOASTS.beneficiaryFailed.title, PUBLIC_TOASTS.beneficiaryFailed.message);
    }
  };

  const startOver = () => {
    setPhase({ step: 'form' });
    setLeadState(undefined);
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0 });
  };

  /** The hero's call to action: to the form (or the step that replaced it), the keyboard focus in it. */
  const goToForm = (event: MouseEvent<HTMLAnchorElement>) => {
    const card = document.getElementById('search');
    if (!card) return;
    event.preventDefault();
    card.scrollIntoView({ behavior: 'smooth', block: 'start' });
    // The first field a person can reach (never the honeypot, which is out of the tab order, issue 33).
    card
      .querySelector<HTMLElement>('input:not([type="hidden"]):not([tabindex="-1"]), a[href]')
      ?.focus({ preventScroll: true });
  };

  const alert = serverAlert && (
    <Alert color="red" title={serverAlert.title} role="alert" mb="md">
      {serverAlert.message}
    </Alert>
  );

  return (
    <>
      <Box bg="brand.0" py={{ base: 'lg', md: 60 }}>
        <Container size="lg">
          <Grid align="center" gap="xl">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="md">
                <Badge color="brand.8" variant="filled" size="lg">
                  {copy.eyebrow ?? 'Free to search'}
                </Badge>
                <Title order={1} fz={{ base: 30, md: 44 }}>
                  {copy.headline ?? 'Find Out If Unclaimed Money Is Waiting For You'}
                </Title>
                <Text size="lg" fz={{ base: 'md', md: 'lg' }}>
                  {copy.subheadline ??
                    'Millions of Americans have forgotten bank accounts, refunds, insurance payouts and deposits held by their state. Check in minutes and go straight to your state’s official search.'}
                </Text>
                <Group>
                  {/* A link to the form's first field: the browser scrolls there and puts the cursor in
                      it before any script runs; the app only makes the scroll smooth. */}
                  {/* After the form (issue 37): to the step that replaced it (the result, the beneficiary). */}
                  <Button
                    component="a"
                    href={phase.step === 'form' ? `#${FIRST_FIELD_ID}` : '#search'}
                    size="lg"
                    onClick={goToForm}
                  >
                    {copy.heroButton ?? 'Start Your Free Search'}
                  </Button>
                </Group>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <HeroArt />
            </Grid.Col>
          </Grid>
        </Container>
      </Box>

      <Container size="lg" py="xl">
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 3 - phoneFormAt, md: 1 }}>
            <Stack gap="xl">
              <section aria-labelledby="owed-heading">
                <Title order={2} id="owed-heading" mb="sm">
                  How Do I Find Out If I'm Owed Money?
                </Title>
                <Text mb="sm">
                  States hold money that businesses could not return to its owners. It can include:
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2 }}>
                  <List spacing={4}>
                    {ASSETS_LEFT.map((a) => (
                      <List.Item key={a}>{a}</List.Item>
                    ))}
                  </List>
                  <List spacing={4}>
                    {ASSETS_RIGHT.map((a) => (
                      <List.Item key={a}>{a}</List.Item>
                    ))}
                  </List>
                </SimpleGrid>
              </section>
              <section aria-labelledby="process-heading">
                <Title order={2} id="process-heading" mb="sm">
                  How Does the Process Work?
                </Title>
                <Stack gap="sm">
                  {STEPS.map((s, i) => (
                    <Card key={s.title} withBorder padding="md">
                      <Grid align="center" gap="sm">
                        <Grid.Col span="content">
                          <ThemeIcon size={36} radius="xl" color="brand.8" aria-hidden="true">
                            {i + 1}
                          </ThemeIcon>
                        </Grid.Col>
                        <Grid.Col span="auto">
                          <Title order={3} size="h4">
                            Step {i + 1}: {s.title}
                          </Title>
                          <Text size="sm">{s.text}</Text>
                        </Grid.Col>
                      </Grid>
                    </Card>
                  ))}
                </Stack>
              </section>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }} order={{ base: phoneFormAt, md: 2 }}>
            {phase.step === 'beneficiary' && phase.inPage ? (
              <Suspense fallback={null}>
                <BeneficiaryForm leadId={phase.leadId} alert={alert} onChoose={chooseBeneficiary} />
              </Suspense>
            ) : phase.step === 'done' ? (
              <Suspense fallback={null}>
                <Congratulations
                  state={leadState}
                  homeLink={phase.inPage}
                  onSearchMore={startOver}
                  // The funnel's last step (issue 15); sent with keepalive, so it survives the new tab.
                  onClaim={() => void loadAnalytics().then((a) => a.trackEvent('button_click', 'home'))}
                />
              </Suspense>
            ) : (
              <Card withBorder shadow="md" padding="lg" radius="md" id="search">
                <Title order={2} size="h3" mb="xs">
                  Start Your Free Search
                </Title>
                <Text size="sm" mb="md" c="dark.6">
                  All fields are required.
                </Text>
                {alert}
                <LeadForm
                  key={formKey}
                  firstFieldId={FIRST_FIELD_ID}
                  initial={serverForm}
                  onSubmitAttempt={() =>
                    void loadAnalytics().then((a) => a.trackEvent('form_submit', 'home'))
                  }
                  onConsentChecked={() => {
                    // After the tick is on screen: evaluating these chunks in the tap's frame made it
                    // late on a slow phone (issue 36).
                    void afterNextPaint().then(() => {
                      void loadAnalytics().then((a) => a.trackSurveyStartedOnce('home'));
                      void loadPublicApi();
                      void loadAfterSubmit();
                    });
                  }}
                  onSubmitted={onSubmitted}
                />
              </Card>
            )}
          </Grid.Col>
        </Grid>
      </Container>

      {/* Gone with its step, without a closing animation: each of the animation's steps re-rendered the
          dialog in a task of its own, over 50 ms on a slow phone, as Congratulations appeared (ADR 068). */}
      {phase.step === 'beneficiary' && !phase.inPage && (
        <Suspense fallback={null}>
          <BeneficiaryDialog
            opened
            onChoose={chooseBeneficiary}
            onClose={() => phase.step === 'beneficiary' && setPhase({ step: 'done', leadId: phase.leadId })}
          />
        </Suspense>
      )}
    </>
  );
}
