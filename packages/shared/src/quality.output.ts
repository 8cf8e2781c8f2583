import { z } from 'zod';
import { count, dateTime, nullableText, text } from './output-fields';
import { REASON_CODES, VERDICTS } from './quality';

// What the lead-quality operations answer (issue 33): the `quality` object of every admin lead, the
// signals of one lead, the settings.

const verdict = () => z.enum(VERDICTS).meta({ description: 'accept, hold or reject' });

export const qualitySchema = z
  .object({
    verdict: verdict(),
    reasons: z.array(z.string()).meta({ description: `Reason codes: ${REASON_CODES.join(', ')}` }),
    decidedBy: text("'rules' at submit, else the user name of the admin who released or rejected it"),
    decidedAt: dateTime('When the verdict was decided, ISO 8601 UTC').nullable(),
    rulesVersion: count('The quality settings version in force at submit (0: before lead quality)'),
  })
  .meta({ id: 'LeadQuality' });

export const qualitySignalsSchema = z.record(z.string(), z.unknown()).nullable().meta({
  description:
    'The raw signals behind the reasons: secondsToSubmit, token (ok, missing, forged, expired, reused), honeypot, userAgent class, automation, duplicatePhoneIds, duplicateEmailIds, ipLast10Minutes, ipLast24Hours, emailSuggestion…',
});

export const verdictAnswerSchema = z.object({
  id: z.string(),
  quality: qualitySchema,
  delivered: z.boolean(),
});
export const bulkVerdictAnswerSchema = z.object({ updated: count(), delivered: count() });

export const qualitySettingsSchema = z
  .object({
    actions: z.record(z.string(), verdict()),
    duplicateWindowDays: count(),
    velocity: z.object({ per10Minutes: count(), perDay: count() }),
    minSecondsToSubmit: count(),
    allow: z.object({ emailDomains: z.array(z.string()), phones: z.array(z.string()) }),
    version: count('Bumped by every change; stored with each lead as its rulesVersion'),
    updatedBy: nullableText(),
    updatedAt: dateTime().nullable(),
    reasons: z
      .array(z.object({ code: z.string(), action: verdict(), label: z.string() }))
      .meta({ description: 'Every reason code with its default action and what it means' }),
  })
  .meta({ id: 'QualitySettings' });

/** POST /api/partner/leads answers the lead's id and its quality verdict with the reason codes. */
export const partnerLeadAnswerSchema = z.object({
  id: z.string().meta({ format: 'uuid' }),
  verdict: verdict().optional(),
  reasons: z.array(z.string()).optional(),
});

/** GET /api/form-token: a form token for a page that came without one. */
export const formTokenOutputSchema = z.object({
  formToken: text('Send it back as `formToken` with the lead, at least a few seconds later'),
});
