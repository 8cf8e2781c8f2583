import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureHeader } from './webhook-signing';
import { isPublicAddress, webhookUrlProblem } from './webhook-url';

describe('webhook URL rules', () => {
  it.each([
    ['https://crm.example.com/hooks', false, undefined],
    ['http://crm.example.com/hooks', false, 'url must be an https:// URL'],
    ['ftp://crm.example.com/hooks', true, 'url must be an http(s):// URL'],
    ['https://user:secret@crm.example.com/', false, 'url must not contain credentials'],
    ['https://127.0.0.1/x', false, 'url must point to a public address'],
    ['https://10.1.2.3/x', false, 'url must point to a public address'],
    ['https://[::1]/x', false, 'url must point to a public address'],
    ['https://localhost/x', false, 'url must point to a public address'],
    ['http://127.0.0.1:8080/x', true, undefined],
    ['not a url', false, 'url must be an absolute https:// URL'],
  ])('%s (private allowed: %s) → %s', (url, allowPrivate, problem) => {
    expect(webhookUrlProblem(url, allowPrivate)).toBe(problem);
  });

  it('tells public addresses from loopback, private, link-local and mapped ones', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isPublicAddress(ip)).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.5',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(ip)).toBe(false);
    }
  });
});

describe('webhook signatures', () => {
  it('verify with the reference implementation, one secret or two', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({
      type: 'lead.created',
      timestamp: new Date().toISOString(),
      data: { id: 'x' },
    });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([a, b], 'msg_1', ts, body),
    };
    expect(new Webhook(a).verify(body, headers)).toMatchObject({ type: 'lead.created' });
    expect(new Webhook(b).verify(body, headers)).toMatchObject({ type: 'lead.created' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
