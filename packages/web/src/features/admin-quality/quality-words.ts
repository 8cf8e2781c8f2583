import { FORM_TOKEN_MAX_AGE_SECONDS, isReasonCode, QUALITY_REASONS, type Verdict } from '@uf/shared/quality';

// Lead quality in the admin's words (issue 33): the verdicts, the reason codes and the raw signals behind
// them, as the badges, the review queue and the lead's page say them. Pure: unit-tested beside.

export const VERDICT_WORDS: Record<Verdict, { badge: string; filter: string; color: string }> = {
  accept: { badge: 'Accept', filter: 'Accepted', color: 'green' },
  hold: { badge: 'Hold', filter: 'Held', color: 'yellow' },
  reject: { badge: 'Reject', filter: 'Rejected', color: 'red' },
};

/**
 * What Release and Reject do, in one set of words for the queue, the dialogs and the toasts (issue 49).
 * A released lead goes where an accepted one goes at submit (ADR 062, 069): it is offered to the active
 * buyers (the first to accept it buys it) and sent to the webhook endpoints — to whichever the operator
 * has, and not at all when the person opted out or it had been accepted before. A rejected lead goes
 * nowhere until someone releases it; one already sold or sent is not called back.
 */
export const REVIEW_WORDS = {
  intro:
    'Release offers a lead to your active buyers and sends it to your webhook endpoints, at once; Reject keeps it from both until someone releases it.',
  release: (subject: string, verb: 'is' | 'are') =>
    `${subject} ${verb} offered to your active buyers and sent to your webhook endpoints at once. A lead already sold or sent cannot be called back.`,
  reject: (subject: string, pronoun: 'it' | 'them') =>
    `${subject} will not be offered to your buyers or sent to your webhook endpoints. You can release ${pronoun} later; a lead already sold or sent is not called back.`,
  released: (name: string) => `${name} is on its way to your active buyers and webhook endpoints.`,
  notSentAgain: 'Not sent again: it had been sent before, or the person has opted out.',
  rejected: (name: string) => `${name} will not be offered to buyers or sent to webhook endpoints.`,
  releasedMany: (released: string, sent: number) =>
    `${released} released, ${sent.toLocaleString()} on the way to your active buyers and webhook endpoints`,
} as const;

/** A reason code in plain words (a code this version does not know is shown as it is). */
export function reasonWords(code: string): string {
  return isReasonCode(code) ? QUALITY_REASONS[code].label : code;
}

/** The reasons of a verdict in one line: what a badge's tooltip says. */
export function reasonsSentence(reasons: readonly string[]): string {
  return reasons.length === 0 ? 'No check found anything' : reasons.map(reasonWords).join('; ');
}

/** Who decided: the rules at submit, or an admin by name. */
export function deciderWords(decidedBy: string): string {
  return decidedBy === 'rules' ? 'The rules (at submit)' : decidedBy;
}

/** 2 → '2 s', 95 → '1 min 35 s', 7300 → '2 h 1 min'. */
export function durationWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${rest} s`;
  }
  const minutes = Math.floor((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
}

const TOKEN_WORDS: Record<string, string> = {
  ok: 'valid',
  missing: 'missing (the page with the form was never loaded)',
  forged: 'forged (not signed by this site)',
  expired: `expired (older than ${FORM_TOKEN_MAX_AGE_SECONDS / 3600} hours)`,
  reused: 'already used by another lead',
};

const USER_AGENT_WORDS: Record<string, string> = {
  browser: 'an ordinary browser',
  missing_user_agent: 'none sent (no user agent)',
  headless_browser: 'a headless browser',
  bot: 'a crawler or bot',
};

const CONSENT_WORDS: Record<string, string> = {
  trustedform: 'a TrustedForm certificate',
  none: 'none',
};

/**
 * One signal as the page shows it: a sentence, and the leads it points to (duplicates, the lead that
 * used the same form token), which the page links.
 */
export type SignalLine = { key: string; text: string; leadIds?: string[] };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const idsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );

/** The signals in a fixed, readable order; keys this version does not know come last, as they are. */
export function signalLines(signals: Record<string, unknown> | null | undefined): SignalLine[] {
  if (!signals) return [];
  const lines: SignalLine[] = [];
  const seen = new Set<string>();
  const take = (key: string) => {
    seen.add(key);
    return signals[key];
  };

  const seconds = take('secondsToSubmit');
  if (typeof seconds === 'number' && Number.isFinite(seconds)) {
    lines.push({
      key: 'secondsToSubmit',
      text: `Submitted ${durationWords(seconds)} after the page was served`,
    });
  }
  const token = take('token');
  if (typeof token === 'string') {
    lines.push({ key: 'token', text: `Form token: ${TOKEN_WORDS[token] ?? token}` });
  }
  const tokenUsedBy = idsOf(take('tokenUsedBy'));
  if (tokenUsedBy.length > 0) {
    lines.push({ key: 'tokenUsedBy', text: 'Same form token as lead', leadIds: tokenUsedBy });
  }
  const honeypot = take('honeypot');
  if (typeof honeypot === 'boolean') {
    lines.push({
      key: 'honeypot',
      text: honeypot ? 'Hidden field: filled in (people never see it)' : 'Hidden field: empty',
    });
  }
  const userAgent = take('userAgent');
  if (typeof userAgent === 'string') {
    lines.push({ key: 'userAgent', text: `Browser: ${USER_AGENT_WORDS[userAgent] ?? userAgent}` });
  }
  const automation = take('automation');
  if (typeof automation === 'boolean') {
    lines.push({
      key: 'automation',
      text: automation
        ? 'Automation: the browser said it is driven by automation (navigator.webdriver)'
        : 'Automation: not reported',
    });
  }
  const suggestion = take('emailSuggestion');
  if (typeof suggestion === 'string' && suggestion !== '') {
    lines.push({ key: 'emailSuggestion', text: `E-mail: did you mean ${suggestion}?` });
  }
  const samePhone = idsOf(take('duplicatePhoneIds'));
  if (samePhone.length > 0) {
    lines.push({ key: 'duplicatePhoneIds', text: 'Same phone as lead', leadIds: samePhone });
  }
  const sameMailbox = idsOf(take('duplicateEmailIds'));
  if (sameMailbox.length > 0) {
    lines.push({ key: 'duplicateEmailIds', text: 'Same mailbox as lead', leadIds: sameMailbox });
  }
  const last10 = take('ipLast10Minutes');
  if (typeof last10 === 'number') {
    lines.push({
      key: 'ipLast10Minutes',
      text: `${plural(last10, 'earlier lead', 'earlier leads')} from the same address in the last 10 minutes`,
    });
  }
  const last24 = take('ipLast24Hours');
  if (typeof last24 === 'number') {
    lines.push({
      key: 'ipLast24Hours',
      text: `${plural(last24, 'earlier lead', 'earlier leads')} from the same address in the last 24 hours`,
    });
  }
  const consent = take('consentEvidence');
  if (typeof consent === 'string') {
    lines.push({ key: 'consentEvidence', text: `Consent evidence: ${CONSENT_WORDS[consent] ?? consent}` });
  }

  for (const [key, value] of Object.entries(signals)) {
    if (seen.has(key) || value === null || value === undefined) continue;
    lines.push({ key, text: `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}` });
  }
  return lines;
}
