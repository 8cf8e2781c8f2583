import * as z from 'zod/mini';
import { AUTOMATION_FIELD, FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './quality-fields';

// What the landing page sends for the lead-quality checks (issue 33): the page's form token, the honeypot
// field and whether the browser says it is automated. Never a reason to refuse a submission (the visitor's
// flow never changes, and a bot learns nothing): anything unusable is read as absent.

const MAX = 500;
const textOrAbsent = z.pipe(
  z.optional(z.unknown()),
  z.transform((raw: unknown) => (typeof raw === 'string' && raw.length <= MAX ? raw : undefined)),
);

export const qualityEvidenceShape = {
  [FORM_TOKEN_FIELD]: textOrAbsent,
  [HONEYPOT_FIELD]: z.pipe(
    z.optional(z.unknown()),
    // Filled at all is what counts: a long value is still filled.
    z.transform((raw: unknown) => (typeof raw === 'string' ? raw.slice(0, MAX) : undefined)),
  ),
  [AUTOMATION_FIELD]: z.pipe(
    z.optional(z.unknown()),
    z.transform((raw: unknown) => raw === true || raw === 'true'),
  ),
} as const;

export type QualityEvidence = { formToken?: string; referenceCode?: string; automation: boolean };

export function withQualityEvidence<T extends z.ZodMiniObject>(schema: T) {
  return z.extend(schema, qualityEvidenceShape);
}
