import { isHttpUrl, PAGE_URL_MAX } from '@uf/shared/consent-evidence.schema';
import type { FastifyRequest } from 'fastify';

/** The client address as Fastify resolved it: forwarded headers count only from trusted proxies. */
export function clientIp(req: FastifyRequest): string | null {
  return req.ip || null;
}

/** A request header's (first) value; undefined when the name is not configured or the header absent. */
export function headerValue(req: FastifyRequest, name: string | undefined): string | undefined {
  const value = name ? req.headers[name] : undefined;
  return Array.isArray(value) ? value[0] : value;
}

export function userAgent(req: FastifyRequest): string | null {
  const ua = req.headers['user-agent'];
  return ua ? ua.slice(0, 512) : null;
}

/** The Global Privacy Control signal (Sec-GPC: 1): the visitor opts out of sale and sharing. */
export function hasGpcSignal(req: FastifyRequest): boolean {
  return req.headers['sec-gpc'] === '1';
}

/** The page the visitor submitted from: what the form sent, else the Referer (http(s) only). */
export function pageUrlOf(req: FastifyRequest, sent: string | undefined): string | null {
  if (sent) return sent;
  const referer = req.headers.referer;
  if (!referer || referer.length > PAGE_URL_MAX || !isHttpUrl(referer)) return null;
  return referer;
}
