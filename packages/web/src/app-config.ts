import { DEFAULT_SUPPORT_EMAIL, DEFAULT_TIME_ZONE } from '@uf/shared/constants';
import type { ArmContent } from '@uf/shared/experiments';
import { PAGE_DATE_TOKENS, type PageDates, pageDates } from '@uf/shared/page-dates';

// Runtime configuration the server writes into index.html (<meta name="app-config">), so one build
// serves every deployment. In the Vite dev server the tag is absent and defaults apply.

export type AppConfig = {
  supportEmail: string;
  /** Ad pixel script (AD_PIXEL_SCRIPT_URL); null: no third-party script is loaded. */
  adPixelScriptUrl: string | null;
  /** TRUSTEDFORM_ENABLED: load the TrustedForm script on the lead form (nothing third-party otherwise). */
  trustedFormEnabled: boolean;
  /** TIME_ZONE: the business clock every admin date and time is shown and read in (issue 26). */
  timeZone: string;
  /** Today and this year as the pages show them, filled in by the server per request (ADR 053). */
  dates: PageDates;
  /**
   * The landing experiment arm's copy this document was served with (issue 48, ADR 075): the server
   * rendered the page with it, so hydration renders the same text (no flicker). Absent: the page as built.
   */
  landingCopy?: ArmContent;
};

function readConfig(): AppConfig {
  const fallback = {
    supportEmail: DEFAULT_SUPPORT_EMAIL,
    adPixelScriptUrl: null,
    trustedFormEnabled: false,
    timeZone: DEFAULT_TIME_ZONE,
  };
  // The build-time render (entry-server.tsx): the dates are left as tokens for the server to fill in.
  if (typeof document === 'undefined') return { ...fallback, dates: PAGE_DATE_TOKENS };
  let written: Partial<AppConfig> = {};
  try {
    written = JSON.parse(document.querySelector('meta[name="app-config"]')?.getAttribute('content') ?? '{}');
  } catch {
    // a tag that is not JSON: the defaults
  }
  // Only when the server wrote no dates (the Vite dev server): formatting in a time zone makes the browser
  // load its zone data first, a task of 50–100 ms on a slow phone at every page's load (ADR 068).
  return { ...fallback, ...written, dates: written.dates ?? pageDates(new Date()) };
}

let config = readConfig();

/** This deployment's configuration, read once from the page. */
export function appConfig(): AppConfig {
  return config;
}

/**
 * The server's render of the landing page in an arm (entry-server.tsx): `render` sees `extra` in the
 * config. renderToString is synchronous, so no other render runs while the config is changed.
 */
export function renderingWith<T>(extra: Partial<AppConfig>, render: () => T): T {
  const before = config;
  config = { ...config, ...extra };
  try {
    return render();
  } finally {
    config = before;
  }
}

/** The same, for components (it never changes while the page lives). */
export function useAppConfig(): AppConfig {
  return appConfig();
}
