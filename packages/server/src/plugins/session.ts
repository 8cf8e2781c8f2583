import fastifySession from '@fastify/session';
import type { FastifyInstance, Session } from 'fastify';
import fp from 'fastify-plugin';
import type { Pool } from 'pg';
import type { AppConfig } from '../config';
import { appSecret } from '../platform/app-secret';
import { isSecureCookie } from './secure-cookies';

declare module 'fastify' {
  interface Session {
    adminId?: string;
    username?: string;
    /** ms epoch of sign-in: the absolute lifetime counts from here. */
    signedInAt?: number;
    lastSeenAt?: number;
    /** Client address and user agent at sign-in, for the admin's list of sessions (issue 25). */
    ip?: string;
    userAgent?: string;
    /** ADMIN_REQUIRE_2FA and no two-factor yet: only the enrolment procedures answer (issue 25). */
    mustEnrolTwoFactor?: boolean;
  }
}

export const SESSION_COOKIE = 'uf_admin';
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** @fastify/session store over the admin_session table: every replica sees every session. */
export class PgSessionStore {
  constructor(private readonly pool: Pool) {}

  get(sid: string, callback: (err: unknown, session?: Session | null) => void) {
    this.pool
      .query<{ data: Session }>('select data from admin_session where sid = $1 and expires_at > now()', [sid])
      .then((r) => callback(null, r.rows[0]?.data ?? null), callback);
  }

  set(sid: string, session: Session, callback: (err?: unknown) => void) {
    const expires = session.cookie?.expires
      ? new Date(session.cookie.expires)
      : new Date(Date.now() + SESSION_IDLE_MS);
    // An ended session (expires_at moved to the past by endSessions()) is never written back to life
    // by a request of that session that was still in flight: the update only touches a live row.
    this.pool
      .query(
        `insert into admin_session (sid, data, expires_at, admin_id) values ($1, $2, $3, $4)
         on conflict (sid) do update set data = excluded.data, expires_at = excluded.expires_at,
           admin_id = excluded.admin_id
         where admin_session.expires_at > now()`,
        [sid, JSON.stringify(session), expires, session.adminId ?? null],
      )
      .then(() => callback(), callback);
  }

  destroy(sid: string, callback: (err?: unknown) => void) {
    this.pool.query('delete from admin_session where sid = $1', [sid]).then(() => callback(), callback);
  }
}

/** SESSION_SECRET, or one generated once and kept in the database so all replicas agree. */
async function resolveSecret(pool: Pool, configured: string | undefined): Promise<string> {
  return configured || appSecret(pool, 'session_secret');
}

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { config: AppConfig; pool: Pool }) => {
    const secret = await resolveSecret(opts.pool, opts.config.sessionSecret);
    const cookieSecure = opts.config.cookieSecure;
    // Before the session's own onSend hook (hooks run in the order they were added), which writes the
    // cookie: `Secure` as this request came (issue 38) — the cookie options are stored with the session,
    // so a session started over HTTP would otherwise keep its first answer's. And a session that ended
    // (sign-out) clears the browser's cookie instead of leaving a dead one behind.
    app.addHook('onSend', (req, reply, _payload, done) => {
      const secure = isSecureCookie(req, cookieSecure);
      if (req.session) {
        req.session.cookie.secure = secure;
      } else if (req.cookies?.[SESSION_COOKIE] !== undefined) {
        reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure });
      }
      done();
    });
    await app.register(fastifySession, {
      secret,
      cookieName: SESSION_COOKIE,
      store: new PgSessionStore(opts.pool),
      saveUninitialized: false,
      rolling: true,
      cookie: {
        httpOnly: true,
        sameSite: 'strict',
        secure: opts.config.cookieSecure,
        path: '/',
        maxAge: SESSION_IDLE_MS,
      },
    });

    const purge = setInterval(
      () => void opts.pool.query('delete from admin_session where expires_at <= now()').catch(() => {}),
      10 * 60 * 1000,
    );
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
