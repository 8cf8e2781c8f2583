import { hash, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { dateAndTimeIn } from '../platform/time';

// Cookieless unique visitors (issue 15, ADR 055), counted the way Plausible does: a visitor id is a
// hash of a secret salt, the client IP and the user agent. The salt belongs to one calendar day (in
// TIME_ZONE); at the first event of a new day a new salt is made and every older one is deleted, so a
// visitor can be recognised within the day and never across days, and no stored id can be traced back
// to an address. The IP itself is never stored. Every replica uses the same salt: the first to insert
// the day's row wins, the others read it.

const SEPARATOR = Buffer.from([0]);

/** The visitor id: the first 8 bytes of SHA-256(salt, IP, user agent) as a signed 64-bit integer. */
export function visitorIdFor(salt: Buffer, ip: string, userAgent: string): string {
  // One-shot hashing of one buffer: the same digest as updating a Hash object part by part, at about
  // half the CPU time per event.
  const input = Buffer.concat([salt, SEPARATOR, Buffer.from(ip), SEPARATOR, Buffer.from(userAgent)]);
  return hash('sha256', input, 'buffer').readBigInt64BE(0).toString();
}

export type VisitorHasher = {
  /** The visitor id for this request on `now`'s day; null without an IP. */
  visitorId(ip: string | null, userAgent: string | undefined, now?: Date): Promise<string | null>;
};

export function createVisitorHasher(pool: Pool, timeZone: string): VisitorHasher {
  let current: { day: string; salt: Promise<Buffer> } | undefined;

  async function saltOf(day: string): Promise<Buffer> {
    await pool.query('insert into analytics_salt (day, salt) values ($1, $2) on conflict (day) do nothing', [
      day,
      randomBytes(32),
    ]);
    const { rows } = await pool.query<{ salt: Buffer }>('select salt from analytics_salt where day = $1', [
      day,
    ]);
    const salt = rows[0]?.salt;
    if (!salt) throw new Error(`analytics salt for ${day} is missing`);
    // Rotation: yesterday's salt (and any older) is gone once today's exists.
    await pool.query('delete from analytics_salt where day < $1', [day]);
    return salt;
  }

  return {
    async visitorId(ip, userAgent, now = new Date()) {
      if (!ip) return null;
      const { date } = dateAndTimeIn(now, timeZone);
      if (current?.day !== date) {
        const salt = saltOf(date);
        current = { day: date, salt };
        // A failed look-up is tried again by the next event, not cached.
        salt.catch(() => {
          if (current?.salt === salt) current = undefined;
        });
      }
      return visitorIdFor(await current.salt, ip, userAgent ?? '');
    },
  };
}
