// Baseline for the analytics benchmark: the same Fastify, parsing the same JSON body, answering 204
// without touching a database. Started as its own process so it competes for the CPU exactly like the
// real server does. Prints the port it listens on.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverPackage = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/server/package.json',
);
const Fastify = createRequire(serverPackage)('fastify');

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post('/api/analytics/track', async (_req, reply) => reply.code(204).send());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
