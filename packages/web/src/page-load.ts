import { appConfig } from './app-config';
import { loadAdPixel } from './features/lead-form/ad-pixel';
import { trackDocumentView } from './features/lead-form/analytics';
import { sessionAttribution } from './features/lead-form/session-attribution';

/**
 * What a page does once its document has loaded, whether or not the visitor ever starts the app (which
 * loads on the first interaction, ADR 053): the session's campaign is kept from its first page load
 * (issue 15), and on the landing page its view is counted (spec §3: page_view on load) and the configured
 * ad and consent tags load, so they see the whole visit.
 */
export function onDocumentLoad(pathname: string): void {
  sessionAttribution();
  if (pathname !== '/') return;
  const { adPixelScriptUrl, trustedFormEnabled } = appConfig();
  trackDocumentView('home');
  loadAdPixel(adPixelScriptUrl);
  if (trustedFormEnabled)
    void import('./features/lead-form/trusted-form').then((m) => m.loadTrustedForm(true));
}
