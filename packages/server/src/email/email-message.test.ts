import { describe, expect, it } from 'vitest';
import { escapeHtml, formatRate, renderAlert, renderSummary } from './email-message';

describe('e-mail bodies', () => {
  const sections = [
    { title: 'Leads', rows: [{ label: 'Website leads', value: '3' }] },
    { title: 'Top sources', rows: [{ label: '<script>alert(1)</script>', value: '2' }] },
    { title: 'Top states', rows: [] },
  ];

  it('a summary in plain text and HTML, every value escaped in the HTML', () => {
    const email = renderSummary({
      kind: 'Daily',
      periodLabel: '2026-11-24',
      timeZone: 'America/New_York',
      sections,
    });
    expect(email.subject).toBe('Daily lead summary, 2026-11-24');
    expect(email.text).toContain('Leads\n  Website leads: 3');
    expect(email.text).toContain('Top states\n  none');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).not.toContain('<script>');
  });

  it('a subject stays one line whatever a value holds', () => {
    const email = renderAlert({ title: 'x\r\nBcc: victim@example.com', lines: ['<b>'] });
    expect(email.subject).toBe('Alert: x Bcc: victim@example.com');
    expect(email.html).toContain('<p>&lt;b&gt;</p>');
  });

  it('rates and escapes', () => {
    expect(formatRate(1, 3)).toBe('33.3 %');
    expect(formatRate(0, 0)).toBe('–');
    expect(escapeHtml(`"a" & 'b'`)).toBe('&quot;a&quot; &amp; &#39;b&#39;');
  });
});
