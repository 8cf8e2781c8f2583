import { DEFAULT_SUPPORT_EMAIL, DEFAULT_TIME_ZONE } from '@uf/shared/constants';
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
};

function readConfig(): AppConfig {
  const fallback: AppConfig = {
    supportEmail: DEFAULT_SUPPORT_EMAIL,
    adPixelScriptUrl: null,
    trustedFormEnabled: false,
    timeZone: DEFAULT_TIME_ZONE,
    dates: pageDates(new Date()),
  };
  // The build-time render (entry-server.tsx): the dates are left as tokens for the server to fill in.
  if (typeof document === 'undefined') return { ...fallback, dates: PAGE_DATE_TOKENS };
  const content = document.querySelector('meta[name="app-config"]')?.getAttribute('content');
  if (!content) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(content) as Partial<AppConfig>) };
  } catch {
    return fallback;
  }
}

const config = readConfig();

/** This deployment's configuration, read once from the page. */
export function appConfig(): AppConfig {
  return config;
}

/** The same, for components (it never changes while the page lives). */
export function useAppConfig(): AppConfig {
  return appConfig();
}
