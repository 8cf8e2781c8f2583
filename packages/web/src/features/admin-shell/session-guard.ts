import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { signInPath } from '@uf/shared/admin-paths';
import { ERROR_CODES } from '@uf/shared/errors';
import { appErrorOf } from '../../api-error';

/**
 * The one place that sends an admin tab to the sign-in page when the server answers 401 (issue 37): a
 * session ended by Logout in another tab, Sessions → End elsewhere, or its lifetime. Every query and
 * mutation of the admin area reports here, so every control behaves alike. It empties the cache first:
 * the sign-in page used to find the cached "signed in" answer, send the tab back to the dashboard, which
 * found its cached 401 and sent it to the sign-in page again — hundreds of times a second after Refresh.
 * It leaves once, however many calls fail meanwhile; the notice is shown only when this tab had been
 * signed in (a bookmark opened while signed out just goes to the sign-in page).
 */
export function sessionGuard(router: AnyRouter) {
  let leaving = false;
  return (err: unknown, queryClient: QueryClient) => {
    if (appErrorOf(err)?.error !== ERROR_CODES.unauthorized) return;
    const path = router.state.location.pathname;
    // The sign-in page's own 401s (a wrong password, the "am I signed in?" check) are its business.
    // (A literal path: the page list would pull the landing page's chunk into this one, ADR 053.)
    if (leaving || path === '/admin/login') return;
    leaving = true;
    const wasSignedIn = queryClient
      .getQueryCache()
      .findAll({ queryKey: [['adminAuth', 'me']] })
      .some((q) => q.state.data !== undefined);
    queryClient.clear();
    void router.navigate({ href: signInPath(path, wasSignedIn), replace: true }).finally(() => {
      leaving = false;
    });
  };
}
