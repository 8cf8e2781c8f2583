import {
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
import { ERROR_CODES } from '@uf/shared/errors';
import { LOGIN_MESSAGES } from '@uf/shared/messages';
import { useEffect, useRef } from 'react';
import { focusFirstInvalid } from '../../focus-invalid';
import { clearNotifications, notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';

/** Spec §2 /admin/login: username and password, 'Sign In' / 'Signing in...', then /admin/leads. */
export function AdminLoginPage() {
  usePageMeta({ title: 'Admin Sign In', description: 'Sign in to the Unclaimed Funds Finder admin area.' });
  const navigate = useNavigate();
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
    if (session.isSuccess) void navigate({ to: '/admin/leads', replace: true });
  }, [session.isSuccess, navigate]);

  const formRef = useRef<HTMLFormElement>(null);
  const submit = form.onSubmit(
    async (values) => {
      try {
        await login.mutateAsync(values);
        // Whatever was cached belonged to no one (or to the previous admin).
        utils.invalidate();
        // A "Sign in failed" toast from a mistyped password must not follow the admin to the dashboard.
        clearNotifications();
        notifySuccess(ADMIN_TOASTS.loginSuccess.title, ADMIN_TOASTS.loginSuccess.message);
        await navigate({ to: '/admin/leads' });
      } catch (err) {
        const app = appErrorOf(err);
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
      <Paper withBorder shadow="sm" p="xl">
        <form ref={formRef} noValidate onSubmit={submit} aria-label="Admin sign in">
          <Stack>
            <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            <Button type="submit" fullWidth disabled={login.isPending}>
              {login.isPending ? 'Signing in...' : 'Sign In'}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
