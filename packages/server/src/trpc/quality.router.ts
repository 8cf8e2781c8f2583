import { QUALITY_REASONS, REASON_CODES } from '@uf/shared/quality';
import {
  bulkVerdictAnswerSchema,
  qualitySettingsSchema,
  verdictAnswerSchema,
} from '@uf/shared/quality.output';
import {
  bulkVerdictInputSchema,
  qualitySettingsInputSchema,
  verdictInputSchema,
} from '@uf/shared/quality.schema';
import type { LeadTable } from '../leads/admin-lead-tables';
import { ref } from '../openapi/json-schema';
import type { OperationDoc } from '../openapi/openapi-operations';
import { setVerdict, setVerdicts } from '../quality/quality-review.service';
import { settingsAnswer } from '../quality/quality-settings.service';
import type { Context } from './context';
import { clientIp } from './request-meta';
import { adminProcedure, restAt, router } from './trpc';

// Lead quality (issue 33, ADR 065): the admin's verdicts and the settings, one service call each, with
// the words the OpenAPI document shows for them.

type AdminContext = Context & { admin: { username: string } };
const actorOf = (ctx: AdminContext) => ({ username: ctx.admin.username, ipAddress: clientIp(ctx.req) });

/** Release or reject one lead, and many at once (the review queue), in a lead table under `base`. */
export function verdictProcedures(table: LeadTable, base: string) {
  return {
    setVerdict: adminProcedure
      .meta(restAt('POST', `${base}/:id/verdict`))
      .input(verdictInputSchema)
      .output(verdictAnswerSchema)
      .mutation(({ ctx, input }) => setVerdict(ctx.services.db.pool, table, input, actorOf(ctx))),
    bulkSetVerdict: adminProcedure
      .meta(restAt('POST', `${base}/verdicts`))
      .input(bulkVerdictInputSchema)
      .output(bulkVerdictAnswerSchema)
      .mutation(({ ctx, input }) => setVerdicts(ctx.services.db.pool, table, input, actorOf(ctx))),
  };
}

export function createQualityRouter() {
  return router({
    getSettings: adminProcedure
      .meta(restAt('GET', '/api/admin/quality/settings'))
      .output(qualitySettingsSchema)
      .query(async ({ ctx }) => settingsAnswer(await ctx.services.quality.settings.current())),
    updateSettings: adminProcedure
      .meta(restAt('PUT', '/api/admin/quality/settings'))
      .input(qualitySettingsInputSchema)
      .output(qualitySettingsSchema)
      .mutation(async ({ ctx, input }) =>
        settingsAnswer(await ctx.services.quality.settings.save(input, actorOf(ctx))),
      ),
  });
}

const json = (description: string, schema?: OperationDoc['responses'][string]['schema']) => ({
  description,
  schema,
});

const REASON_WORDS = REASON_CODES.map(
  (c) => `\`${c}\` (${QUALITY_REASONS[c].action}): ${QUALITY_REASONS[c].label}`,
).join('; ');

function verdictDoc(what: string): OperationDoc {
  return {
    tag: 'Admin',
    summary: `Release or reject one ${what}`,
    description: `\`accept\` releases a held or rejected ${what}: it is delivered at once (webhooks), unless it was accepted before or has opted out. \`reject\` keeps it from ever being sent. The verdict's decidedBy becomes your user name. Recorded in the audit log with the note.`,
    input: { example: { verdict: 'accept', note: 'Called the number: a real person' } },
    responses: {
      '200': json('The new quality, and whether the lead was delivered now'),
      '400': json('verdict is not accept or reject, or the id is not a UUID', ref('Error')),
      '404': json(`No such ${what}`, ref('Error')),
    },
  };
}

function bulkVerdictDoc(what: string): OperationDoc {
  return {
    tag: 'Admin',
    summary: `Release or reject many ${what}s (the review queue)`,
    description: `As the single verdict, for up to 1,000 ids; ids that do not exist are ignored.`,
    input: { example: { ids: ['7b1c7d1e-4a1f-4b55-9a51-1c7f0f4b8d10'], verdict: 'reject' } },
    responses: {
      '200': json('How many were changed and how many delivered now'),
      '400': json('Bad input (the field is named)', ref('Error')),
    },
  };
}

/** The OpenAPI words of the quality procedures (spread into the document's table). */
export const QUALITY_OPERATION_DOCS: Record<string, OperationDoc> = {
  'lead.formToken': {
    tag: 'Public',
    summary: 'A form token for the lead form',
    description:
      'Every page the server serves carries a signed, single-use form token in the hidden field `formToken`; send it back with the lead (`POST /api/submit-search`, or the form itself). This call gives one to a page that has none. A lead without a genuine token, with one older than 2 hours, one another lead already used, or sent sooner than a person could fill the form in is still accepted as a submission — its quality verdict records why.',
    responses: { '200': json('A new token') },
  },
  'admin.leads.setVerdict': verdictDoc('website lead'),
  'admin.leads.bulkSetVerdict': bulkVerdictDoc('website lead'),
  'admin.apiLeads.setVerdict': verdictDoc('API lead'),
  'admin.apiLeads.bulkSetVerdict': bulkVerdictDoc('API lead'),
  'admin.quality.getSettings': {
    tag: 'Admin',
    summary: 'The lead-quality settings',
    description: `What each reason code does (accept, hold or reject), the duplicate window, the velocity limits, the minimum seconds from page to submit and the allow lists, with the version stored on each lead. The codes and their default actions: ${REASON_WORDS}.`,
    responses: { '200': json('The settings in force') },
  },
  'admin.quality.updateSettings': {
    tag: 'Admin',
    summary: 'Change the lead-quality settings',
    description:
      'The whole object; `actions` may name only the codes to change (the others keep their default). Every change bumps the version and is recorded in the audit log. Applies to leads submitted from now on.',
    input: {
      example: {
        actions: { EMAIL_RESERVED: 'reject', VELOCITY_IP: 'accept' },
        duplicateWindowDays: 30,
        velocity: { per10Minutes: 3, perDay: 10 },
        minSecondsToSubmit: 3,
        allow: { emailDomains: ['ourcompany.com'], phones: ['(212) 555-0187'] },
      },
    },
    responses: {
      '200': json('The settings now in force'),
      '400': json('A bad value: `fieldErrors` names the field', ref('Error')),
    },
  },
};
