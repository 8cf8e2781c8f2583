import { AD_ADJUSTMENT_EXPORTS, AD_CONVERSION_EXPORTS, type AdPlatform } from '@uf/shared/ad-conversions';
import { backupNameSchema } from '@uf/shared/admin.schema';
import { apiLeadRowsSchema, websiteLeadRowsSchema } from '@uf/shared/admin-leads.output';
import {
  adAdjustmentsQuerySchema,
  adConversionsQuerySchema,
  apiLeadFiltersSchema,
  apiLeadListSchema,
  websiteLeadFiltersSchema,
  websiteLeadListSchema,
} from '@uf/shared/admin-leads.schema';
import { TRUSTEDFORM_CERT_PATTERN } from '@uf/shared/consent-evidence.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import { aliveSchema, notAliveSchema, notReadySchema, readySchema } from '@uf/shared/health.output';
import { EMAIL_PATTERN, PHONE_PATTERN, ZIP_PATTERN } from '@uf/shared/lead.schema';
import type { $ZodType } from 'zod/v4/core';
import { AD_COST_OPERATION_DOCS } from '../trpc/ad-costs.router';
import { BUYER_OPERATION_DOCS } from '../trpc/buyers.router';
import { EXPERIMENT_OPERATION_DOCS } from '../trpc/experiments.router';
import { QUALITY_OPERATION_DOCS } from '../trpc/quality.router';
import { inputSchema, int, type JsonSchema, object, ref, str } from './json-schema';

// What the OpenAPI document says about each REST path (ADR 034). The paths come from the routes the app
// really registers, and a procedure's query, body and path parameters from its own input schema (issue
// 23: openapi-document.ts); this table adds the words, examples and the answers' schemas. The routes
// that are no procedures (streams, health checks, these documents) describe their input here, from the
// shared zod schemas they parse with, so the document cannot drift from them.

export type Tag = 'Public' | 'Admin' | 'Data requests' | 'Partner' | 'Operations';

export type ResponseDoc = {
  description: string;
  /**
   * What the answer is: never for a procedure's success (its `.output()` is), else a zod schema the
   * route answers with (converted as an output, its named parts published as components) or, for what
   * zod does not describe (files, text, errors), JSON Schema.
   */
  schema?: JsonSchema | $ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
};

export type OperationDoc = {
  tag: Tag;
  summary: string;
  description?: string;
  auth?: 'admin' | 'partner' | 'metrics';
  /**
   * Words about a procedure's input, whose schema is the procedure's own (its query for a GET, else its
   * JSON body, and its path parameters): never written here.
   */
  input?: InputDoc;
  /** The query of a route that is no procedure. */
  query?: JsonSchema;
  /** What a path parameter is (added to its schema: the procedure's, else a UUID). */
  pathParams?: Record<string, JsonSchema>;
  headers?: { name: string; required: boolean; description: string; schema: JsonSchema }[];
  /**
   * The body of a route that is no procedure, or of a procedure that parses its input itself (its
   * schema says nothing); sent as application/json unless `contentTypes` says otherwise.
   */
  body?: { schema: JsonSchema; example?: unknown; contentTypes?: string[] };
  responses: Record<string, ResponseDoc>;
  /** Errors are RFC 9457 problem+json (partner API) instead of the site's {error, message}. */
  problem?: boolean;
};

export type InputDoc = {
  /** Added to the input's fields: what each one is, and rules its refinements hold (patterns, formats). */
  fields?: Record<string, JsonSchema>;
  /** Of the body. */
  description?: string;
  example?: unknown;
  /** Publish the body as #/components/schemas/<component> (procedures with the same input share it). */
  component?: string;
};

const SPEC_FIELD_RULES = {
  zipCode: { pattern: ZIP_PATTERN.source, description: '5 digits or ZIP+4 (12345-6789)' },
  email: { pattern: EMAIL_PATTERN.source, format: 'email' },
  phone: { pattern: PHONE_PATTERN.source, description: 'US number: optional +1, 10 digits' },
  birthMonth: { description: '1 to 12' },
  birthDay: { description: '1 to 31' },
  birthYear: { description: '1940 to 1994 (else 400 age_restriction)' },
  consentGiven: { description: "'true' (required: consent must be given)" },
  pageUrl: {
    description:
      'Page the form was on; the Referer header is used when absent. Without either the consent receipt has no page address: the lead is not tcpaCompliant and does not count as valid consent (the analytics Valid Consent Rate)',
  },
  trustedFormUrl: {
    pattern: TRUSTEDFORM_CERT_PATTERN.source,
    description: 'TrustedForm certificate URL (stored only when TRUSTEDFORM_ENABLED)',
  },
};

/** The input of the three data requests, one component. */
const DATA_REQUEST: InputDoc = {
  component: 'DataRequest',
  description: 'An e-mail address, a phone number, or both',
  fields: {
    email: { pattern: EMAIL_PATTERN.source, format: 'email' },
    phone: { pattern: PHONE_PATTERN.source },
  },
};

const DATE_WORDS = { description: 'Date, YYYY-MM-DD', format: 'date' };
/** The lead lists' filters: what each one is. */
const FILTER_WORDS = {
  search: { description: 'Name, e-mail (website leads) or phone number, 2–100 characters' },
  state: { description: 'Two-letter US state code (50 states, no DC)' },
  birthYear: { description: 'Four-digit year' },
  startDate: DATE_WORDS,
  endDate: DATE_WORDS,
};

const BACKUP_NAME_WORDS = { description: 'File name of a backup, as listed by GET /api/admin/backups' };
/** The download's parameter: the schema the route parses it with (admin-stream-routes.ts), and words. */
const BACKUP_NAME_PARAM = (inputSchema(backupNameSchema).properties as Record<string, JsonSchema>).name;
/** Reusable schemas, referenced as #/components/schemas/<name>. */
export const componentSchemas: Record<string, JsonSchema> = {
  Error: {
    ...object(
      {
        error: str('Error code', { enum: Object.values(ERROR_CODES) }),
        message: str('Human-readable explanation'),
        fieldErrors: {
          type: 'array',
          items: object({ field: str(), message: str() }),
          description: 'One entry per invalid field (validation errors only)',
        },
      },
      ['error', 'message'],
    ),
  },
  Problem: {
    description: 'RFC 9457 problem details (media type application/problem+json)',
    ...object(
      {
        type: str('URI reference of the problem type; its section of /api/docs explains it'),
        title: str('Short summary of the problem type'),
        status: int('HTTP status code'),
        detail: str('Explanation of this occurrence'),
        instance: str('The request path'),
        code: str('Error code', { enum: Object.values(ERROR_CODES) }),
        errors: { type: 'array', items: ref('ProblemField'), description: 'Every invalid field' },
        existingId: str('409 only: id of the lead you already sent', { format: 'uuid' }),
      },
      ['type', 'title', 'status', 'detail', 'code'],
    ),
  },
  ProblemField: object({
    field: str('Field name (or the header name for Idempotency-Key)'),
    message: str('What is wrong with it'),
    pointer: str('JSON Pointer (RFC 6901) into the request body'),
  }),
};

const json = (description: string, schema?: ResponseDoc['schema']): ResponseDoc => ({ description, schema });

const idParamNote = 'Lead ids are UUIDs.';

// The streamed routes (lists, CSV files) are no procedures: their queries are the shared schemas they
// parse with (admin-stream-routes.ts), with words added.
const PAGING_WORDS = {
  page: {
    description:
      'Page number (1-based); with page or pageSize the answer is one page and X-Total-Count holds the total',
  },
  pageSize: { description: 'Rows per page (1–1000)' },
  sort: { description: 'Field to sort by (default createdAt)' },
};
const websiteFilters = inputSchema(websiteLeadFiltersSchema, FILTER_WORDS);
const apiFilters = inputSchema(apiLeadFiltersSchema, FILTER_WORDS);
const websiteList = inputSchema(websiteLeadListSchema, { ...FILTER_WORDS, ...PAGING_WORDS });
const apiList = inputSchema(apiLeadListSchema, { ...FILTER_WORDS, ...PAGING_WORDS });

const idempotencyHeader = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes retries safe: a repeated request with the same key (within 24 hours) gets the same answer and creates no second lead. A key reused with a different body answers 422.',
  schema: str(undefined, { minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }),
};

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests a minute allowed for this key', schema: int() },
  'RateLimit-Remaining': { description: 'Requests left in the current minute', schema: int() },
};

/**
 * The two offline-conversion files (issue 24, ADR 059) and their retraction files (Google's: issue 35;
 * Microsoft's: issue 47).
 */
function adConversionDocs(): Record<string, OperationDoc> {
  const range = inputSchema(adConversionsQuerySchema, {
    from: DATE_WORDS,
    to: DATE_WORDS,
    count: {
      description:
        'Which leads count: `accepted` (default; the leads lead quality accepted) or `sold` (only leads a buyer bought). Either way a lead its buyer returned is left out: the retraction file takes back a conversion uploaded before the return',
    },
  });
  const common = (platform: AdPlatform, format: string): OperationDoc => ({
    tag: 'Admin',
    summary: `${AD_CONVERSION_EXPORTS[platform].label} (offline conversion import file)`,
    description: `${format} One line per website lead created within the business days \`from\`–\`to\` (TIME_ZONE, both inclusive) whose visit carried a \`${AD_CONVERSION_EXPORTS[platform].clickId}\` and that \`count\` counts, oldest first. Leads that opted out (suppression list) or sent Global Privacy Control (do not sell or share) are left out. A lead its buyer returned is left out (issue 47). The conversion name comes from ADS_CONVERSION_NAME; a sold lead's value is its sale price in USD, any other lead's is ADS_CONVERSION_VALUE in ADS_CONVERSION_CURRENCY. Recorded in the audit log.`,
    auth: 'admin',
    query: range,
    responses: {
      '200': {
        description: `CSV file ${AD_CONVERSION_EXPORTS[platform].filePrefix}-{from}-to-{to}.csv (Content-Disposition: attachment)`,
        contentType: 'text/csv',
        schema: str(),
      },
      '400': json(
        'from or to missing or not a date, to before from, or count not accepted or sold (the field is named)',
        ref('Error'),
      ),
    },
  });
  const adjustments = (platform: AdPlatform, format: string): OperationDoc => ({
    tag: 'Admin',
    summary: `${AD_ADJUSTMENT_EXPORTS[platform].label} (returned leads, to retract their conversions)`,
    description: `${format} One retraction per website lead with a \`${AD_ADJUSTMENT_EXPORTS[platform].clickId}\` that a buyer returned within the business days \`from\`–\`to\` (TIME_ZONE, both inclusive), oldest return first; the conversion's name and time as the conversions file wrote them (ADS_CONVERSION_NAME; the lead's creation), the adjustment time the return's. Leads that opted out or sent Global Privacy Control are left out. Recorded in the audit log.`,
    auth: 'admin',
    query: inputSchema(adAdjustmentsQuerySchema, { from: DATE_WORDS, to: DATE_WORDS }),
    responses: {
      '200': {
        description: `CSV file ${AD_ADJUSTMENT_EXPORTS[platform].filePrefix}-{from}-to-{to}.csv (Content-Disposition: attachment)`,
        contentType: 'text/csv',
        schema: str(),
      },
      '400': json('from or to missing or not a date, or to before from (the field is named)', ref('Error')),
    },
  });
  return {
    [`GET ${AD_ADJUSTMENT_EXPORTS.google.path}`]: adjustments(
      'google',
      "Google Ads' conversion adjustments import: first line `Parameters:TimeZone=<TIME_ZONE>`, then `Google Click ID,Conversion Name,Conversion Time,Adjustment Time,Adjustment Type,Adjustment Value,Adjustment Value Currency`, then `RETRACT` rows (value and currency empty); times `yyyy-MM-dd HH:mm:ss` in TIME_ZONE.",
    ),
    [`GET ${AD_ADJUSTMENT_EXPORTS.microsoft.path}`]: adjustments(
      'microsoft',
      "Microsoft Advertising's Bulk file of Offline Conversion records with the adjustment columns: the header `Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id,Adjustment Type,Adjustment Time,Adjustment Value,Adjustment Currency Code`, the row `Format Version,,,,,6.0,…`, then one `Offline Conversion` row per lead with Adjustment Type `Retract` (Client Id = the lead id; value and currency empty); times in UTC (`2026-05-01T16:00:00Z`).",
    ),
    [`GET ${AD_CONVERSION_EXPORTS.google.path}`]: common(
      'google',
      "Google Ads' click-conversion import: first line `Parameters:TimeZone=<TIME_ZONE>`, then `Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency`; times `yyyy-MM-dd HH:mm:ss` in TIME_ZONE.",
    ),
    [`GET ${AD_CONVERSION_EXPORTS.microsoft.path}`]: common(
      'microsoft',
      "Microsoft Advertising's Bulk file of Offline Conversion records: the header `Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id`, the row `Format Version,,,,,6.0,,,,,`, then one `Offline Conversion` row per lead (Client Id = the lead id); times in UTC (`2026-05-01T16:00:00Z`), as the bulk schema requires.",
    ),
  };
}

/** A lead's own page (issue 26): the lead whole. */
function leadPageDoc(what: string): OperationDoc {
  return {
    tag: 'Admin',
    summary: `One ${what}, whole`,
    description: `Every field of the ${what} as the list has it, and what the list has no column for. ${idParamNote}`,
    responses: {
      '200': json(`The ${what}`),
      '400': json('The id is not a UUID', ref('Error')),
      '404': json(`No such ${what} (never stored, or deleted)`, ref('Error')),
    },
  };
}

/** A lead's audit trail (issue 26). */
function leadAuditDoc(what: string, deleteAction: string): OperationDoc {
  return {
    tag: 'Admin',
    summary: `Audit entries that concern one ${what}`,
    description: `Newest first, at most 200: its delete (\`${deleteAction}\` with \`detail.id\`), entries that name it in \`detail.leadId\`, and the data requests about its e-mail address or phone number (matched by their hashes). Answers for any id, so a deleted lead's delete stays findable; bulk deletes log counts, not ids. ${idParamNote}`,
    responses: {
      '200': json('Entries'),
      '400': json('The id is not a UUID', ref('Error')),
    },
  };
}

/** "Select all N matching" (issue 26): a bulk delete by filter, guarded by the count the admin confirmed. */
function deleteMatchingDoc(what: string, example: Record<string, string>): OperationDoc {
  return {
    tag: 'Admin',
    summary: `Delete every matching ${what.replace(/s$/, '')}`,
    description: `Deletes all ${what} the filters match (the list's filters, as an object), in batches of 5,000 on the server. \`expectedCount\` is the number of matching leads the admin confirmed: when a different number matches now, nothing is deleted and the answer is 409. One audit entry with the filters and counts.`,
    input: {
      fields: {
        filters: { properties: FILTER_WORDS },
        expectedCount: { description: 'How many leads the filters matched when confirmed' },
      },
      example: { filters: example, expectedCount: 3000 },
    },
    responses: {
      '200': json('Deleted'),
      '409': json('A different number of leads matches now; nothing was deleted', ref('Error')),
    },
  };
}

/**
 * Keyed by the procedure that answers (`lead.submit`: its REST method and path are on the procedure,
 * issue 23), or, for the routes that are not procedures (streams, health checks, these documents), by
 * "METHOD /path" exactly as registered. Who may call a procedure comes from the procedure too: `auth`
 * here only for what the procedure does not say (the partner key, the metrics token).
 */
export const operations: Record<string, OperationDoc> = {
  'lead.submit': {
    tag: 'Public',
    summary: 'Submit the landing-page lead form',
    description:
      'Stores a website lead with its consent receipt (same transaction). A browser sending `Sec-GPC: 1` is recorded as do-not-sell. Sets the HttpOnly `lead_owner` cookie that alone may set the beneficiary.',
    input: { component: 'LeadSubmission', fields: SPEC_FIELD_RULES },
    responses: {
      '200': json('Stored'),
      '400': json(
        'Invalid field(s) (`validation_error`) or birth year outside 1940–1994 (`age_restriction`)',
        ref('Error'),
      ),
      '409': json('This e-mail address was already submitted (`duplicate_email`)', ref('Error')),
    },
  },
  'lead.byId': {
    tag: 'Public',
    summary: 'Read back the state of a submitted lead',
    description: `Only id and state, nothing personal. ${idParamNote}`,
    responses: {
      '200': json('The lead'),
      '404': json('No such lead', ref('Error')),
    },
  },
  'lead.setBeneficiary': {
    tag: 'Public',
    summary: 'Set the beneficiary of the lead this browser submitted',
    description: 'Needs the `lead_owner` cookie from the submit answer; anyone else gets 404.',
    responses: {
      '200': json('Set'),
      '404': json('No such lead, or not this browser’s', ref('Error')),
    },
  },
  'analytics.track': {
    tag: 'Public',
    summary: 'Record a visitor event',
    responses: { '200': json('Recorded') },
  },
  'POST /api/csp-report': {
    tag: 'Public',
    summary: 'Report a Content Security Policy violation',
    description:
      "Where browsers send the site's CSP violation reports (`report-uri`, `application/csp-report`, or the Reporting API's `application/reports+json`). Logged at warn; at most 30 per minute per client.",
    body: {
      // report-uri sends one object; the Reporting API a list of reports.
      schema: { type: ['object', 'array'] },
      contentTypes: ['application/csp-report', 'application/reports+json'],
    },
    responses: {
      '204': { description: 'Logged' },
      '429': json('Too many reports from this client', ref('Error')),
    },
  },
  'privacy.unsubscribe': {
    tag: 'Public',
    summary: 'Opt an e-mail address out of marketing',
    description:
      'Adds the address to the suppression list (kept as a SHA-256 hash) and flags its leads as opted out. The answer is the same whether or not the address is known.',
    input: { fields: { email: { format: 'email' } } },
    responses: {
      '200': json('Recorded (same answer for every valid address)'),
      '429': json('More than 30 opt-outs from this client in 10 minutes (see Retry-After)', ref('Error')),
    },
  },
  'adminAuth.login': {
    tag: 'Admin',
    summary: 'Sign in',
    description:
      'Sets the `uf_admin` session cookie. Rate-limited per client and per user name. For an account with two-factor sign-in on, `username` and `password` alone answer 401 `totp_required` and set no session; send them again with `totp` (the 6-digit code) or `recoveryCode` (single use). A wrong code counts towards the same limits. With `ADMIN_REQUIRE_2FA` an admin without two-factor gets `twoFactorSetupRequired: true` and can only enrol until then.',
    responses: {
      '200': json('Signed in'),
      '401': json(
        '`unauthorized`: invalid username or password, or a wrong code; `totp_required`: the code is missing',
        ref('Error'),
      ),
      '429': json('Too many attempts (Retry-After says when to try again)', ref('Error')),
    },
  },
  'adminAuth.logout': {
    tag: 'Admin',
    summary: 'Sign out',
    responses: { '200': json('Signed out') },
  },
  'adminAuth.me': {
    tag: 'Admin',
    summary: 'The signed-in admin',
    responses: { '200': json('Signed in') },
  },
  'adminAccount.twoFactor': {
    tag: 'Admin',
    summary: 'Two-factor sign-in of the signed-in admin',
    responses: {
      '200': json('Status'),
    },
  },
  'adminAccount.startTotp': {
    tag: 'Admin',
    summary: 'Start two-factor enrolment',
    description:
      'A new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s), not active until confirmed with a code. 409 when two-factor is already on.',
    responses: {
      '200': json('Secret to enter in an authenticator app (or scan as a QR code of otpauthUrl)'),
      '409': json('Two-factor is already on', ref('Error')),
    },
  },
  'adminAccount.confirmTotp': {
    tag: 'Admin',
    summary: 'Confirm two-factor enrolment with a code',
    description: 'Turns two-factor on and answers ten single-use recovery codes, shown this once.',
    responses: {
      '200': json('Two-factor on'),
      '400': json('Wrong code', ref('Error')),
      '409': json('No enrolment started, or two-factor already on', ref('Error')),
    },
  },
  'adminAccount.disableTotp': {
    tag: 'Admin',
    summary: 'Turn two-factor sign-in off',
    description: 'Needs the password and a current code (or a recovery code). Recovery codes are deleted.',
    responses: {
      '200': json('Two-factor off'),
      '400': json('Wrong password or code', ref('Error')),
      '429': json('Too many attempts (the sign-in limit per account and address)', ref('Error')),
    },
  },
  'adminAccount.regenerateRecoveryCodes': {
    tag: 'Admin',
    summary: 'Replace the recovery codes',
    description: 'Needs a current code; the old recovery codes stop working.',
    responses: {
      '200': json('New recovery codes, shown this once'),
      '400': json('Wrong code', ref('Error')),
    },
  },
  'adminAccount.changePassword': {
    tag: 'Admin',
    summary: 'Change the password',
    description: 'Ends every other session of the admin.',
    responses: {
      '200': json('Changed'),
      '400': json('Wrong current password, or the new one is shorter than 12 characters', ref('Error')),
      '429': json('Too many attempts (the sign-in limit per account and address)', ref('Error')),
    },
  },
  'adminAccount.sessions': {
    tag: 'Admin',
    summary: "The signed-in admin's sessions",
    responses: {
      '200': json('Live sessions, newest first'),
    },
  },
  'adminAccount.endSession': {
    tag: 'Admin',
    summary: 'End one of my sessions',
    description: 'The session answers 401 from then on, on every replica.',
    responses: {
      '200': json('Ended'),
      '404': json('No such session', ref('Error')),
    },
  },
  'adminAccount.endOtherSessions': {
    tag: 'Admin',
    summary: 'End all my other sessions',
    responses: { '200': json('Ended') },
  },
  'adminAccount.emailSettings': {
    tag: 'Admin',
    summary: 'My e-mail reports and alerts',
    description:
      "The signed-in admin's address and opt-ins (daily summary, weekly summary, alerts), and whether the server can send e-mail at all (`configured`: SMTP_URL is set). ADR 063.",
    responses: { '200': json('Settings') },
  },
  'adminAccount.updateEmailSettings': {
    tag: 'Admin',
    summary: 'Change my e-mail reports and alerts',
    description:
      'Summaries go out at 09:00 in TIME_ZONE for the day (daily) or the Monday-to-Sunday week (weekly, on Mondays) before; alerts (no lead for ALERT_NO_LEADS_HOURS business hours, a webhook endpoint disabled) at most once per rule per 12 hours. An empty `email` removes the address; opting in needs one.',
    responses: {
      '200': json('Saved'),
      '400': json('Not an e-mail address, or an opt-in without one (field `email`)', ref('Error')),
    },
  },
  'adminAccount.sendTestEmail': {
    tag: 'Admin',
    summary: 'Send me a test e-mail',
    description: "Sends a test message to the signed-in admin's address now, over SMTP_URL.",
    responses: {
      '200': json('Accepted by the mail server'),
      '400': json('E-mail is not configured on this server, or the admin has no address', ref('Error')),
      '422': json(
        'The mail server could not be reached or refused the message (the message says which)',
        ref('Error'),
      ),
    },
  },
  'GET /api/admin/leads': {
    tag: 'Admin',
    summary: 'List website leads',
    auth: 'admin',
    query: websiteList,
    responses: { '200': json('Matching leads, newest first', websiteLeadRowsSchema) },
  },
  'admin.leads.stats': {
    tag: 'Admin',
    summary: 'Website lead statistics',
    responses: {
      '200': json('Counts'),
    },
  },
  'GET /api/admin/api-leads': {
    tag: 'Admin',
    summary: 'List API leads',
    auth: 'admin',
    query: apiList,
    responses: { '200': json('Matching API leads, newest first', apiLeadRowsSchema) },
  },
  'admin.apiLeads.stats': {
    tag: 'Admin',
    summary: 'API lead statistics',
    responses: {
      '200': json('Counts'),
    },
  },
  'GET /api/admin/export': {
    tag: 'Admin',
    summary: 'Export website leads as CSV',
    auth: 'admin',
    query: websiteFilters,
    responses: {
      '200': { description: 'CSV file website-leads-{date}.csv', contentType: 'text/csv', schema: str() },
    },
  },
  'GET /api/admin/export-api-leads': {
    tag: 'Admin',
    summary: 'Export API leads as CSV',
    auth: 'admin',
    query: apiFilters,
    responses: {
      '200': { description: 'CSV file api-leads-{date}.csv', contentType: 'text/csv', schema: str() },
    },
  },
  ...adConversionDocs(),
  'admin.backup': {
    tag: 'Admin',
    summary: 'Back up the database',
    responses: { '200': json('Backup written') },
  },
  'admin.backups.list': {
    tag: 'Admin',
    summary: 'List the backups',
    description:
      "Every backup file in BACKUP_DIR, newest first: the app's own (`uf-backup-…`, from Backup Database or `npm run cli -- backup`; the newest BACKUP_KEEP are kept) and the backup sidecar's (`scheduled-…`).",
    responses: {
      '200': json('The backups, newest first'),
    },
  },
  'GET /api/admin/backups/:name': {
    tag: 'Admin',
    summary: 'Download a backup',
    description:
      'The file as an attachment. A name that is not a backup file in BACKUP_DIR (a path, `..`, a link) is answered 404, like one that does not exist. Recorded in the audit log.',
    auth: 'admin',
    pathParams: { name: { ...BACKUP_NAME_PARAM, ...BACKUP_NAME_WORDS } },
    responses: {
      '200': {
        description: 'The backup file',
        contentType: 'application/octet-stream',
        schema: { type: 'string', contentMediaType: 'application/octet-stream' },
        headers: {
          'Content-Disposition': {
            description: 'attachment; filename="<name>"',
            schema: { type: 'string' },
          },
        },
      },
      '404': json('No such backup', ref('Error')),
    },
  },
  'admin.backups.remove': {
    tag: 'Admin',
    summary: 'Delete a backup',
    description:
      'Deletes one backup file from BACKUP_DIR (404 as for the download). Recorded in the audit log.',
    pathParams: { name: BACKUP_NAME_WORDS },
    responses: {
      '200': json('Deleted'),
      '404': json('No such backup', ref('Error')),
    },
  },
  'admin.leads.get': leadPageDoc('website lead'),
  'admin.leads.auditLog': leadAuditDoc('website lead', 'leads.delete'),
  'admin.apiLeads.get': leadPageDoc('API lead'),
  'admin.apiLeads.auditLog': leadAuditDoc('API lead', 'api_leads.delete'),
  'admin.leads.remove': {
    tag: 'Admin',
    summary: 'Delete one website lead',
    responses: {
      '200': json('Deleted'),
      '404': json('No such lead', ref('Error')),
    },
  },
  'admin.leads.bulkRemove': {
    tag: 'Admin',
    summary: 'Delete website leads in bulk',
    responses: { '200': json('Deleted') },
  },
  'admin.apiLeads.remove': {
    tag: 'Admin',
    summary: 'Delete one API lead',
    responses: {
      '200': json('Deleted'),
      '404': json('No such lead', ref('Error')),
    },
  },
  'admin.apiLeads.bulkRemove': {
    tag: 'Admin',
    summary: 'Delete API leads in bulk',
    responses: { '200': json('Deleted') },
  },
  'admin.leads.removeMatching': deleteMatchingDoc('website leads', {
    campaign: 'spam-burst',
  }),
  'admin.apiLeads.removeMatching': deleteMatchingDoc('API leads', {
    state: 'NY',
    startDate: '2026-11-01',
  }),
  'analytics.summary': {
    tag: 'Admin',
    summary: 'Visitor analytics',
    input: {
      fields: {
        startDate: DATE_WORDS,
        endDate: DATE_WORDS,
        country: { description: 'Two-letter country code or all' },
        channel: { description: 'Narrows visitors, visits, funnel and sources' },
        source: { description: 'Narrows visitors, visits, funnel and sources (exact)' },
        campaign: { description: 'Narrows visitors, visits, funnel and sources (exact)' },
        experiment: {
          description:
            'A landing experiment’s id: narrows visitors, visits, funnel and sources to its exposed visitors and its leads; ad cost is null',
        },
        arm: { description: 'One arm’s key of that experiment (needs `experiment`)' },
      },
    },
    responses: {
      '200': json('Totals, top lists and daily counts'),
    },
  },
  'admin.auditLog': {
    tag: 'Admin',
    summary: 'Admin actions, newest first',
    input: {
      fields: {
        limit: { description: '1–500, default 100' },
        before: { description: 'Only entries with a smaller id' },
      },
    },
    responses: {
      '200': json('Entries'),
    },
  },
  'admin.webhooks.list': {
    tag: 'Admin',
    summary: 'List the webhook endpoints',
    description:
      'Every endpoint, oldest first. Secrets are never listed (shown once, at creation and rotation).',
    responses: { '200': json('The endpoints') },
  },
  'admin.webhooks.create': {
    tag: 'Admin',
    summary: 'Create a webhook endpoint',
    description:
      'Only `https://` URLs to public addresses, unless WEBHOOKS_ALLOW_PRIVATE_URLS=true (then also `http://` and loopback/private addresses). No credentials in the URL. The answer carries the signing `secret` (`whsec_…`): shown this once. Messages are signed as the Standard Webhooks specification says (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`). Recorded in the audit log.',
    input: {
      example: {
        url: 'https://crm.example.com/hooks/leads',
        events: ['lead.created', 'lead.opted_out'],
        filters: { states: ['NY', 'NJ'] },
      },
    },
    responses: {
      '201': json('Created, with its secret (shown once)'),
      '400': json('Bad input; `fieldErrors` or the message names the field', ref('Error')),
    },
  },
  'admin.webhooks.update': {
    tag: 'Admin',
    summary: 'Change a webhook endpoint',
    description:
      'Any of `url`, `events`, `description`, `filters`, `enabled`. Enabling an endpoint clears its failing streak and the reason it was disabled.',
    responses: {
      '200': json('The endpoint'),
      '400': json('Bad input', ref('Error')),
      '404': json('No such endpoint', ref('Error')),
    },
  },
  'admin.webhooks.remove': {
    tag: 'Admin',
    summary: 'Delete a webhook endpoint',
    description: 'With its delivery log. Recorded in the audit log.',
    responses: {
      '200': json('Deleted'),
      '404': json('No such endpoint', ref('Error')),
    },
  },
  'admin.webhooks.rotateSecret': {
    tag: 'Admin',
    summary: "Rotate an endpoint's secret",
    description:
      'A new secret, answered once. For 24 hours the old secret keeps signing beside the new one (two space-separated signatures in `webhook-signature`), so the receiver can switch without losing messages.',
    responses: {
      '200': json('The endpoint with its new secret'),
      '404': json('No such endpoint', ref('Error')),
    },
  },
  'admin.webhooks.test': {
    tag: 'Admin',
    summary: 'Send a test message',
    description:
      'Queues a `webhook.test` message to the endpoint; its delivery shows in the log like any other.',
    responses: {
      '202': json('Queued'),
      '404': json('No such endpoint', ref('Error')),
      '409': json('The endpoint is disabled', ref('Error')),
    },
  },
  'admin.webhooks.deliveries': {
    tag: 'Admin',
    summary: "An endpoint's delivery log",
    description:
      'Deliveries newest first, each with every attempt (time, status code, duration, the first 1 KB of the answer, outcome). A delivery is `pending` until an attempt gets a 2xx (`delivered`) or the retries run out or the endpoint answers 410 (`failed`).',
    input: { fields: { limit: { description: '1–500, default 100' } } },
    responses: {
      '200': json('Deliveries'),
      '404': json('No such endpoint', ref('Error')),
    },
  },
  'admin.webhooks.resend': {
    tag: 'Admin',
    summary: 'Send one delivery again',
    description: 'From its first attempt, with the same `webhook-id` (receivers dedupe on it).',
    responses: {
      '202': json('Queued'),
      '404': json('No such delivery', ref('Error')),
      '409': json('An attempt of it is running', ref('Error')),
    },
  },
  'admin.webhooks.resendFailed': {
    tag: 'Admin',
    summary: 'Send again every failed delivery since a time',
    input: { example: { since: '2026-11-20T00:00:00Z' } },
    responses: {
      '202': json('Queued'),
      '400': json('Bad input', ref('Error')),
      '404': json('No such endpoint', ref('Error')),
    },
  },
  'admin.webhooks.leadDeliveries': {
    tag: 'Admin',
    summary: 'Where a lead went',
    description: "Every webhook delivery of a lead's messages (website or partner lead), to every endpoint.",
    responses: {
      '200': json('Deliveries, oldest first'),
    },
  },
  'privacy.consentReceipt': {
    tag: 'Data requests',
    summary: 'The consent receipt of a website lead',
    description:
      'The exact disclosure text, time, IP address, user agent, page and GPC signal, as written with the lead. Receipts never change.',
    responses: {
      '200': json('The receipt'),
      '404': json('No receipt for this lead', ref('Error')),
    },
  },
  'privacy.lookup': {
    tag: 'Data requests',
    summary: 'Find everything held for an e-mail address or phone number',
    description:
      'Website leads, API leads, consent receipts and suppression entries. Logged in the audit log (as hashes).',
    input: DATA_REQUEST,
    responses: { '200': json('The records and their counts') },
  },
  'privacy.export': {
    tag: 'Data requests',
    summary: 'Export everything held for an e-mail address or phone number',
    description: 'The same records as the lookup, as one JSON document for the person. Logged.',
    input: DATA_REQUEST,
    responses: { '200': json('The export') },
  },
  'privacy.delete': {
    tag: 'Data requests',
    summary: 'Delete everything held for an e-mail address or phone number',
    description:
      'Deletes the website leads (with their consent receipts) and API leads in one transaction and keeps only a suppression entry (a hash), so the person is never contacted again. Logged.',
    input: DATA_REQUEST,
    responses: {
      '200': json('Deleted'),
    },
  },
  'partner.createLead': {
    tag: 'Partner',
    summary: 'Send an API lead',
    description: [
      'Authenticate with your API key: `Authorization: Bearer <key>` (keys are issued by the operator and shown once).',
      'Duplicate policy: a lead with the same phone number (its 10 digits) and last name (any letter case) that you already sent in the last 24 hours is refused with 409 and the id of the existing lead as `existingId`.',
      'Send an `Idempotency-Key` header to make retries safe. Each API key may send a limited number of requests a minute; beyond it the answer is 429 with `Retry-After`.',
      'Errors are RFC 9457 `application/problem+json` documents listing every invalid field.',
    ].join('\n\n'),
    auth: 'partner',
    problem: true,
    headers: [idempotencyHeader],
    // The body is the schema the procedure parses with (its meta's `parses`).
    input: {
      component: 'PartnerLead',
      example: {
        firstName: 'Jane',
        lastName: 'Doe',
        streetAddress: '1 Main St',
        city: 'Austin',
        state: 'TX',
        phone: '(512) 555-0100',
        birthMonth: 5,
        birthDay: 17,
        birthYear: 1970,
        beneficiary: 'Wife',
      },
    },
    responses: {
      '201': {
        description:
          'Stored (or, for a repeated Idempotency-Key, the stored answer with `Idempotent-Replayed: true`)',
        headers: {
          ...RATE_HEADERS,
          'Idempotent-Replayed': { description: "'true' on a replayed answer", schema: str() },
        },
      },
      '400': {
        description: 'Invalid fields (every one listed in `errors`)',
        contentType: 'application/problem+json',
        schema: ref('Problem'),
      },
      '401': {
        description: 'Missing, unknown or revoked API key',
        contentType: 'application/problem+json',
        schema: ref('Problem'),
      },
      '409': {
        description: 'Duplicate: `existingId` is the lead you already sent',
        contentType: 'application/problem+json',
        schema: ref('Problem'),
      },
      '422': {
        description: 'Idempotency-Key already used for a different request',
        contentType: 'application/problem+json',
        schema: ref('Problem'),
      },
      '429': {
        description: 'Rate limit of this API key reached',
        contentType: 'application/problem+json',
        schema: ref('Problem'),
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: int() } },
      },
    },
  },
  'GET /healthz': {
    tag: 'Operations',
    summary: 'Process is up',
    description:
      'The process and what it runs are alive: 503 while the embedded PostgreSQL is being restarted.',
    responses: {
      '200': json('Up', aliveSchema),
      '503': json('The embedded PostgreSQL is not running', notAliveSchema),
    },
  },
  'GET /readyz': {
    tag: 'Operations',
    summary: 'Database is reachable',
    responses: {
      '200': json('Ready', readySchema),
      '503': json('Not ready: the database is unavailable, writes fail, or it is stopping', notReadySchema),
    },
  },
  'GET /metrics': {
    tag: 'Operations',
    summary: 'Prometheus metrics of this replica',
    description:
      'Off (404) unless METRICS_TOKEN is set; then `Authorization: Bearer <METRICS_TOKEN>` is required.',
    auth: 'metrics',
    responses: {
      '200': { description: 'Prometheus text exposition format', contentType: 'text/plain', schema: str() },
      '404': json('Metrics are switched off', ref('Error')),
    },
  },
  'GET /api/openapi.json': {
    tag: 'Operations',
    summary: 'This OpenAPI document',
    responses: { '200': json('OpenAPI 3.1 document', { type: 'object' }) },
  },
  'GET /api/docs': {
    tag: 'Operations',
    summary: 'This document as a readable page',
    responses: { '200': { description: 'HTML page', contentType: 'text/html', schema: str() } },
  },
  ...QUALITY_OPERATION_DOCS,
  ...BUYER_OPERATION_DOCS,
  ...AD_COST_OPERATION_DOCS,
  ...EXPERIMENT_OPERATION_DOCS,
};
