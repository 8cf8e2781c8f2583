import { LEAD_CLICK_ID_FIELDS } from './attribution';

// Lead buyers (issue 34, ADR 069): the names every part shares, zod-free so the admin screens can use
// them without the schemas. The schemas are ./buyer.schema.ts (input) and ./buyer.output.ts (answers).

export const BUYER_STATUSES = ['active', 'paused'] as const;
export type BuyerStatus = (typeof BUYER_STATUSES)[number];

export const BUYER_HTTP_METHODS = ['POST', 'GET'] as const;
export const BUYER_ENCODINGS = ['json', 'form', 'xml', 'query'] as const;
export type BuyerEncoding = (typeof BUYER_ENCODINGS)[number];

/** What a lead is offered as: the lead fields a buyer's field map may read (`from`). */
export const BUYER_LEAD_FIELDS = [
  'leadId',
  'leadType',
  'firstName',
  'lastName',
  'email',
  'phone',
  'streetAddress',
  'city',
  'zipCode',
  'state',
  'birthMonth',
  'birthDay',
  'birthYear',
  'birthDate',
  'age',
  'beneficiary',
  'consentGiven',
  'consentText',
  'consentAt',
  'trustedFormUrl',
  'ipAddress',
  'userAgent',
  'pageUrl',
  'createdAt',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  ...LEAD_CLICK_ID_FIELDS,
  // Issue 48: the landing experiment (by name) and arm (by key) the lead's page was served in.
  'experiment',
  'arm',
] as const;
export type BuyerLeadField = (typeof BUYER_LEAD_FIELDS)[number];
export const isBuyerLeadField = (name: string): name is BuyerLeadField =>
  (BUYER_LEAD_FIELDS as readonly string[]).includes(name);

/** The closed list of transforms (written in our code; never a template engine). */
export const BUYER_TRANSFORMS = [
  'upper',
  'lower',
  'trim',
  'digits',
  'e164',
  'date:<pattern>',
  'stateName',
  'map:a=b,c=d',
  'default:x',
  'bool:<true>/<false>',
  'sha256',
  'md5',
  'ascii',
  'substr:<from>:<to>',
] as const;

/**
 * How one post ended. `timeout`: no answer within the buyer's timeoutMs. `unknown`: the buyer may have taken
 * the lead and nobody knows — its answer was cut, or the server stopped while the post was in flight; the
 * lead waits until an admin settles it (ADR 069, "Unknown outcomes").
 */
export const SALE_OUTCOMES = ['accepted', 'rejected', 'duplicate', 'error', 'timeout', 'unknown'] as const;
export type SaleOutcome = (typeof SALE_OUTCOMES)[number];
/** What a response rule may say. */
export const RULE_OUTCOMES = ['accepted', 'rejected', 'duplicate', 'error'] as const;
export type RuleOutcome = (typeof RULE_OUTCOMES)[number];
/** Why a buyer was passed over without a post. */
export const SKIP_REASONS = [
  'paused',
  'filter_state',
  'filter_age',
  'filter_lead_type',
  'filter_source',
  'closed',
  'cap_hour',
  'cap_day',
  'cap_week',
  'cap_month',
  'cap_total',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** `unknown`: waiting for an admin to settle a post whose outcome is unknown (the sale's buyer). */
export const SALE_STATUSES = ['sold', 'unsold', 'pending', 'not_for_sale', 'unknown'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export const CAP_PERIODS = ['hour', 'day', 'week', 'month', 'total'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export const REVENUE_GROUPS = ['day', 'buyer', 'source', 'campaign'] as const;
export type RevenueGroup = (typeof REVENUE_GROUPS)[number];

/** Shown instead of a secret header's value, in every answer, screen and log. */
export const MASK = '••••';

export const DEFAULT_BUYER_TIMEOUT_MS = 10_000;
export const DEFAULT_RETURN_WINDOW_DAYS = 30;
export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 5;
/** Bytes of a buyer's answer kept in the log. */
export const BUYER_RESPONSE_EXCERPT_BYTES = 8 * 1024;

export type BuyerField = { to: string; from?: BuyerLeadField; value?: string; transforms?: string[] };
export type BuyerRuleWhen = {
  status?: number | '2xx' | '4xx' | '5xx';
  json?: string;
  xml?: string;
  regex?: string;
  equals?: string | number | boolean | null;
  matches?: string;
};
export type BuyerRule = {
  when: BuyerRuleWhen;
  outcome: RuleOutcome;
  reasonFrom?: string;
  priceFrom?: string;
  refFrom?: string;
};
export type BuyerHttpDelivery = {
  kind: 'http';
  method: (typeof BUYER_HTTP_METHODS)[number];
  url: string;
  testUrl?: string;
  encoding: BuyerEncoding;
  xmlRoot?: string;
  headers?: Record<string, string>;
  secretHeaders?: Record<string, string>;
  timeoutMs?: number;
};
export type BuyerEmailDelivery = { kind: 'email'; to: string[] };
export type BuyerDelivery = BuyerHttpDelivery | BuyerEmailDelivery;
export type BuyerFilters = {
  states?: string[];
  minAge?: number;
  maxAge?: number;
  leadTypes?: ('website' | 'api')[];
  sources?: string[];
};
export type BuyerWindow = { days: WeekDay[]; start: string; end: string };
export type BuyerSchedule = { timeZone: string; windows: BuyerWindow[] };
export type BuyerCap = { period: CapPeriod; leads?: number; amount?: number };

/** A buyer as written (the create body; secrets in clear). */
export type BuyerConfig = {
  name: string;
  status: BuyerStatus;
  priority: number;
  price: number;
  delivery: BuyerDelivery;
  fields: BuyerField[];
  responseRules: BuyerRule[];
  filters?: BuyerFilters;
  schedule?: BuyerSchedule;
  caps?: BuyerCap[];
  returnWindowDays?: number;
  maxConsecutiveErrors?: number;
};

/** A cap and how much of its current period is used. */
export type BuyerCapUse = BuyerCap & { usedLeads: number; usedAmount: number };

/** A buyer as the API answers it: secrets masked, with today's figures. */
export type BuyerView = Omit<BuyerConfig, 'caps'> & {
  id: string;
  pausedReason: string | null;
  consecutiveErrors: number;
  /** Issue 49: its hours take leads now (always, without hours), and when closed, when they next open. */
  openNow: boolean;
  opensAt: string | null;
  caps: BuyerCapUse[];
  /** Today's figures, in the words of MONEY_WORDS (ADR 073): revenue gross, net after returns. */
  today: { offered: number; sold: number; returned: number; revenue: number; net: number };
  /** Posts to this buyer whose outcome is unknown, waiting for an admin to settle them. */
  toSettle: number;
  createdAt: string;
  updatedAt: string;
};

/** One post (or skip) of a lead to a buyer, as the log keeps it. */
export type SaleAttemptView = {
  id: string;
  buyerId: string;
  buyerName: string;
  leadId: string | null;
  leadType: 'website' | 'api' | null;
  at: string;
  test: boolean;
  /** `skipped` with a reason code when the buyer was passed over without a post. */
  outcome: SaleOutcome | 'skipped' | 'sending';
  reason: string | null;
  price: number | null;
  reference: string | null;
  latencyMs: number | null;
  request: { method: string; url: string; headers: Record<string, string>; body: string | null } | null;
  status: number | null;
  response: string | null;
  /** An unknown outcome an admin settled: who and when (the outcome then reads accepted or rejected). */
  settled: { by: string; at: string } | null;
};

export type LeadSaleView = {
  status: SaleStatus;
  /** The buyer it was sold to, or (`unknown`) the buyer it waits on. */
  buyerId?: string;
  buyerName?: string;
  price?: number;
  soldAt?: string;
  returned?: { at: string; reason: string; note: string | null };
  attempts: SaleAttemptView[];
};

/** A row of GET /api/admin/revenue, in the words of MONEY_WORDS (ADR 073). */
export type RevenueRow = {
  key: string;
  offered: number;
  sold: number;
  returned: number;
  revenue: number;
  credited: number;
  net: number;
};
