import type { FastifyRequest } from 'fastify';

/** The client address as Fastify resolved it: forwarded headers count only from trusted proxies. */
export function clientIp(req: FastifyRequest): string | null {
  return req.ip || null;
}

export function userAgent(req: FastifyRequest): string | null {
  const ua = req.headers['user-agent'];
  return ua ? ua.slice(0, 512) : null;
}
