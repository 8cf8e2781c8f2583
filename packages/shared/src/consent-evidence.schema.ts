import * as z from 'zod/mini';
import type { Attribution } from './attribution';
import { attributionField } from './attribution.schema';
import { isSafeText } from './text-safety';

// What the landing page sends beside the form values so the server can write a complete consent
// receipt (ADR 030). zod/mini: the landing bundle ships it.

/** The hidden input the TrustedForm script adds to each form on the page. */
export const TRUSTEDFORM_FIELD = 'xxTrustedFormCertUrl';
/** Certificates live on one host; anything else is not a TrustedForm certificate. */
export const TRUSTEDFORM_CERT_PATTERN = /^https:\/\/cert\.trustedform\.com\/[A-Za-z0-9]{20,128}$/;
export const PAGE_URL_MAX = 2048;

export const EVIDENCE_MESSAGES = {
  pageUrlInvalid: 'Page URL must be an http or https address',
  pageUrlTooLong: `Page URL must be at most ${PAGE_URL_MAX} characters`,
  trustedFormUrlInvalid: 'TrustedForm certificate URL must look like https://cert.trustedform.com/<id>',
} as const;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Fields added to the lead submission. Both optional: an old client or a blocked script still submits. */
export const consentEvidenceShape = {
  pageUrl: z.optional(
    z.string({ error: EVIDENCE_MESSAGES.pageUrlInvalid }).check(
      z.maxLength(PAGE_URL_MAX, EVIDENCE_MESSAGES.pageUrlTooLong),
      z.refine((v) => v === '' || isHttpUrl(v), EVIDENCE_MESSAGES.pageUrlInvalid),
    ),
  ),
  // Empty when the script was blocked or had not finished: that is "no certificate", not an error.
  trustedFormUrl: z.optional(
    z
      .string({ error: EVIDENCE_MESSAGES.trustedFormUrlInvalid })
      .check(
        z.refine(
          (v) => v === '' || TRUSTEDFORM_CERT_PATTERN.test(v),
          EVIDENCE_MESSAGES.trustedFormUrlInvalid,
        ),
      ),
  ),
  // Where the visit came from (issue 15): stored on the lead for reports and on the receipt as evidence
  // of which ad obtained the consent. Never refused: unusable values are dropped (attribution.ts).
  attribution: attributionField,
  // The browser's analytics session id (issue 26): the lead counts in the funnel of that session's
  // visit. Reporting only, never a reason to refuse: anything but a usable id is dropped.
  sessionId: z.pipe(
    z.optional(z.unknown()),
    z.transform((raw: unknown) =>
      typeof raw === 'string' && raw.trim() !== '' && raw.trim().length <= 100 && isSafeText(raw)
        ? raw.trim()
        : undefined,
    ),
  ),
};

export type ConsentEvidenceInput = {
  pageUrl?: string;
  trustedFormUrl?: string;
  attribution?: Attribution;
  sessionId?: string;
};

/** The lead submission as the server accepts it: the form's fields plus the evidence fields. */
export function withConsentEvidence<T extends z.ZodMiniObject>(schema: T) {
  return z.extend(schema, consentEvidenceShape);
}
