import {
  Alert,
  Badge,
  Button,
  Center,
  Container,
  Group,
  Loader,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { FieldError } from '@uf/shared/errors';
import { QUALITY_REASONS, REASON_CODES, VERDICTS, type Verdict } from '@uf/shared/quality';
import { type FormEvent, useEffect, useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import { useAdminSession, useLeaveWhenSignedOut } from './admin-session';
import { REVIEW_QUEUE_LINK } from './quality-links';
import { VERDICT_WORDS } from './quality-words';

// The lead-quality settings (issue 33): what each reason code does (accept, hold or reject, its default
// marked), the duplicate window, the velocity limits, the minimum seconds from page to submit and the
// allow lists. The server judges every value: its field errors show under their fields. Each save bumps
// the rules version (stored with each lead submitted afterwards).

type Settings = {
  actions: Record<string, Verdict>;
  duplicateWindowDays: number;
  velocity: { per10Minutes: number; perDay: number };
  minSecondsToSubmit: number;
  allow: { emailDomains: string[]; phones: string[] };
  version: number;
  updatedBy: string | null;
  updatedAt: string | null;
  reasons: { code: string; action: Verdict; label: string }[];
};

type NumberValue = number | string;

type Draft = {
  actions: Record<string, Verdict>;
  duplicateWindowDays: NumberValue;
  per10Minutes: NumberValue;
  perDay: NumberValue;
  minSecondsToSubmit: NumberValue;
  /** One entry per line, as typed. */
  emailDomains: string;
  phones: string;
};

const draftOf = (s: Settings): Draft => ({
  actions: { ...s.actions },
  duplicateWindowDays: s.duplicateWindowDays,
  per10Minutes: s.velocity.per10Minutes,
  perDay: s.velocity.perDay,
  minSecondsToSubmit: s.minSecondsToSubmit,
  emailDomains: s.allow.emailDomains.join('\n'),
  phones: s.allow.phones.join('\n'),
});

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** An emptied number field is sent as null: the server says what it must be, under the field. */
const numberOf = (value: NumberValue) =>
  (typeof value === 'number' ? value : value.trim() === '' ? null : Number(value)) as number;

function inputOf(draft: Draft) {
  return {
    actions: draft.actions,
    duplicateWindowDays: numberOf(draft.duplicateWindowDays),
    velocity: { per10Minutes: numberOf(draft.per10Minutes), perDay: numberOf(draft.perDay) },
    minSecondsToSubmit: numberOf(draft.minSecondsToSubmit),
    allow: { emailDomains: linesOf(draft.emailDomains), phones: linesOf(draft.phones) },
  };
}

type Errors = Record<string, string>;

/**
 * The server's field errors by the control that shows them. A list entry (`allow.emailDomains.2`) is
 * named by what was typed on its line, so the admin finds it.
 */
function errorsOf(fieldErrors: FieldError[], sent: ReturnType<typeof inputOf>): Errors {
  const errors: Errors = {};
  const add = (key: string, message: string) => {
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  };
  for (const { field, message: said } of fieldErrors) {
    const [head, second, third] = field.split('.');
    // 'velocity.perDay must be…' under the field that says what it is: 'Must be…'.
    const message = said.startsWith(`${field} `)
      ? `${said.charAt(field.length + 1).toUpperCase()}${said.slice(field.length + 2)}`
      : said;
    if (head === 'allow' && (second === 'emailDomains' || second === 'phones')) {
      const index = Number(third);
      const value = Number.isInteger(index) ? sent.allow[second][index] : undefined;
      add(second, value === undefined ? message : `“${value}”: ${message}`);
    } else if (head === 'velocity') {
      add(second === 'perDay' ? 'perDay' : 'per10Minutes', message);
    } else if (head === 'actions' && second) {
      add(`actions.${second}`, message);
    } else if (head === 'duplicateWindowDays' || head === 'minSecondsToSubmit') {
      add(head, message);
    } else {
      add('_', `${field}: ${message}`);
    }
  }
  return errors;
}

/** The chosen action's colour: dark enough for white text, or (hold) light enough for black. */
const CHOSEN_COLOR: Record<Verdict, string> = { accept: 'brand.8', hold: 'yellow.4', reject: 'red.9' };

const VERDICT_CHOICES = VERDICTS.map((v) => ({ value: v, label: VERDICT_WORDS[v].badge }));

export function QualitySettingsPage() {
  usePageMeta({
    title: 'Quality settings',
    description:
      'What each lead-quality check does, the duplicate window, the velocity limits and the allow lists.',
  });
  const session = useAdminSession();
  const settings = trpc.admin.quality.getSettings.useQuery(undefined, {
    enabled: session.isSuccess,
    staleTime: 0,
  });
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, settings.error]);
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;
  return (
    <Container size="lg" py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Quality settings</Title>
          <Group gap="xs">
            <Button variant="default" renderRoot={(props) => <Link {...props} {...REVIEW_QUEUE_LINK} />}>
              Review queue
            </Button>
            <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/leads" />}>
              Back to Leads
            </Button>
          </Group>
        </Group>
        {settings.data ? (
          <SettingsForm saved={settings.data as Settings} />
        ) : settings.isError ? (
          <Alert color="red" title="Failed to load the quality settings" maw={560}>
            <Button size="xs" variant="default" onClick={() => void settings.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : (
          <Center py="xl">
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Loading quality settings...</Text>
            </Group>
          </Center>
        )}
      </Stack>
    </Container>
  );
}

function SettingsForm({ saved }: { saved: Settings }) {
  const utils = trpc.useUtils();
  const save = trpc.admin.quality.updateSettings.useMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Errors>({});
  // Another admin's save (or this one's), seen on a refetch: the form shows it unless it is being edited.
  const [savedVersion, setSavedVersion] = useState(saved.version);
  const isDirty = JSON.stringify(inputOf(draft)) !== JSON.stringify(inputOf(draftOf(saved)));
  useEffect(() => {
    if (saved.version !== savedVersion && !isDirty) {
      setDraft(draftOf(saved));
      setSavedVersion(saved.version);
    }
  }, [saved, savedVersion, isDirty]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const setAction = (code: string, verdict: Verdict) => {
    setDraft((d) => ({ ...d, actions: { ...d.actions, [code]: verdict } }));
    setErrors(({ [`actions.${code}`]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = inputOf(draft);
    try {
      const next = (await save.mutateAsync(input)) as Settings;
      utils.admin.quality.getSettings.setData(undefined, next);
      setDraft(draftOf(next));
      setSavedVersion(next.version);
      setErrors({});
      notifySuccess(
        'Quality settings saved',
        `Version ${next.version}: applies to leads submitted from now on.`,
      );
    } catch (err) {
      const app = appErrorOf(err);
      if (app?.fieldErrors?.length) setErrors(errorsOf(app.fieldErrors, input));
      else
        notifyError('Quality settings not saved', app?.message ?? 'Something went wrong. Please try again.');
    }
  };

  const reasons: Settings['reasons'] =
    saved.reasons.length > 0
      ? saved.reasons
      : REASON_CODES.map((code) => ({ code, ...QUALITY_REASONS[code] }) as Settings['reasons'][number]);
  const clock = businessClock();
  const changedCount = reasons.filter((r) => (draft.actions[r.code] ?? r.action) !== r.action).length;
  const errorCount = Object.keys(errors).length;

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Quality settings">
      <Stack gap="lg">
        <Text c="gray.7" role="status">
          Rules version {saved.version.toLocaleString()}
          {saved.updatedAt
            ? ` · last changed by ${saved.updatedBy ?? 'unknown'} on ${clock.formatWithZone(saved.updatedAt)}`
            : ' · the defaults, never changed'}
          . Changes apply to leads submitted from now on; each lead keeps the version it was judged by.
        </Text>
        {errorCount > 0 && (
          <Alert color="red" title="Not saved: some values are not valid" role="alert">
            {errors._ ?? 'The fields below say what is wrong.'}
          </Alert>
        )}

        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Group justify="space-between" gap="sm">
              <Title order={2} size="h3">
                What each check does
              </Title>
              <Button
                variant="default"
                size="xs"
                disabled={changedCount === 0}
                onClick={() =>
                  set(
                    'actions',
                    Object.fromEntries(reasons.map((r) => [r.code, r.action])) as Draft['actions'],
                  )
                }
              >
                Reset all to defaults
              </Button>
            </Group>
            <Text size="sm" c="gray.7">
              Accept: the lead is delivered. Hold: it waits in the review queue. Reject: it is never sent. A
              lead with several reasons gets the strictest of their actions.
              {changedCount > 0 &&
                ` ${changedCount} ${changedCount === 1 ? 'check differs' : 'checks differ'} from the default.`}
            </Text>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="xs" fz="sm" aria-label="Actions per reason">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Check</Table.Th>
                    <Table.Th>Default</Table.Th>
                    <Table.Th>Action</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {reasons.map((reason) => {
                    const current = draft.actions[reason.code] ?? reason.action;
                    const error = errors[`actions.${reason.code}`];
                    return (
                      <Table.Tr key={reason.code}>
                        <Table.Td>
                          <Text size="sm">{reason.label}</Text>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {reason.code}
                          </Text>
                          {error && (
                            <Text size="xs" c="red.9" role="alert">
                              {error}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Badge color={VERDICT_WORDS[reason.action].color} variant="light">
                            {VERDICT_WORDS[reason.action].badge}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <SegmentedControl
                              size="xs"
                              aria-label={`Action for ${reason.code}: ${reason.label}`}
                              data={VERDICT_CHOICES}
                              value={current}
                              onChange={(v) => setAction(reason.code, v as Verdict)}
                              // The chosen action in its colour (text black or white, whichever reads).
                              color={CHOSEN_COLOR[current]}
                              autoContrast
                            />
                            {current !== reason.action && (
                              <Text size="xs" c="gray.7">
                                changed
                              </Text>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Title order={2} size="h3">
              Limits
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <NumberInput
                label="Duplicate window (days)"
                description="A lead with the same phone or mailbox as another lead within this many days is a duplicate."
                value={draft.duplicateWindowDays}
                onChange={(v) => set('duplicateWindowDays', v)}
                error={errors.duplicateWindowDays}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
              />
              <NumberInput
                label="Minimum seconds to submit"
                description="A form sent sooner after its page was served is too fast for a person."
                value={draft.minSecondsToSubmit}
                onChange={(v) => set('minSecondsToSubmit', v)}
                error={errors.minSecondsToSubmit}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
              />
              <NumberInput
                label="Leads per address in 10 minutes"
                description="More leads than this from one client address within 10 minutes is a velocity hit."
                value={draft.per10Minutes}
                onChange={(v) => set('per10Minutes', v)}
                error={errors.per10Minutes}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
              />
              <NumberInput
                label="Leads per address in 24 hours"
                description="More leads than this from one client address within 24 hours is a velocity hit."
                value={draft.perDay}
                onChange={(v) => set('perDay', v)}
                error={errors.perDay}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Title order={2} size="h3">
              Allow lists
            </Title>
            <Text size="sm" c="gray.7">
              Your own addresses and numbers (tests, staff): the checks of their e-mail domain or phone number
              pass them, and they are never counted as duplicates.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Textarea
                label="Allowed e-mail domains (one per line)"
                placeholder="ourcompany.com"
                value={draft.emailDomains}
                onChange={(e) => set('emailDomains', e.currentTarget.value)}
                error={errors.emailDomains}
                autosize
                minRows={4}
                maxRows={12}
                spellCheck={false}
              />
              <Textarea
                label="Allowed phone numbers (one per line)"
                placeholder="(212) 555-0187"
                value={draft.phones}
                onChange={(e) => set('phones', e.currentTarget.value)}
                error={errors.phones}
                autosize
                minRows={4}
                maxRows={12}
                spellCheck={false}
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            Save quality settings
          </Button>
          <Button
            variant="default"
            disabled={!isDirty}
            onClick={() => {
              setDraft(draftOf(saved));
              setErrors({});
            }}
          >
            Discard changes
          </Button>
          {isDirty && (
            <Text size="sm" c="gray.7">
              Unsaved changes
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
