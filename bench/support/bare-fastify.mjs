// Baseline for the analytics benchmark: the same Fastify, parsing the same JSON body, answering 204
// without touching a database. Started as its own process so it competes for the CPU exactly like the
// real server does. Prints the port it listens on.
import { fromServer, serve } from './baseline-server.mjs';

const Fastify = fromServer('fastify');

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post('/api/analytics/track', async (_req, reply) => reply.code(204).send());
await serve(app);
