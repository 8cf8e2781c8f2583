import { suggestEmail } from '@uf/shared/email-suggestion';
import type { ReasonCode } from '@uf/shared/quality';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';

// E-mail checks (issue 33). Offline, an address can be judged by its form and its domain only: whether
// the mailbox exists, or the domain still takes mail, needs a network call and is not known here.

export type EmailCode = Extract<
  ReasonCode,
  'EMAIL_INVALID' | 'EMAIL_DISPOSABLE' | 'EMAIL_RESERVED' | 'EMAIL_TYPO'
>;

export type EmailCheck = {
  domain: string | null;
  /** The mailbox after provider normalisation (the duplicate key); null when the address is invalid. */
  key: string | null;
  suggestion: string | null;
  codes: EmailCode[];
};

/**
 * The disposable-address domains of the community-maintained disposable-email-domains list, as
 * packaged by disposable-email-domains-js (CC0-1.0). Updating it is a dependency bump. Built once:
 * ≈ 9,000 domains.
 */
const DISPOSABLE = new Set(disposableEmailBlocklist().map((d) => d.toLowerCase()));

/** RFC 2606 / RFC 6761 names that never take real mail. */
const RESERVED_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost']);

// RFC 5322 dot-atom characters, plus letters and digits of any script (RFC 6531 internationalised
// mail). Quoted local parts and IP-literal domains are valid in RFC terms but never a person's
// address on a form: they count as invalid here.
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+$/u;
const LABEL = /^[a-z0-9\p{L}\p{N}](?:[a-z0-9\p{L}\p{M}\p{N}-]*[a-z0-9\p{L}\p{M}\p{N}])?$/u;
// A TLD is letters (any script) or an IDN's ASCII form; never all digits.
const TLD = /^(?:\p{L}[\p{L}\p{M}]+|xn--[a-z0-9-]+)$/u;

const MAX_ADDRESS = 254; // RFC 5321 path limit less the angle brackets
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const MAX_LABEL = 63;

function isValidLocal(local: string): boolean {
  if (local.length === 0 || local.length > MAX_LOCAL) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return ATOM.test(local.replaceAll('.', ''));
}

function isValidDomain(domain: string): boolean {
  if (domain.length > MAX_DOMAIN) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  for (const label of labels) {
    if (label.length === 0 || label.length > MAX_LABEL || !LABEL.test(label)) return false;
  }
  return TLD.test(labels[labels.length - 1]!);
}

/** The domain, or a parent domain of it, is in the set (a.b.mailinator.com → mailinator.com). */
function inSetWithParents(domain: string, set: ReadonlySet<string>): boolean {
  let candidate = domain;
  for (;;) {
    if (set.has(candidate)) return true;
    const dot = candidate.indexOf('.');
    if (dot < 0) return false;
    candidate = candidate.slice(dot + 1);
  }
}

function isReserved(domain: string): boolean {
  if (domain === 'localhost') return true;
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  return RESERVED_TLDS.has(tld) || inSetWithParents(domain, RESERVED_DOMAINS);
}

// Sub-addressing: mail to name+tag@ reaches name@ at these providers (name-tag@ at Yahoo's), so the
// tag does not make a new mailbox. Elsewhere a + may be part of the mailbox name: it is kept.
const GMAIL = new Set(['gmail.com', 'googlemail.com']);
const PLUS_TAGS = new Set([
  'msn.com',
  'passport.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'fastmail.com',
  'fastmail.fm',
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'hey.com',
  'yandex.com',
  'yandex.ru',
]);
// Microsoft's and Yahoo's country domains: outlook.com, hotmail.co.uk, live.fr, yahoo.com.mx…
const MICROSOFT = /^(?:outlook|hotmail|live|windowslive)\.(?:com|(?:com?\.)?[a-z]{2})$/;
const YAHOO = /^(?:yahoo\.(?:com|(?:com?\.)?[a-z]{2})|ymail\.com|rocketmail\.com)$/;

function cutAt(local: string, separator: string): string {
  const at = local.indexOf(separator);
  return at > 0 ? local.slice(0, at) : local;
}

/** Lower-cased mailbox, with the provider's aliases folded (Gmail's dots and +tags, googlemail.com). */
export function mailboxKey(local: string, domain: string): string {
  const name = local.toLowerCase();
  if (GMAIL.has(domain)) return `${cutAt(name, '+').replaceAll('.', '')}@gmail.com`;
  if (PLUS_TAGS.has(domain) || MICROSOFT.test(domain)) return `${cutAt(name, '+')}@${domain}`;
  if (YAHOO.test(domain)) return `${cutAt(name, '-')}@${domain}`;
  return `${name}@${domain}`;
}

/** A domain as an allow-list entry is written: "Example.com", "@example.com", " example.com. ". */
export function normaliseDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^@+/, '')
    .replace(/^\.+|\.+$/g, '');
}

export function isDomainAllowed(domain: string, allowed: ReadonlySet<string>): boolean {
  return allowed.size > 0 && inSetWithParents(domain, allowed);
}

export function checkEmail(value: string | null | undefined): EmailCheck {
  const address = value?.trim() ?? '';
  if (address === '') return { domain: null, key: null, suggestion: null, codes: [] };
  const at = address.lastIndexOf('@');
  const domain = at >= 0 ? address.slice(at + 1).toLowerCase() : null;
  const local = address.slice(0, Math.max(at, 0));
  if (!domain || address.length > MAX_ADDRESS || !isValidLocal(local)) {
    return { domain, key: null, suggestion: null, codes: ['EMAIL_INVALID'] };
  }
  // user@localhost is reserved rather than malformed: the reason is the more useful one.
  if (domain === 'localhost') {
    return { domain, key: mailboxKey(local, domain), suggestion: null, codes: ['EMAIL_RESERVED'] };
  }
  if (!isValidDomain(domain)) return { domain, key: null, suggestion: null, codes: ['EMAIL_INVALID'] };
  const key = mailboxKey(local, domain);
  if (isReserved(domain)) return { domain, key, suggestion: null, codes: ['EMAIL_RESERVED'] };
  // A slip on a major provider is read as one even when the list has the slip too (typo-squatters run
  // catch-all mail on gmial.com and hotmial.com): a person who mistyped is held with a suggestion,
  // not rejected.
  const suggestion = suggestEmail(address);
  if (suggestion) return { domain, key, suggestion, codes: ['EMAIL_TYPO'] };
  if (inSetWithParents(domain, DISPOSABLE))
    return { domain, key, suggestion: null, codes: ['EMAIL_DISPOSABLE'] };
  return { domain, key, suggestion: null, codes: [] };
}
