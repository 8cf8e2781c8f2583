import type { FastifyInstance } from 'fastify';
import { createAdmin } from '../../src/admin/admin-user.service';
import { TEST_SCRYPT_LOG_N } from './test-app';

export const ADMIN = { username: 'alice', password: 'correct horse battery' };

export async function seedAdmin(app: FastifyInstance, admin = ADMIN, scryptLogN = TEST_SCRYPT_LOG_N) {
  await createAdmin(app.db.orm.em.fork(), admin.username, admin.password, { scryptLogN });
}

/** Signs in through the REST surface; returns the cookie header value to send afterwards. */
export async function signIn(app: FastifyInstance, admin = ADMIN): Promise<Record<string, string>> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/login', payload: admin });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'uf_admin');
  if (!cookie) throw new Error('no session cookie');
  return { uf_admin: cookie.value };
}
