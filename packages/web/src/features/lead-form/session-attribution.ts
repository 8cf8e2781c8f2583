import { attributionFromLanding } from '@uf/shared/attribution';
import { SESSION_STORAGE_KEYS } from '@uf/shared/constants';

// Read at every document's load (page-load.ts), so the session's first page load keeps its campaign
// even when the visitor moves on before the app starts (ADR 053).

type Captured = Record<string, string>;
let unstoredAttribution: Captured | undefined;

/**
 * Where this browser session came from (issue 15): read from the landing URL and the document referrer
 * at the session's first page load, then kept in session storage beside the session id, so every event
 * and the lead submission carry the same values however the visitor moves on.
 */
export function sessionAttribution(): Captured {
  try {
    const stored = sessionStorage.getItem(SESSION_STORAGE_KEYS.attribution);
    // The server keeps only usable values (cleanAttribution), so what is stored is sent as it is.
    if (stored !== null) return JSON.parse(stored) as Captured;
    const captured = attributionFromLanding(location.search, document.referrer, location.host);
    sessionStorage.setItem(SESSION_STORAGE_KEYS.attribution, JSON.stringify(captured));
    return captured;
  } catch {
    // storage disabled (or a value that is not JSON): keep what this page load saw
    unstoredAttribution ??= attributionFromLanding(location.search, document.referrer, location.host);
    return unstoredAttribution;
  }
}

/**
 * The analytics session id (spec §3) as the lead submission sends it (issue 26): the server counts the
 * lead in the funnel of that session's visit. None yet (no event sent, or storage disabled): none sent.
 */
export function storedSessionId(): string | undefined {
  try {
    return sessionStorage.getItem(SESSION_STORAGE_KEYS.analyticsSessionId) ?? undefined;
  } catch {
    return undefined;
  }
}
