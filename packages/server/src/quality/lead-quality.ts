import { type QualitySettings, REASON_CODES, type ReasonCode } from '@uf/shared/quality';
import type { QualityEvidence } from '@uf/shared/quality-evidence.schema';
import { dropReason } from '../analytics/bot-filter';
import type { TokenCheck } from './form-token';
import { checkLeadFields, isEmailAllowed, isPhoneAllowed, type LeadFields } from './lead-checks';

// What the app decides about a lead before it joins a batch (issue 33, ADR 065): the field checks and the
// bot checks, the keys its look-ups and locks need, and the signals behind it all. What needs the other
// leads (duplicates, the address's pace, a token already used) is added by the batch's statement.

export type Assessment = {
  /** Reason codes found here, in REASON_CODES order. */
  codes: ReasonCode[];
  phoneE164: string | null;
  emailKey: string | null;
  /** The nonce of a genuine form token (one lead per token). */
  tokenNonce: string | null;
  /** The keys the duplicate look-ups use: none for a phone or e-mail domain on the allow lists. */
  lookKeys: { phone: string | null; email: string | null };
  /** Advisory-lock names of the look-ups' keys: leads that share one never go in one batch. */
  lockNames: string[];
  signals: Record<string, unknown>;
};

const inOrder = (codes: Set<ReasonCode>) => REASON_CODES.filter((code) => codes.has(code));

/** The duplicate look-ups' keys: an allowed phone or e-mail domain (the operator's own tests) is not one. */
function lookKeysOf(
  keys: { phoneE164: string | null; emailKey: string | null },
  email: string | null | undefined,
  allow: QualitySettings['allow'],
) {
  return {
    phone: isPhoneAllowed(keys.phoneE164, allow) ? null : keys.phoneE164,
    email: isEmailAllowed(email, allow) ? null : keys.emailKey,
  };
}

/** The keys two leads must not be checked against each other in one statement with. */
function lockNamesOf(keys: { phoneE164: string | null; emailKey: string | null; tokenNonce: string | null }) {
  const names: string[] = [];
  if (keys.phoneE164) names.push(`quality:phone:${keys.phoneE164}`);
  if (keys.emailKey) names.push(`quality:email:${keys.emailKey}`);
  if (keys.tokenNonce) names.push(`quality:token:${keys.tokenNonce}`);
  return names.sort();
}

/** A website lead, whichever door it came through (the JSON API, the site's form call, POST /). */
export function assessWebsiteLead(
  lead: LeadFields,
  evidence: QualityEvidence,
  context: {
    token: TokenCheck;
    userAgent: string | null;
    secChUa?: string | undefined;
    settings: QualitySettings;
  },
): Assessment {
  const fields = checkLeadFields(lead, context.settings.allow);
  const codes = new Set<ReasonCode>(fields.codes);
  const { token } = context;
  if (token.state === 'missing' || token.state === 'forged') codes.add('BOT_NO_TOKEN');
  if (token.state === 'expired') codes.add('BOT_TOKEN_EXPIRED');
  if (token.state === 'ok' && (token.ageSeconds ?? 0) < context.settings.minSecondsToSubmit) {
    codes.add('BOT_TOO_FAST');
  }
  const honeypot = (evidence.referenceCode ?? '').trim() !== '';
  if (honeypot) codes.add('BOT_HONEYPOT');
  const uaReason = dropReason({ userAgent: context.userAgent ?? undefined, secChUa: context.secChUa });
  if (uaReason) codes.add('BOT_UA');
  if (evidence.automation) codes.add('BOT_AUTOMATION');
  const keys = { phoneE164: fields.phoneE164, emailKey: fields.emailKey, tokenNonce: token.nonce };
  const lookKeys = lookKeysOf(keys, lead.email, context.settings.allow);
  return {
    codes: inOrder(codes),
    ...keys,
    lookKeys,
    lockNames: lockNamesOf({ phoneE164: lookKeys.phone, emailKey: lookKeys.email, tokenNonce: token.nonce }),
    signals: {
      token: token.state,
      secondsToSubmit: token.ageSeconds,
      honeypot,
      automation: evidence.automation,
      userAgent: uaReason ?? 'browser',
      ...(fields.emailSuggestion ? { emailSuggestion: fields.emailSuggestion } : {}),
    },
  };
}

/** A partner's lead: the checks its fields allow (no e-mail, no ZIP, no form token). */
export function assessPartnerLead(
  lead: Omit<LeadFields, 'email' | 'zipCode'> & { trustedFormUrl?: string | null },
  settings: QualitySettings,
): Assessment {
  const fields = checkLeadFields({ ...lead, email: null, zipCode: null }, settings.allow);
  const codes = new Set<ReasonCode>(fields.codes);
  // Consent evidence of a partner lead is its TrustedForm certificate: without one it is never sold.
  const consentEvidence = Boolean(lead.trustedFormUrl);
  if (!consentEvidence) codes.add('CONSENT_MISSING');
  const keys = { phoneE164: fields.phoneE164, emailKey: null, tokenNonce: null };
  const lookKeys = lookKeysOf(keys, null, settings.allow);
  return {
    codes: inOrder(codes),
    ...keys,
    lookKeys,
    lockNames: lockNamesOf({ phoneE164: lookKeys.phone, emailKey: null, tokenNonce: null }),
    signals: { consentEvidence: consentEvidence ? 'trustedform' : 'none' },
  };
}
