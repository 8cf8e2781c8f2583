import { DEFAULT_SUPPORT_EMAIL } from '@uf/shared/constants';

// Runtime configuration the server writes into index.html (<meta name="app-config">), so one build
// serves every deployment. In the Vite dev server the tag is absent and defaults apply.

export type AppConfig = {
  supportEmail: string;
  /** Ad pixel script (AD_PIXEL_SCRIPT_URL); null: no third-party script is loaded. */
  adPixelScriptUrl: string | null;
  /** TRUSTEDFORM_ENABLED: load the TrustedForm script on the lead form (nothing third-party otherwise). */
  trustedFormEnabled: boolean;
};

function readConfig(): AppConfig {
  const fallback: AppConfig = {
    supportEmail: DEFAULT_SUPPORT_EMAIL,
    adPixelScriptUrl: null,
    trustedFormEnabled: false,
  };
  const content =
    typeof document === 'undefined'
      ? null
      : document.querySelector('meta[name="app-config"]')?.getAttribute('content');
  if (!content) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(content) as Partial<AppConfig>) };
  } catch {
    return fallback;
  }
}

const config = readConfig();

export function useAppConfig(): AppConfig {
  return config;
}
