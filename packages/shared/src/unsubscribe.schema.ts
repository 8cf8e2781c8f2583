import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './lead.schema';
import { LEAD_FIELD_MESSAGES as M } from './messages';

// POST /api/unsubscribe and the /unsubscribe page (spec §2, §5: e-mail required, e-mail type).

export function createUnsubscribeSchema(exampleEmail: string) {
  return z.object({
    email: z.string({ error: M.emailRequired }).check(
      z.trim(),
      z.minLength(1, M.emailRequired),
      z.maxLength(254, 'Email address must be at most 254 characters'),
      z.refine((v) => v === '' || EMAIL_PATTERN.test(v), M.emailInvalid(exampleEmail)),
    ),
  });
}

export type UnsubscribeInput = z.infer<ReturnType<typeof createUnsubscribeSchema>>;

/** The one answer of POST /api/unsubscribe, whether or not the address was known (reveals nothing). */
export const UNSUBSCRIBE_ANSWER = {
  ok: true,
  message: 'If this address is on our lists, it will receive no more marketing messages from us.',
} as const;
