import type { Pool } from 'pg';
import { appSecret } from '../platform/app-secret';
import { createFormTokens, type FormTokens, type TokenArm } from './form-token';
import { createQualitySettings } from './quality-settings.service';

// The long-lived part of lead quality (issue 33): the settings in force and the form tokens' key, on the
// clock the app runs by (tests move it instead of waiting on the page).

export function createQuality(pool: Pool, clock: () => Date) {
  let tokens: Promise<FormTokens> | undefined;
  const formTokens = (): Promise<FormTokens> => {
    if (!tokens) {
      const loading = appSecret(pool, 'form_token_secret').then(createFormTokens);
      tokens = loading;
      loading.catch(() => {
        if (tokens === loading) tokens = undefined;
      });
    }
    return tokens;
  };
  return {
    clock,
    settings: createQualitySettings(pool),
    formTokens,
    /** A new form token for a page being served now (in a landing experiment's arm, issue 48). */
    async issueToken(arm?: TokenArm | null): Promise<string> {
      return (await formTokens()).issue(clock(), arm);
    },
  };
}

export type Quality = ReturnType<typeof createQuality>;
