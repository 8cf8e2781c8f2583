import { z } from 'zod';
import { ANALYTICS_EVENT_TYPES } from './constants';

export const trackEventSchema = z.object({
  eventType: z.enum(ANALYTICS_EVENT_TYPES, {
    error: `eventType must be one of: ${ANALYTICS_EVENT_TYPES.join(', ')}`,
  }),
  page: z
    .string({ error: 'page is required' })
    .trim()
    .min(1, 'page is required')
    .max(200, 'page is too long'),
  referrer: z.string({ error: 'referrer is required' }).max(2048, 'referrer is too long').default('direct'),
  sessionId: z
    .string({ error: 'sessionId is required' })
    .trim()
    .min(1, 'sessionId is required')
    .max(100, 'sessionId is too long'),
});
export type TrackEventInput = z.input<typeof trackEventSchema>;
export type TrackEvent = z.output<typeof trackEventSchema>;
