// Lead quality (issue 33, ADR 065): every lead gets a verdict from offline checks before anyone is sent
// it. The reason codes, their default actions and their words live here, once, for the server (the
// checks and the settings), the OpenAPI document and the admin screens.

export { AUTOMATION_FIELD, FORM_TOKEN_FIELD, HONEYPOT_FIELD, LEAD_FORM_ID } from './quality-fields';

export const VERDICTS = ['accept', 'hold', 'reject'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What an admin may decide on a held or rejected lead (release or reject). */
export const ADMIN_VERDICTS = ['accept', 'reject'] as const;
export type AdminVerdict = (typeof ADMIN_VERDICTS)[number];

type ReasonInfo = { action: Verdict; label: string };

/**
 * Every reason code with its default action and what it means in plain words. The codes are stable:
 * stored with each lead, filtered on, exported and set in the settings by name.
 */
export const QUALITY_REASONS = {
  PHONE_INVALID: { action: 'reject', label: 'The phone number is not a valid US number' },
  PHONE_NOT_PERSONAL: {
    action: 'reject',
    label: 'The phone number is toll-free, premium-rate or a personal-number service, not a person’s line',
  },
  PHONE_N11: { action: 'reject', label: 'The phone number’s exchange is an N11 service code (211…911)' },
  PHONE_FICTIONAL: {
    action: 'reject',
    label: 'The phone number is in a range reserved for fiction (555-01xx, 555-1212)',
  },
  PHONE_PATTERN: {
    action: 'hold',
    label: 'The phone number’s last seven digits are all equal or in sequence',
  },
  EMAIL_INVALID: { action: 'reject', label: 'The e-mail address is not valid' },
  EMAIL_DISPOSABLE: { action: 'reject', label: 'The e-mail address is at a disposable-mailbox provider' },
  EMAIL_RESERVED: { action: 'hold', label: 'The e-mail domain is reserved for examples and tests' },
  EMAIL_TYPO: { action: 'hold', label: 'The e-mail domain looks like a typo of a major provider' },
  ZIP_UNKNOWN: { action: 'hold', label: 'The ZIP code does not exist' },
  NAME_TEST: { action: 'reject', label: 'The name is a test or placeholder name' },
  NAME_PROFANE: { action: 'reject', label: 'The name contains profanity' },
  NAME_GIBBERISH: { action: 'hold', label: 'The name looks like keyboard mash' },
  DOB_INVALID: { action: 'hold', label: 'The birth date does not exist' },
  DUPLICATE_PHONE: { action: 'hold', label: 'Another lead had the same phone number recently' },
  DUPLICATE_EMAIL_ALIAS: {
    action: 'hold',
    label: 'Another lead had the same mailbox recently (dots, +tags or googlemail.com aside)',
  },
  VELOCITY_IP: { action: 'hold', label: 'Many leads came from the same address in a short time' },
  BOT_NO_TOKEN: { action: 'reject', label: 'The form token is missing or forged: the page was never loaded' },
  BOT_TOKEN_EXPIRED: { action: 'hold', label: 'The form token is older than 2 hours' },
  BOT_TOKEN_REUSED: { action: 'hold', label: 'The form token was already used by another lead' },
  BOT_TOO_FAST: { action: 'hold', label: 'The form was submitted faster than a person can fill it in' },
  BOT_HONEYPOT: { action: 'hold', label: 'A hidden field that people never see was filled in' },
  BOT_UA: { action: 'reject', label: 'The browser identified itself as a crawler, or not at all' },
  BOT_AUTOMATION: { action: 'hold', label: 'The browser reported that it is driven by automation' },
  CONSENT_MISSING: { action: 'reject', label: 'No consent evidence was stored with the lead' },
} as const satisfies Record<string, ReasonInfo>;

export type ReasonCode = keyof typeof QUALITY_REASONS;
export const REASON_CODES = Object.keys(QUALITY_REASONS) as ReasonCode[];

export function isReasonCode(value: string): value is ReasonCode {
  return Object.hasOwn(QUALITY_REASONS, value);
}

/** Who decided a verdict: the rules at submit, or the admin (their user name) who released or rejected it. */
export const RULES_DECIDER = 'rules';

export type QualitySettings = {
  actions: Record<ReasonCode, Verdict>;
  duplicateWindowDays: number;
  velocity: { per10Minutes: number; perDay: number };
  minSecondsToSubmit: number;
  allow: { emailDomains: string[]; phones: string[] };
};

export const DEFAULT_QUALITY_SETTINGS: QualitySettings = {
  actions: Object.fromEntries(REASON_CODES.map((code) => [code, QUALITY_REASONS[code].action])) as Record<
    ReasonCode,
    Verdict
  >,
  duplicateWindowDays: 30,
  velocity: { per10Minutes: 3, perDay: 10 },
  minSecondsToSubmit: 3,
  allow: { emailDomains: [], phones: [] },
};

/** A form token older than this is expired (BOT_TOKEN_EXPIRED). */
export const FORM_TOKEN_MAX_AGE_SECONDS = 2 * 60 * 60;
