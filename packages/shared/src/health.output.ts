import { z } from 'zod';
import { text } from './output-fields';

// What the operations checks answer (GET /healthz, GET /readyz; ADR 056): read by the load balancer and
// the compose healthcheck, typed by the routes that answer (app.ts) and shown by the OpenAPI document.

export const aliveSchema = z.object({ status: z.literal('ok') });
export const notAliveSchema = z.object({
  status: z.literal('unhealthy'),
  database: text('What the embedded PostgreSQL is doing'),
});
export const readySchema = z.object({ status: z.literal('ready') });
export const notReadySchema = z.object({
  status: text(
    'Why this instance cannot serve now (database unavailable, writes failing, embedded database restarting)',
  ),
});

export type Alive = z.infer<typeof aliveSchema>;
export type NotAlive = z.infer<typeof notAliveSchema>;
export type Readiness = z.infer<typeof readySchema> | z.infer<typeof notReadySchema>;
