import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { usernameKey } from '@uf/shared/admin.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import { LOGIN_MESSAGES } from '@uf/shared/messages';
import { AdminUser } from '../db/entities/admin-user.entity';
import { AppError } from '../errors';
import {
  DEFAULT_SCRYPT_LOG_N,
  dummyPasswordHash,
  generatePassword,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './password';

const MIN_PASSWORD = 8;

function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD) {
    throw new AppError(ERROR_CODES.validation, `Password must be at least ${MIN_PASSWORD} characters`);
  }
}

/** By name as usernameKey() compares it: trimmed, normalised, any case (ILIKE without wildcards). */
async function findByUsername(em: EntityManager, username: string) {
  const key = usernameKey(username);
  return em.findOne(AdminUser, { username: { $ilike: key.replace(/[\\%_]/g, '\\$&') } });
}

export type HashingOptions = { scryptLogN?: number };

export async function createAdmin(
  em: EntityManager,
  username: string,
  password: string,
  options: HashingOptions = {},
) {
  const name = username.trim().normalize('NFKC');
  if (!name) throw new AppError(ERROR_CODES.validation, LOGIN_MESSAGES.usernameRequired);
  checkPassword(password);
  if (await findByUsername(em, name)) {
    throw new AppError(ERROR_CODES.conflict, `An admin named '${name}' already exists`);
  }
  const user = em.create(AdminUser, {
    username: name,
    passwordHash: await hashPassword(password, options.scryptLogN),
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await em.flush();
  return { id: user.id, username: user.username };
}

export async function findAdminOrFail(em: EntityManager, username: string) {
  const user = await findByUsername(em, username);
  if (!user) throw new AppError(ERROR_CODES.notFound, `No admin named '${username}'`);
  return user;
}

export async function resetAdminPassword(
  em: EntityManager,
  username: string,
  password: string,
  options: HashingOptions = {},
) {
  checkPassword(password);
  const user = await findAdminOrFail(em, username);
  user.passwordHash = await hashPassword(password, options.scryptLogN);
  await em.flush();
  return { id: user.id, username: user.username };
}

export async function listAdmins(em: EntityManager) {
  const users = await em.find(AdminUser, {}, { orderBy: { createdAt: 'asc' } });
  return users.map((u) => ({ id: u.id, username: u.username, createdAt: u.createdAt }));
}

/** Same answer and about the same time whether the user is unknown or the password wrong. */
export async function authenticate(
  em: EntityManager,
  username: string,
  password: string,
  options: HashingOptions = {},
) {
  const user = await findByUsername(em, username);
  const ok = await verifyPassword(
    password,
    user?.passwordHash ?? (await dummyPasswordHash(options.scryptLogN)),
  );
  if (!user || !ok) throw new AppError(ERROR_CODES.unauthorized, LOGIN_MESSAGES.invalidCredentials);
  return user;
}

/** After a successful sign-in: a hash made with other parameters is rewritten with today's (ADR 058). */
export async function rehashIfNeeded(
  em: EntityManager,
  user: { passwordHash: string },
  password: string,
  options: HashingOptions = {},
): Promise<boolean> {
  const logN = options.scryptLogN ?? DEFAULT_SCRYPT_LOG_N;
  if (!needsRehash(user.passwordHash, logN)) return false;
  user.passwordHash = await hashPassword(password, logN);
  await em.flush();
  return true;
}

export type InitialAdmin =
  | { status: 'exists' }
  | { status: 'created'; username: string; generatedPassword?: string }
  | { status: 'missing' };

/**
 * On start: with no admin in the database, create one from ADMIN_USERNAME / ADMIN_PASSWORD, or — in
 * the embedded mode with neither set — with a generated password that is printed once.
 */
export async function ensureInitialAdmin(
  em: EntityManager,
  options: { username?: string; password?: string; allowGenerated: boolean; scryptLogN?: number },
): Promise<InitialAdmin> {
  if ((await em.count(AdminUser, {})) > 0) return { status: 'exists' };
  if (!(options.username && options.password) && !options.allowGenerated) return { status: 'missing' };
  const username = options.username?.trim() || 'admin';
  const password = options.password ?? generatePassword();
  try {
    await createAdmin(em, username, password, { scryptLogN: options.scryptLogN });
  } catch (err) {
    // Insert-if-absent: main.ts already takes turns under an advisory lock, but a replica that loses a
    // race by any other way (another tool, a database without the lock) must come up, not crash.
    if (
      err instanceof UniqueConstraintViolationException ||
      (err instanceof AppError && err.code === ERROR_CODES.conflict)
    ) {
      return { status: 'exists' };
    }
    throw err;
  }
  return { status: 'created', username, generatedPassword: options.password ? undefined : password };
}
