import { z } from 'zod';
import { BENEFICIARY_VALUES } from './constants';
import { nullableText, text, uuid } from './output-fields';

// What the public lead operations answer (issue 23: their procedures' `.output()`).

/** A stored lead's id (the form's submit, the partner API). */
export const idOutputSchema = z.object({ id: uuid('UUID') }).meta({ id: 'Id' });

/** GET /api/leads/:id: id and state, nothing personal. */
export const publicLeadOutputSchema = z.object({
  id: uuid(),
  state: nullableText('Two-letter code or null'),
});

/** PATCH /api/leads/:id/beneficiary. */
export const beneficiaryOutputSchema = z.object({ id: text(), beneficiary: z.enum(BENEFICIARY_VALUES) });
