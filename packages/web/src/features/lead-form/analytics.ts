import type { TrackEventInput } from '@uf/shared/analytics.schema';
import { type AnalyticsEventType, SESSION_STORAGE_KEYS } from '@uf/shared/constants';
import { ARM_PREVIEW_PARAM } from '@uf/shared/experiments';
import { sessionAttribution } from './session-attribution';

// Browser side of visitor analytics (spec §3, §4). Fire-and-forget: a failure only warns.

function randomId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

export function getAnalyticsSessionId(): string {
  try {
    const existing = sessionStorage.getItem(SESSION_STORAGE_KEYS.analyticsSessionId);
    if (existing) return existing;
    const id = randomId();
    sessionStorage.setItem(SESSION_STORAGE_KEYS.analyticsSessionId, id);
    return id;
  } catch {
    return randomId(); // storage disabled: still count the event, just without a stable session
  }
}

export function trackEvent(eventType: AnalyticsEventType, page: string, referrer?: string): void {
  // An admin's preview of an experiment's arm (`?arm=`, issue 48) is nobody's visit, as it is no exposure.
  if (new URLSearchParams(location.search).has(ARM_PREVIEW_PARAM)) return;
  const body: TrackEventInput = {
    eventType,
    page,
    referrer: referrer || document.referrer || 'direct',
    sessionId: getAnalyticsSessionId(),
    attribution: sessionAttribution(),
  };
  fetch('/api/analytics/track', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'include',
    keepalive: true,
  })
    .then((res) => {
      if (!res.ok) console.warn(`Analytics tracking failed: ${res.status}`);
    })
    .catch((err: unknown) => console.warn('Analytics tracking failed:', err));
}

/** The page whose view the document's load counted and the app has not shown yet. */
let viewCountedAtLoad: string | undefined;

/** page_view of the page the document loaded with, counted at its load, before the app starts (ADR 053). */
export function trackDocumentView(page: string): void {
  viewCountedAtLoad = page;
  trackEvent('page_view', page);
}

/** page_view when the app shows `page`: not again for the page whose view its document's load counted. */
export function trackPageView(page: string): void {
  if (viewCountedAtLoad === page) {
    viewCountedAtLoad = undefined;
    return;
  }
  trackEvent('page_view', page);
}

/** survey_started fires once per browser session, when the consent box is first checked. */
export function trackSurveyStartedOnce(page: string): void {
  try {
    if (sessionStorage.getItem(SESSION_STORAGE_KEYS.surveyStarted)) return;
    sessionStorage.setItem(SESSION_STORAGE_KEYS.surveyStarted, 'true');
  } catch {
    // without storage we cannot de-duplicate; count it once per page load instead
  }
  trackEvent('survey_started', page);
}
