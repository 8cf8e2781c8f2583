import { createHash } from 'node:crypto';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { deviceClass } from '../analytics/device-class';
import { AppError } from '../errors';

// An admin's sessions (issue 25): listed from admin_session, ended by moving expires_at into the past.
// The store reads every request's session from PostgreSQL (expires_at > now()), so an ended session
// answers 401 at once on every replica, and its store write-back never revives it (plugins/session.ts).

/** The id a client sees: a digest of the session id, which is half of the cookie and stays secret. */
export const publicSessionId = (sid: string) =>
  createHash('sha256').update(sid).digest('base64url').slice(0, 22);

export type AdminSessionView = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  /** The browser as a person names it, 'Chrome on Windows' (issue 37); the user agent stays for detail. */
  browser: string;
  current: boolean;
};

function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown';
  const { browser, os } = deviceClass(userAgent);
  return os === 'Unknown' ? browser : `${browser} on ${os}`;
}

type Row = { sid: string; data: Record<string, unknown>; created_at: Date };

async function liveSessions(pool: Pool, adminId: string): Promise<Row[]> {
  const { rows } = await pool.query<Row>(
    `select sid, data, created_at from admin_session
     where admin_id = $1 and expires_at > now() order by created_at desc`,
    [adminId],
  );
  return rows;
}

export async function listSessions(
  pool: Pool,
  adminId: string,
  currentSid: string,
): Promise<AdminSessionView[]> {
  return (await liveSessions(pool, adminId)).map((r) => {
    const lastSeen = typeof r.data.lastSeenAt === 'number' ? new Date(r.data.lastSeenAt) : r.created_at;
    return {
      id: publicSessionId(r.sid),
      createdAt: r.created_at.toISOString(),
      lastSeenAt: lastSeen.toISOString(),
      ip: typeof r.data.ip === 'string' ? r.data.ip : null,
      userAgent: typeof r.data.userAgent === 'string' ? r.data.userAgent : null,
      browser: browserOf(typeof r.data.userAgent === 'string' ? r.data.userAgent : null),
      current: r.sid === currentSid,
    };
  });
}

async function endSids(pool: Pool, sids: string[]): Promise<number> {
  if (sids.length === 0) return 0;
  const r = await pool.query(
    `update admin_session set expires_at = '-infinity' where sid = any($1::text[]) and expires_at > now()`,
    [sids],
  );
  return r.rowCount ?? 0;
}

/** Ends one of the admin's sessions by its public id (404 when it is not one of theirs, or already over). */
export async function endSession(pool: Pool, adminId: string, id: string): Promise<AdminSessionView['id']> {
  const match = (await liveSessions(pool, adminId)).find((r) => publicSessionId(r.sid) === id);
  if (!match || (await endSids(pool, [match.sid])) === 0) {
    throw new AppError(ERROR_CODES.notFound, 'No such session');
  }
  return id;
}

/** Ends every session of the admin except `keepSid`; answers how many ended. */
export async function endOtherSessions(pool: Pool, adminId: string, keepSid: string | null): Promise<number> {
  const others = (await liveSessions(pool, adminId)).filter((r) => r.sid !== keepSid).map((r) => r.sid);
  return endSids(pool, others);
}
