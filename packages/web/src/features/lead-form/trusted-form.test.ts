import { describe, expect, it } from 'vitest';
import { consentEvidence, loadTrustedForm } from './trusted-form';

// A minimal stand-in for the few Document members the module touches (the unit tier runs in Node).
function fakeDocument(href: string, certValue?: string) {
  const appended: { src: string; async: boolean }[] = [];
  const doc = {
    defaultView: { location: new URL(href) },
    head: { appendChild: (el: { src: string; async: boolean }) => appended.push(el) },
    createElement: () => ({ src: '', async: false }),
    querySelector: (selector: string) =>
      certValue !== undefined && selector === 'input[name="xxTrustedFormCertUrl"]'
        ? { value: certValue }
        : null,
  };
  return { doc: doc as unknown as Document, appended };
}

describe('consentEvidence', () => {
  it('sends the page URL and a well-formed TrustedForm certificate', () => {
    const cert = 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567';
    const { doc } = fakeDocument('https://site.example/?utm=1', cert);
    expect(consentEvidence(doc)).toEqual({ pageUrl: 'https://site.example/?utm=1', trustedFormUrl: cert });
  });

  it('leaves out what the server would refuse: a foreign certificate, an over-long query', () => {
    const { doc } = fakeDocument(
      `https://site.example/path?q=${'x'.repeat(3000)}`,
      'https://evil.example/cert',
    );
    expect(consentEvidence(doc)).toEqual({ pageUrl: 'https://site.example/path' });
  });
});

describe('loadTrustedForm', () => {
  it('loads nothing unless enabled, then the script once', () => {
    const { doc, appended } = fakeDocument('https://site.example/');
    loadTrustedForm(false, doc);
    expect(appended).toHaveLength(0);
    loadTrustedForm(true, doc);
    loadTrustedForm(true, doc);
    expect(appended).toHaveLength(1);
    expect(appended[0]?.src).toMatch(
      /^https:\/\/api\.trustedform\.com\/trustedform\.js\?field=xxTrustedFormCertUrl&/,
    );
    expect(appended[0]?.async).toBe(true);
  });
});
