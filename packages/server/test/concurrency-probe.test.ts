import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectProbeStored, sendProbeBurst } from './support/probe';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';

// The concurrency probe against the built server on this run's database (PostgreSQL from DATABASE_URL,
// or the embedded PostgreSQL when the suite runs without it). embedded-mode.test.ts runs the same probe
// against the server's own embedded database.

let db: TestDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServerProcess({ DATABASE_URL: db.url });
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe('concurrency probe', () => {
  it('200 leads + 20 of one e-mail + 200 events at once: every answer right, every row stored once', async () => {
    if (!server) throw new Error('server not started');
    const shared = await sendProbeBurst(server.url);
    await server.stop(); // flushes queued analytics before it exits
    await expectProbeStored(db.url, shared);
  });
});
