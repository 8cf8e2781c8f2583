import { Center, Group, Loader, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { ERROR_CODES } from '@uf/shared/errors';
import { useEffect, useRef } from 'react';
import { appErrorOf, trpc } from '../../trpc';

// The quality screens' session handling, as the leads dashboard does it (spec §7): the auth check is
// never answered from cache; signed out (or the session ended while the page was open) goes to the
// sign-in page; an admin who must set up two-factor first goes to the account page (issue 25).

const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.unauthorized;
const mustEnrol = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.twoFactorSetupRequired;

export function useAdminSession() {
  return trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
}

/** Leaves for the sign-in (or account) page when the session or any of the page's calls says so. */
export function useLeaveWhenSignedOut(
  session: ReturnType<typeof useAdminSession>,
  errors: unknown[],
): { signedOut: boolean } {
  const navigate = useNavigate();
  const signedOut = (session.isError && !session.isFetching) || errors.some(isUnauthorized);
  const enrolFirst = errors.some(mustEnrol);
  const leaving = useRef(false);
  useEffect(() => {
    if (leaving.current || !(signedOut || enrolFirst)) return;
    leaving.current = true;
    void navigate({ to: signedOut ? '/admin/login' : '/admin/account', replace: true });
  }, [signedOut, enrolFirst, navigate]);
  return { signedOut: signedOut || enrolFirst };
}

export function CheckingAuthentication() {
  return (
    <Center mih="60vh">
      <Group gap="sm">
        <Loader size="sm" />
        <Text>Checking authentication...</Text>
      </Group>
    </Center>
  );
}
