// What the benchmarks' baseline servers (bare-fastify, bare-group-commit, insert-per-request) share: the
// server package's own Fastify and pg, and how they listen and stop. Each is started as its own process
// by the bench (startProcess + printedPort), so it competes for the CPU like the real server does.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A dependency as the server package resolves it (the same version the app runs on). */
export const fromServer = createRequire(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/server/package.json'),
);

/**
 * Listens on a free port of 127.0.0.1 and prints it on the first line of standard output; on SIGTERM
 * closes the app, then runs `cleanup` (a pool to end) and exits.
 */
export async function serve(app, cleanup = async () => {}) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${app.server.address().port}\n`);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(cleanup)
      .then(() => process.exit(0));
  });
}
