import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Code,
  Container,
  Group,
  Image,
  Loader,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ChangePasswordInput, changePasswordSchema } from '@uf/shared/admin.schema';
import { type EmailSettingsInput, emailSettingsSchema } from '@uf/shared/email-reports.schema';
import { useEffect, useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';

// The signed-in admin's own account (issue 25): two-factor sign-in, password, sessions.

const messageOf = (err: unknown) => appErrorOf(err)?.message ?? 'Something went wrong. Please try again.';

/** otpauth:// URL → QR code image; the qrcode library loads here only, when an enrolment starts. */
function QrCode({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then((qr) =>
      qr.toDataURL(url, { margin: 1, width: 200 }).then((data) => live && setSrc(data)),
    );
    return () => {
      live = false;
    };
  }, [url]);
  return src ? (
    <Image src={src} alt="QR code for your authenticator app" w={200} h={200} />
  ) : (
    <Loader aria-label="Drawing the QR code" />
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="yellow" title="Save your recovery codes" role="status">
      <Text size="sm" mb="sm">
        Each code signs you in once if you lose your phone. They are shown only now: keep them somewhere safe.
      </Text>
      <SimpleGrid cols={2} spacing={4} mb="sm" aria-label="Recovery codes">
        {codes.map((c) => (
          <Code key={c}>{c}</Code>
        ))}
      </SimpleGrid>
      <Button size="xs" onClick={onDone}>
        I have saved these codes
      </Button>
    </Alert>
  );
}

function TwoFactorSection() {
  const utils = trpc.useUtils();
  const status = trpc.adminAccount.twoFactor.useQuery(undefined, { staleTime: 0 });
  const start = trpc.adminAccount.startTotp.useMutation();
  const confirm = trpc.adminAccount.confirmTotp.useMutation();
  const disable = trpc.adminAccount.disableTotp.useMutation();
  const regenerate = trpc.adminAccount.regenerateRecoveryCodes.useMutation();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);

  if (!status.data) return <Loader aria-label="Loading" />;
  const enrolment = start.data;

  const run = async (fn: () => Promise<unknown>, success: string) => {
    try {
      await fn();
      notifySuccess(success);
      setCode('');
      setPassword('');
      await utils.adminAccount.twoFactor.invalidate();
    } catch (err) {
      notifyError('Two-factor sign-in', messageOf(err));
    }
  };

  return (
    <Paper withBorder p="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">
            Two-factor sign-in
          </Title>
          {/* Light: the theme's dark text on a tint (the filled green was 3.44:1, issue 37). */}
          <Badge variant="light" color={status.data.enabled ? 'green' : 'gray'}>
            {status.data.enabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        {status.data.required && !status.data.enabled && (
          <Alert color="blue">This site requires two-factor sign-in: set it up to continue.</Alert>
        )}
        {shownCodes && <RecoveryCodes codes={shownCodes} onDone={() => setShownCodes(null)} />}
        {!status.data.enabled && !enrolment && (
          <Group>
            <Button onClick={() => start.mutate()} loading={start.isPending}>
              Set up two-factor sign-in
            </Button>
          </Group>
        )}
        {!status.data.enabled && enrolment && (
          <Stack>
            <Text size="sm">
              Scan the QR code with an authenticator app (or type the key), then enter the 6-digit code it
              shows.
            </Text>
            <QrCode url={enrolment.otpauthUrl} />
            <Text size="sm">
              Key: <Code data-testid="totp-secret">{enrolment.secret}</Code>
            </Text>
            <Group align="end">
              <TextInput
                label="Code from the app"
                autoComplete="one-time-code"
                inputMode="numeric"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <Button
                loading={confirm.isPending}
                onClick={() =>
                  void run(async () => {
                    const { recoveryCodes } = await confirm.mutateAsync({ code });
                    setShownCodes(recoveryCodes);
                    start.reset();
                  }, 'Two-factor sign-in is on')
                }
              >
                Confirm
              </Button>
            </Group>
          </Stack>
        )}
        {status.data.enabled && (
          <Stack>
            <Text size="sm">Recovery codes left: {status.data.recoveryCodesLeft}</Text>
            <Group align="end">
              <TextInput
                label="Current code"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password (to turn off)"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
            </Group>
            <Group>
              <Button
                variant="default"
                loading={regenerate.isPending}
                onClick={() =>
                  void run(async () => {
                    const { recoveryCodes } = await regenerate.mutateAsync({ code });
                    setShownCodes(recoveryCodes);
                  }, 'New recovery codes made')
                }
              >
                New recovery codes
              </Button>
              <Button
                color="red"
                variant="light"
                loading={disable.isPending}
                onClick={() =>
                  void run(() => disable.mutateAsync({ password, code }), 'Two-factor sign-in is off')
                }
              >
                Turn off two-factor
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function PasswordSection() {
  const change = trpc.adminAccount.changePassword.useMutation();
  const form = useForm<ChangePasswordInput>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '' },
    validate: schemaResolver(changePasswordSchema, { sync: true }),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const { endedSessions } = await change.mutateAsync(values);
      form.reset();
      notifySuccess(
        'Password changed',
        endedSessions ? `${endedSessions} other session(s) ended` : undefined,
      );
    } catch (err) {
      const app = appErrorOf(err);
      if (app?.fieldErrors)
        form.setErrors(Object.fromEntries(app.fieldErrors.map((f) => [f.field, f.message])));
      else notifyError('Password not changed', messageOf(err));
    }
  });
  return (
    <Paper withBorder p="lg">
      <form noValidate onSubmit={submit} aria-label="Change password">
        <Stack>
          <Title order={2} size="h3">
            Change password
          </Title>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label="New password"
            description="At least 12 characters. Your other sessions end."
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** E-mail reports and alerts (issue 24, ADR 063): the admin's address, the opt-ins, a test e-mail. */
function EmailSection() {
  const utils = trpc.useUtils();
  const current = trpc.adminAccount.emailSettings.useQuery(undefined, { staleTime: 0 });
  const save = trpc.adminAccount.updateEmailSettings.useMutation();
  const sendTest = trpc.adminAccount.sendTestEmail.useMutation();
  const form = useForm<EmailSettingsInput>({
    mode: 'controlled',
    initialValues: {
      email: '',
      dailySummary: false,
      weeklySummary: false,
      monthlySummary: false,
      alerts: false,
    },
    validate: schemaResolver(emailSettingsSchema, { sync: true }),
  });
  const loaded = current.data;
  // Filled from the first answer only: a refetch (window focus) must not overwrite what is being typed.
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (loaded && !filled) {
      const { configured: _configured, ...values } = loaded;
      form.setValues(values);
      form.resetDirty(values);
      setFilled(true);
    }
  }, [loaded, filled, form]);
  const fieldErrorsOf = (err: unknown) => {
    const app = appErrorOf(err);
    if (!app?.fieldErrors) return false;
    form.setErrors(Object.fromEntries(app.fieldErrors.map((f) => [f.field, f.message])));
    return true;
  };
  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      utils.adminAccount.emailSettings.setData(undefined, saved);
      notifySuccess('E-mail settings saved');
    } catch (err) {
      if (!fieldErrorsOf(err)) notifyError('E-mail settings not saved', messageOf(err));
    }
  });
  const test = async () => {
    try {
      const { to } = await sendTest.mutateAsync();
      notifySuccess('Test e-mail sent', `Sent to ${to}`);
    } catch (err) {
      fieldErrorsOf(err);
      notifyError('Test e-mail not sent', messageOf(err));
    }
  };
  const zone = businessClock().zone;
  // The form appears once it holds the saved settings: filled in later, it would overwrite what was
  // already typed into it.
  if (!filled) {
    return (
      <Paper withBorder p="lg">
        {current.error ? (
          <Text c="red.8">Failed to load the e-mail settings</Text>
        ) : (
          <Loader aria-label="Loading the e-mail settings" />
        )}
      </Paper>
    );
  }
  return (
    <Paper withBorder p="lg">
      <form noValidate onSubmit={submit} aria-label="E-mail reports and alerts">
        <Stack>
          <Title order={2} size="h3">
            E-mail reports and alerts
          </Title>
          {loaded && !loaded.configured && (
            <Alert color="gray" title="E-mail is not configured" role="status">
              This server has no mail server set (SMTP_URL): no report, alert or test e-mail can be sent. You
              can still save your choices.
            </Alert>
          )}
          <TextInput
            label="E-mail address"
            type="email"
            autoComplete="email"
            description="Where your reports and alerts go."
            {...form.getInputProps('email')}
          />
          <Checkbox
            label={`Daily summary (each day at 09:00 ${zone}, for the day before)`}
            {...form.getInputProps('dailySummary', { type: 'checkbox' })}
          />
          <Checkbox
            label={`Weekly summary (Mondays at 09:00 ${zone}, for the week before)`}
            {...form.getInputProps('weeklySummary', { type: 'checkbox' })}
          />
          <Checkbox
            label={`Monthly summary (on the 1st at 09:00 ${zone}, for the month before)`}
            {...form.getInputProps('monthlySummary', { type: 'checkbox' })}
          />
          <Checkbox
            label="Alerts (no lead for several business hours, a webhook endpoint disabled)"
            {...form.getInputProps('alerts', { type: 'checkbox' })}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save e-mail settings
            </Button>
            <Button
              variant="default"
              onClick={() => void test()}
              loading={sendTest.isPending}
              disabled={loaded ? !loaded.configured : false}
            >
              Send test e-mail
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function SessionsSection() {
  const utils = trpc.useUtils();
  const sessions = trpc.adminAccount.sessions.useQuery(undefined, { staleTime: 0 });
  const end = trpc.adminAccount.endSession.useMutation();
  const endOthers = trpc.adminAccount.endOtherSessions.useMutation();
  const navigate = useNavigate();
  const after = async (fn: () => Promise<unknown>, message: string, current = false) => {
    try {
      await fn();
      notifySuccess(message);
      if (current) await navigate({ to: '/admin/login' });
      else await utils.adminAccount.sessions.invalidate();
    } catch (err) {
      notifyError('Sessions', messageOf(err));
    }
  };
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">
            Sessions
          </Title>
          <Button
            variant="default"
            loading={endOthers.isPending}
            onClick={() => void after(() => endOthers.mutateAsync(), 'Other sessions ended')}
          >
            End all other sessions
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Sessions">
            <Table.Thead>
              <Table.Tr>
                {/* In the business zone, named, as every admin time (issue 37). */}
                <Table.Th>{businessClock().label('Signed in')}</Table.Th>
                <Table.Th>{businessClock().label('Last seen')}</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Browser</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(sessions.data ?? []).map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{businessClock().formatShort(s.createdAt)}</Table.Td>
                  <Table.Td>{businessClock().formatShort(s.lastSeenAt)}</Table.Td>
                  <Table.Td>{s.ip ?? '—'}</Table.Td>
                  {/* The browser by name; the user agent for whoever needs it, on hover. */}
                  <Table.Td title={s.userAgent ?? undefined}>{s.browser}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {s.current && <Badge>This session</Badge>}
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() =>
                          void after(() => end.mutateAsync({ id: s.id }), 'Session ended', s.current)
                        }
                      >
                        End
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}

export function AccountPage() {
  usePageMeta({
    title: 'Account',
    description: 'Two-factor sign-in, password, e-mail reports and sessions.',
  });
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
  const twoFactor = trpc.adminAccount.twoFactor.useQuery(undefined, { staleTime: 0 });
  // Signed out: the admin area's session guard takes the tab to the sign-in page (issue 37).
  if (!session.isSuccess || !twoFactor.data) {
    return (
      <Center mih="60vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  // ADMIN_REQUIRE_2FA and no two-factor yet: the enrolment is all there is.
  const enrolOnly = twoFactor.data.required && !twoFactor.data.enabled;
  return (
    <Container size="md" py="xl">
      <Stack>
        <Group justify="space-between">
          <Title order={1}>Account</Title>
          {!enrolOnly && (
            <Button component={Link} to="/admin/leads" variant="default">
              Back to Leads
            </Button>
          )}
        </Group>
        <Text c="gray.7">Signed in as {session.data.username}</Text>
        <TwoFactorSection />
        {!enrolOnly && <PasswordSection />}
        {!enrolOnly && <EmailSection />}
        {!enrolOnly && <SessionsSection />}
      </Stack>
    </Container>
  );
}
