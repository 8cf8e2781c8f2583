import {
  Alert,
  Button,
  Center,
  Container,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { type LoginInput, loginSchema } from '@uf/shared/admin.schema';
import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import { isLeadPagePath, SESSION_ENDED_SEARCH } from '@uf/shared/admin-paths';
import { ERROR_CODES } from '@uf/shared/errors';
import { LOGIN_MESSAGES } from '@uf/shared/messages';
import { useEffect, useRef, useState } from 'react';
import { focusFirstInvalid } from '../../focus-invalid';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';

/**
 * A pasted lead link opened while signed out comes back to that lead after sign-in (issue 26): `next`,
 * only when it is a lead's page (never an open redirect); otherwise the spec's /admin/leads. Read from the
 * address when going in (the router's useSearch/useLocation here would put a chunk on the landing page's
 * budget, ADR 060).
 */
function nextLeadPage(): string | null {
  const next = new URLSearchParams(window.location.search).get('next');
  return next !== null && isLeadPagePath(next) ? next : null;
}

/** Sent here by the session guard because this tab's session ended (issue 37). */
function sessionEnded(): boolean {
  const { key, value } = SESSION_ENDED_SEARCH;
  return new URLSearchParams(window.location.search).get(key) === value;
}

/** Spec §2 /admin/login: username and password, 'Sign In' / 'Signing in...', then /admin/leads. */
export function AdminLoginPage() {
  usePageMeta({ title: 'Admin Sign In', description: 'Sign in to the Unclaimed Funds Finder admin area.' });
  const navigate = useNavigate();
  const goIn = (replace: boolean) => {
    const next = nextLeadPage();
    return next ? navigate({ href: next, replace }) : navigate({ to: '/admin/leads', replace });
  };
  const utils = trpc.useUtils();
  // Someone already signed in goes straight to the dashboard (spec §7: never from cache).
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
  const login = trpc.adminAuth.login.useMutation();
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(loginSchema, { sync: true }),
  });

  useEffect(() => {
    if (!session.isSuccess) return;
    const next = nextLeadPage();
    void (next ? navigate({ href: next, replace: true }) : navigate({ to: '/admin/leads', replace: true }));
  }, [session.isSuccess, navigate]);

  // Issue 25: an account with two-factor on answers totp_required; then the form asks for the code.
  const [secondStep, setSecondStep] = useState<'totp' | 'recovery' | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  const formRef = useRef<HTMLFormElement>(null);
  const submit = form.onSubmit(
    async (values) => {
      const trimmed = code.trim();
      if (secondStep && !trimmed) {
        setCodeError(secondStep === 'totp' ? 'Enter the 6-digit code' : 'Enter a recovery code');
        return;
      }
      setCodeError(null);
      const second =
        secondStep === 'totp'
          ? { totp: trimmed }
          : secondStep === 'recovery'
            ? { recoveryCode: trimmed }
            : {};
      try {
        const signedIn = await login.mutateAsync({ ...values, ...second });
        // Whatever was cached belonged to no one (or to the previous admin).
        utils.invalidate();
        // A "Sign in failed" toast from a mistyped password must not follow the admin to the dashboard.
        notifySuccess(ADMIN_TOASTS.loginSuccess.title, ADMIN_TOASTS.loginSuccess.message);
        if ('twoFactorSetupRequired' in signedIn) await navigate({ to: '/admin/account' });
        else await goIn(false);
      } catch (err) {
        const app = appErrorOf(err);
        if (app?.error === ERROR_CODES.totpRequired) {
          setSecondStep('totp');
          return;
        }
        // What happened to the code, beside it (issue 37): a used recovery code, a wrong one, or a recovery
        // code typed where the 6-digit code goes (it used to read "Invalid username or password").
        if (secondStep && app?.error === ERROR_CODES.unauthorized) {
          setCode('');
          setCodeError(app.message);
          return;
        }
        if (secondStep && app?.error === ERROR_CODES.validation) {
          setCodeError(
            secondStep === 'totp'
              ? 'That is not a 6-digit code. For a recovery code, choose "Use a recovery code instead".'
              : app.message,
          );
          return;
        }
        // Too many attempts says when to try again; every other failure is the one spec message.
        const message =
          app?.error === ERROR_CODES.rateLimited ? app.message : LOGIN_MESSAGES.invalidCredentials;
        notifyError('Sign in failed', message);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  if (session.isPending || session.isSuccess) {
    return (
      <Center mih="60vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }

  return (
    <Container size={420} py={80}>
      <Title order={1} ta="center" mb="xs">
        Admin Sign In
      </Title>
      <Text c="gray.7" ta="center" mb="lg">
        Staff access to leads and analytics
      </Text>
      {sessionEnded() && (
        <Alert color="yellow" title="Your session ended" mb="md" role="status">
          You were signed out (from another tab or device, or after a long time). Sign in again to continue.
        </Alert>
      )}
      <Paper withBorder shadow="sm" p="xl">
        <form ref={formRef} noValidate onSubmit={submit} aria-label="Admin sign in">
          <Stack>
            <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            {secondStep && (
              <>
                <TextInput
                  label={secondStep === 'totp' ? 'Authentication code' : 'Recovery code'}
                  description={
                    secondStep === 'totp'
                      ? 'The 6-digit code from your authenticator app'
                      : 'One of the recovery codes you saved (each works once)'
                  }
                  autoComplete="one-time-code"
                  inputMode={secondStep === 'totp' ? 'numeric' : 'text'}
                  value={code}
                  error={codeError}
                  autoFocus
                  onChange={(e) => setCode(e.currentTarget.value)}
                />
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => {
                    setCode('');
                    setSecondStep(secondStep === 'totp' ? 'recovery' : 'totp');
                  }}
                >
                  {secondStep === 'totp' ? 'Use a recovery code instead' : 'Use the authenticator code'}
                </Button>
              </>
            )}
            <Button type="submit" fullWidth disabled={login.isPending}>
              {login.isPending ? 'Signing in...' : 'Sign In'}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
