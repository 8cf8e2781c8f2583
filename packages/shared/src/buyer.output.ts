import { z } from 'zod';
import { buyerCreateSchema, storedRulesSchema } from './buyer.schema';
import { SALE_OUTCOMES, SALE_STATUSES } from './buyers';
import { MONEY_WORDS } from './money-words';
import { count, dateTime, flag, nullableText, text, uuid } from './output-fields';

// What the buyer admin operations answer (issue 34, ADR 069). The view types of ./buyers.ts (zod-free,
// for the web) must satisfy these.

const money = (description?: string) => z.number().meta(description ? { description } : {});
export const buyerSchema = z.object({
  ...buyerCreateSchema.shape,
  responseRules: storedRulesSchema,
  id: uuid(),
  pausedReason: nullableText('Why the buyer was paused (errors in a row, an admin)'),
  consecutiveErrors: count('Errors and timeouts in a row since its last answer'),
  openNow: flag('Whether its hours take leads now (always, without hours); paused or not'),
  opensAt: dateTime(
    'When closed: the next instant its hours open, within 8 days (null: never; shown in its own time zone)',
  ).nullable(),
  caps: z.array(
    z.object({
      period: text(),
      leads: count().optional(),
      amount: money().optional(),
      usedLeads: count('Leads counted in the current period'),
      usedAmount: money('Revenue counted in the current period, USD'),
    }),
  ),
  today: z
    .object({
      offered: count(),
      sold: count(MONEY_WORDS.sold),
      returned: count(MONEY_WORDS.returned),
      revenue: money(MONEY_WORDS.revenue),
      net: money(MONEY_WORDS.net),
    })
    .describe(
      "Today's figures: sold, returned, revenue and net count the leads offered today (the business day of the offer) and sold to this buyer, as GET /api/admin/revenue counts them",
    ),
  toSettle: count('Posts whose outcome is unknown, waiting for an admin to settle them'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export const buyersSchema = z.array(buyerSchema);
export const buyerDeletedSchema = z.object({ id: text(), deleted: z.literal(true) });

export const saleAttemptSchema = z.object({
  id: uuid(),
  buyerId: uuid(),
  buyerName: text(),
  leadId: nullableText(),
  leadType: z.enum(['website', 'api']).nullable(),
  at: dateTime(),
  test: flag('A test post: never counted against caps or revenue'),
  outcome: z.enum([...SALE_OUTCOMES, 'skipped', 'sending']),
  reason: nullableText('The buyer’s reason, or the skip’s reason code'),
  price: money('USD').nullable(),
  reference: nullableText('The buyer’s reference for the lead'),
  latencyMs: count().nullable(),
  request: z
    .object({
      method: text(),
      url: text(),
      headers: z.record(z.string(), z.string()),
      body: nullableText(),
    })
    .nullable()
    .meta({ description: 'The request as sent, secrets masked' }),
  status: z.int().nullable(),
  response: nullableText('The first 8 KB of the answer'),
  settled: z
    .object({ by: text('The admin who settled it'), at: dateTime() })
    .nullable()
    .meta({ description: 'An unknown outcome settled by an admin (then accepted or rejected)' }),
});
export const saleAttemptsSchema = z.array(saleAttemptSchema);

export const leadSaleSchema = z.object({
  status: z.enum(SALE_STATUSES),
  buyerId: uuid().optional(),
  buyerName: text().optional(),
  price: money('USD').optional(),
  soldAt: dateTime().optional(),
  returned: z.object({ at: dateTime(), reason: text(), note: nullableText() }).optional(),
  attempts: saleAttemptsSchema,
});

export const leadSettleAnswerSchema = z.object({
  leadId: uuid(),
  buyerId: uuid(),
  status: z.enum(SALE_STATUSES).meta({ description: '`sold`, or `pending`: offered on down the waterfall' }),
  price: money('USD: the buyer’s price, when it took the lead').nullable(),
});

export const buyerPreviewAnswerSchema = z.object({
  request: z.object({
    method: text(),
    url: text(),
    headers: z.record(z.string(), z.string()),
    body: nullableText(),
  }),
});

export const buyerTestAnswerSchema = saleAttemptSchema;

export const leadReturnAnswerSchema = z.object({
  leadId: uuid(),
  buyerId: uuid(),
  credited: money('USD taken off revenue'),
  returnedAt: dateTime(),
});

export const revenueRowsSchema = z.array(
  z.object({
    key: text('The day (YYYY-MM-DD), buyer name, source or campaign'),
    offered: count('Leads offered to at least one buyer'),
    sold: count(MONEY_WORDS.sold),
    returned: count(MONEY_WORDS.returned),
    revenue: money(MONEY_WORDS.revenue),
    credited: money(MONEY_WORDS.credited),
    net: money(MONEY_WORDS.net),
  }),
);
