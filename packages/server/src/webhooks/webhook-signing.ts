import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signatures (ADR 062): `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`,
// keyed with the bytes the secret's base64 after `whsec_` encodes. Several signatures (a rotation's
// old and new secret) go space-separated in one header; receivers accept any that verifies.

const PREFIX = 'whsec_';

/** A new endpoint secret: 32 random bytes (the spec asks for 24 to 64), as `whsec_<base64>`. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret still signing. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string) {
  return secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' ');
}
