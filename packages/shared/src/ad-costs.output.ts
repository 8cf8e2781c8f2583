import { z } from 'zod';
import { count, instant, isoDate, text } from './output-fields';

// What the ad cost operations answer (issue 35). The types of ./ad-costs.ts must satisfy these.

const money = (description: string) => z.number().meta({ description });

export const adCostImportAnswerSchema = z.object({
  imported: count('Rows written that were not there before'),
  replaced: count('Rows that replaced the same day, source and campaign imported before'),
  skipped: z
    .array(
      z.object({
        line: count('The line of the file (or the place in rows, from 1)'),
        reason: text(),
      }),
    )
    .describe('Rows refused (another currency, a Meta row spanning several days), each with why'),
  merged: z
    .array(
      z.object({
        lines: z.array(count()).describe('The lines merged (as skipped numbers them)'),
        date: isoDate(),
        source: text(),
        campaign: text('The first spelling, trimmed'),
        cost: money('USD, the lines summed'),
      }),
    )
    .describe(
      'Lines with the same day, source and campaign (case and spaces aside), written as one row with their costs summed',
    ),
});

export const adCostRowsSchema = z.object({
  rows: z.array(
    z.object({
      date: isoDate(),
      source: text('Lower case, as traffic sources are reported'),
      campaign: text('As imported; matched to traffic without regard to case'),
      cost: money('USD'),
      currency: text(),
      importedAt: instant(),
    }),
  ),
  totalCost: money('USD, of the rows listed'),
});

export const adCostsDeletedSchema = z.object({ deleted: count('Day rows deleted') });
