import { z } from 'zod';
import { EXPERIMENT_PAGES, EXPERIMENT_STATUSES, PRIMARY_METRICS } from './experiments';
import { armSchema } from './experiments.schema';
import { count, dateTime, flag, nullableText, text, uuid } from './output-fields';

// What the experiment operations answer (issue 48, ADR 075). The view types the server builds must
// satisfy these (tRPC's .output() checks it).

const number = (description: string) => z.number().meta({ description });
const nullableNumber = (description: string) => z.number().nullable().meta({ description });
const nullableDateTime = (description: string) =>
  z.string().nullable().meta({ format: 'date-time', description });

export const experimentSchema = z.object({
  id: uuid(),
  name: text(),
  hypothesis: nullableText(),
  page: z.enum(EXPERIMENT_PAGES),
  status: z.enum(EXPERIMENT_STATUSES),
  primaryMetric: z.enum(PRIMARY_METRICS),
  plannedVisitors: count('The total of visitors at which the result is read'),
  arms: z.array(armSchema.extend({ contentHash: text('SHA-256 of the arm’s content as served (hex)') })),
  rollout: nullableText(
    'The arm served to everyone since the experiment was stopped with `keep` (a rollout); null when none',
  ),
  startedAt: nullableDateTime('When it was first started'),
  stoppedAt: nullableDateTime('When it was stopped'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export const experimentsSchema = z.array(
  experimentSchema.extend({
    visitors: count('Visitors counted so far, all arms'),
    daysRunning: count('Days from the start to now, or to the stop'),
    verdict: nullableText('The plain-words verdict once there is enough data, else null'),
  }),
);
export const experimentDeletedSchema = z.object({ id: text(), deleted: z.literal(true) });
export const armPreviewOutputSchema = z.object({
  html: text('The landing page as this content would be served: a whole HTML document, without a form token'),
});

const interval = z.object({ low: z.number(), high: z.number() });

export const experimentResultsSchema = z.object({
  experimentId: uuid(),
  status: z.enum(EXPERIMENT_STATUSES),
  primaryMetric: z.enum(PRIMARY_METRICS),
  plannedVisitors: count(),
  daysRunning: count(),
  arms: z.array(
    z.object({
      key: text(),
      name: text(),
      weight: count('Percent'),
      control: flag('The first arm: the page as it is'),
      visitors: count(
        'Visitors exposed, each counted once a day (bots, HEAD, prefetches and previews never)',
      ),
      leads: count('Website leads that carry this arm'),
      accepted: count('Of those, accepted by the quality checks'),
      sold: count('Of those, bought by a buyer (returned ones included)'),
      returned: count('Of the sold ones, returned'),
      revenue: number('USD, gross: every sale’s price'),
      net: number('USD, revenue minus the price of the returned sales'),
      leadRate: number('Leads per visitor'),
      acceptedLeadRate: number('Accepted leads per visitor'),
      revenuePerVisitor: number('Net USD per visitor'),
      conversions: count(
        'Conversions of the primary metric: leads, accepted leads, or leads with net revenue',
      ),
    }),
  ),
  comparisons: z.array(
    z.object({
      arm: text('The arm compared with the control'),
      metric: z.enum(PRIMARY_METRICS),
      control: number('The control’s mean per visitor (USD for revenue)'),
      treatment: number('This arm’s mean per visitor'),
      absolute: number('Treatment minus control'),
      relative: nullableNumber('Treatment over control, minus 1; null when the control is 0'),
      sequential: z
        .object({ absolute: interval, relative: interval.nullable() })
        .describe('95 % intervals valid however often they are read (asymptotic confidence sequence)'),
      fixed: z
        .object({ absolute: interval, relative: interval.nullable() })
        .describe('95 % intervals valid only when read once, at the planned size'),
      pValue: number(
        'Two-sided, fixed-horizon: like the fixed interval, only meaningful at the planned size',
      ),
    }),
  ),
  srm: z.object({
    pValue: number('Pearson chi-square of the exposures against the weights'),
    ok: flag('False below 0.001: the split is not the one asked for, and the results cannot be trusted'),
  }),
  multipleExposureRate: number('Share of visitors counted in more than one arm'),
  enoughData: flag('Every arm has 100 visitors and 25 conversions, and 7 days have passed'),
  verdict: nullableText('Plain words, only once there is enough data'),
  salesInReturnWindow: count('Sales not returned and still inside their buyer’s return window: net may fall'),
});
