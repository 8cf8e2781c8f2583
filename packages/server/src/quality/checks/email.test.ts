import { describe, expect, it } from 'vitest';
import { checkEmail, isDomainAllowed, mailboxKey, normaliseDomain } from './email';

const codes = (email: string) => checkEmail(email).codes;

describe('checkEmail', () => {
  it('accepts ordinary addresses, sub-addresses, apostrophes and international ones', () => {
    for (const email of [
      'jane@gmail.com',
      'Jane.Doe+quotes@Gmail.com',
      "mary.o'brien@bostonlaw.com",
      'a_b-c@sub.domain.co.uk',
      'x@mail.com',
      'josé@correo.es',
      'user@xn--bcher-kva.example.de',
      'user@bücher.de',
    ]) {
      expect(codes(email), email).toEqual([]);
    }
  });

  it('gives no code and no key for an absent address', () => {
    expect(checkEmail(null)).toEqual({ domain: null, key: null, suggestion: null, codes: [] });
    expect(checkEmail('  ')).toEqual({ domain: null, key: null, suggestion: null, codes: [] });
  });

  it('rejects bad syntax: local part, dots, lengths, labels and TLD', () => {
    for (const email of [
      'plainaddress',
      '@gmail.com',
      'a@@gmail.com',
      'a b@gmail.com',
      '.a@gmail.com',
      'a.@gmail.com',
      'a..b@gmail.com',
      '"quoted"@gmail.com',
      'a@gmail',
      'a@.gmail.com',
      'a@gmail..com',
      'a@-gmail.com',
      'a@gmail-.com',
      'a@gmail.c0m',
      'a@gmail.c',
      'a@123.456',
      'a@[192.168.0.1]',
      'a@gma_il.com',
      `${'a'.repeat(65)}@gmail.com`,
      `a@${'b'.repeat(64)}.com`,
      `a@${'b.'.repeat(126)}com`,
    ]) {
      expect(codes(email), email).toEqual(['EMAIL_INVALID']);
      expect(checkEmail(email).key, email).toBeNull();
    }
  });

  it('flags disposable domains and their subdomains', () => {
    expect(codes('x@mailinator.com')).toEqual(['EMAIL_DISPOSABLE']);
    expect(codes('x@MAILINATOR.com')).toEqual(['EMAIL_DISPOSABLE']);
    expect(codes('x@a.b.mailinator.com')).toEqual(['EMAIL_DISPOSABLE']);
    expect(codes('x@guerrillamail.com')).toEqual(['EMAIL_DISPOSABLE']);
    // Whole labels: a parent domain, never a string suffix.
    expect(codes('x@mailinator.com.acme.org')).toEqual([]);
    expect(codes('x@ilinator.com')).toEqual([]);
  });

  it('flags reserved names: example domains, reserved TLDs and localhost', () => {
    for (const email of [
      'a@example.com',
      'a@example.net',
      'a@example.org',
      'a@www.example.com',
      'a@acme.test',
      'a@site.example',
      'a@x.invalid',
      'a@localhost',
      'a@app.localhost',
    ]) {
      expect(codes(email), email).toEqual(['EMAIL_RESERVED']);
    }
    expect(codes('a@example.co')).toEqual([]);
    expect(codes('a@myexample.com')).toEqual([]);
  });

  it('flags typos of major providers with the suggestion', () => {
    expect(checkEmail('jane@gmial.com')).toMatchObject({
      codes: ['EMAIL_TYPO'],
      suggestion: 'jane@gmail.com',
    });
    // hotmial.com is on the disposable list too: the typo is the likelier story.
    expect(checkEmail('jane@hotmial.com')).toMatchObject({
      codes: ['EMAIL_TYPO'],
      suggestion: 'jane@hotmail.com',
    });
    expect(checkEmail('jane@gmail.com')).toMatchObject({ codes: [], suggestion: null });
  });

  it('normalises mailboxes: Gmail dots and +tags, googlemail, other providers’ tags, case', () => {
    expect(checkEmail('J.a.n.e+promo@GoogleMail.com').key).toBe('jane@gmail.com');
    expect(mailboxKey('Jane.Doe+x+y', 'gmail.com')).toBe('janedoe@gmail.com');
    expect(mailboxKey('jane.doe+news', 'outlook.com')).toBe('jane.doe@outlook.com');
    expect(mailboxKey('jane.doe+news', 'hotmail.co.uk')).toBe('jane.doe@hotmail.co.uk');
    expect(mailboxKey('jane+a', 'icloud.com')).toBe('jane@icloud.com');
    expect(mailboxKey('jane+a', 'proton.me')).toBe('jane@proton.me');
    expect(mailboxKey('jane-shopping', 'yahoo.com')).toBe('jane@yahoo.com');
    expect(mailboxKey('jane+a', 'yahoo.com')).toBe('jane+a@yahoo.com');
    // Elsewhere dots, tags and hyphens may be part of the mailbox name.
    expect(mailboxKey('Jane.Doe+a', 'acme.com')).toBe('jane.doe+a@acme.com');
    expect(mailboxKey('+a', 'gmail.com')).toBe('+a@gmail.com');
  });

  it('matches allow-listed domains and their subdomains, however the entry is written', () => {
    const allowed = new Set([' @Example.COM. ', 'acme.test'].map(normaliseDomain));
    expect(isDomainAllowed('example.com', allowed)).toBe(true);
    expect(isDomainAllowed('qa.example.com', allowed)).toBe(true);
    expect(isDomainAllowed('example.net', allowed)).toBe(false);
    expect(isDomainAllowed('example.com', new Set())).toBe(false);
  });
});
