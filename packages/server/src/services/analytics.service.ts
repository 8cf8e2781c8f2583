import type { TrackEvent } from '@uf/shared/analytics.schema';
import type { Database } from '../db/database';

/** Stores one visitor event. No IP address is ever stored with analytics. */
export async function trackEvent(db: Database, event: TrackEvent): Promise<void> {
  await db.pool.query(
    'insert into analytics_event (event_type, page, referrer, session_id) values ($1, $2, $3, $4)',
    [event.eventType, event.page, event.referrer || 'direct', event.sessionId],
  );
}
