import * as z from 'zod/mini';
import { cleanAttribution } from './attribution';

/**
 * The attribution field of the track and lead-submission requests (issue 15): optional, any shape;
 * what is usable is kept (cleanAttribution), the rest dropped — never a reason to refuse a request.
 */
export const attributionField = z.pipe(
  z.optional(z.unknown()),
  z.transform((raw: unknown) => cleanAttribution(raw)),
);
