import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureHeader } from './webhook-signing';

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
