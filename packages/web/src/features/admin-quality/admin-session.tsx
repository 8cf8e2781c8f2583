import { useNavigate } from '@tanstack/react-router';
import { ERROR_CODES } from '@uf/shared/errors';
import { useEffect, useRef } from 'react';
import { appErrorOf, trpc } from '../../trpc';

// The session handling of the screens beside the dashboard (quality, buyers, ad costs), as the leads
// dashboard does it (spec §7): the auth check is never answered from cache; a signed-out tab (or one whose
// session ended while the page was open) is sent to the sign-in page by the admin area's one session guard
// (features/admin-shell/session-guard.ts, issue 37), which keeps the way back; meanwhile the page shows
// nothing of the old data. An admin who must set up two-factor first goes to the account page (issue 25).

const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.unauthorized;
const mustEnrol = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.twoFactorSetupRequired;

export function useAdminSession() {
  return trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
}

/** Whether the page must show nothing (signed out: the guard is taking the tab away), and the enrolment. */
export function useLeaveWhenSignedOut(
  session: ReturnType<typeof useAdminSession>,
  errors: unknown[],
): { signedOut: boolean } {
  const navigate = useNavigate();
  const signedOut = (session.isError && !session.isFetching) || errors.some(isUnauthorized);
  const enrolFirst = errors.some(mustEnrol);
  const leaving = useRef(false);
  useEffect(() => {
    if (leaving.current || !enrolFirst) return;
    leaving.current = true;
    void navigate({ to: '/admin/account', replace: true });
  }, [enrolFirst, navigate]);
  return { signedOut: signedOut || enrolFirst };
}
