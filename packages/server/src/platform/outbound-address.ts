import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

// Where the server may send requests of its own (webhooks today, the buyers' posts next): the one guard
// every outbound request goes through (issue 38, ADR 066). Only public addresses, unless the caller
// allows private ones (WEBHOOKS_ALLOW_PRIVATE_URLS: local receivers and tests). Three checks:
// - when a URL is saved: the scheme, no credentials, and a host name normalised (case, one trailing dot)
//   before it is compared, so `LOCALHOST.` is `localhost` and `[fec0::1]` is a site-local address;
// - when connecting: the agent resolves the host itself (an IP literal resolves to itself) and refuses
//   the connection unless every address is public, then connects to the checked addresses only — never
//   to a name resolved again — so DNS rebinding and literals saved before a rule existed are caught alike;
// - redirects are never followed (Node's http does not; callers must not add it).

/** A refused range: what an admin reads when an address is refused. */
type Range = { name: string; net: Uint8Array; bits: number };

/** The 4 or 16 bytes of an IP address, or undefined when `address` is none. A zone (`%eth0`) is ignored. */
export function ipBytes(address: string): Uint8Array | undefined {
  const plain = address.replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 4) return Uint8Array.from(plain.split('.').map(Number));
  if (family !== 6) return undefined;
  let text = plain.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail.push(...dotted[1].split('.').map(Number));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const before = groups(head);
  const after = rest === undefined ? [] : groups(rest);
  const all = [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

function within(bytes: Uint8Array, net: Uint8Array, bits: number): boolean {
  if (bytes.length !== net.length) return false;
  for (let i = 0; i < bits; i += 8) {
    const mask = bits - i >= 8 ? 0xff : (0xff << (8 - (bits - i))) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((net[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const range = (name: string, cidr: string): Range => {
  const [net = '', bits = ''] = cidr.split('/');
  const bytes = ipBytes(net);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { name: `${name} (${cidr})`, net: bytes, bits: Number(bits) };
};

/**
 * IPv4 addresses that are not public: IANA's special-purpose registry, less the few entries that are
 * globally reachable services (AS112, AMT), which no receiver is.
 */
const IPV4_REFUSED: Range[] = [
  range('"this network"', '0.0.0.0/8'),
  range('private', '10.0.0.0/8'),
  range('shared address space (carrier-grade NAT)', '100.64.0.0/10'),
  range('loopback', '127.0.0.0/8'),
  range('link-local (cloud metadata)', '169.254.0.0/16'),
  range('private', '172.16.0.0/12'),
  range('IETF protocol assignments', '192.0.0.0/24'),
  range('documentation (TEST-NET-1)', '192.0.2.0/24'),
  range('6to4 relay anycast (deprecated)', '192.88.99.0/24'),
  range('private', '192.168.0.0/16'),
  range('benchmarking', '198.18.0.0/15'),
  range('documentation (TEST-NET-2)', '198.51.100.0/24'),
  range('documentation (TEST-NET-3)', '203.0.113.0/24'),
  range('multicast', '224.0.0.0/4'),
  range('reserved (and broadcast)', '240.0.0.0/4'),
];

/** IPv6 ranges refused outright, most specific first. */
const IPV6_REFUSED: Range[] = [
  range('unspecified', '::/128'),
  range('loopback', '::1/128'),
  range('IPv4-mapped', '::ffff:0:0/96'),
  range('IPv4-translated', '::ffff:0:0:0/96'),
  range('IPv4-compatible (deprecated)', '::/96'),
  range('local-use NAT64', '64:ff9b:1::/48'),
  range('discard-only', '100::/64'),
  range('IETF protocol assignments (Teredo, benchmarking, ORCHID)', '2001::/23'),
  range('documentation', '2001:db8::/32'),
  range('documentation', '3fff::/20'),
  range('SRv6 segment identifiers', '5f00::/16'),
  range('unique-local', 'fc00::/7'),
  range('link-local', 'fe80::/10'),
  range('site-local (deprecated)', 'fec0::/10'),
  range('multicast', 'ff00::/8'),
];

/** IPv6 ranges that carry an IPv4 address: refused when the address inside is. */
const NAT64 = range('NAT64', '64:ff9b::/96');
const SIX_TO_FOUR = range('6to4', '2002::/16');
/** Global unicast: an IPv6 address outside it is reserved, not public. */
const GLOBAL_UNICAST = range('global unicast', '2000::/3');

/**
 * Why `address` is not a public address — the name of the range that refuses it — or undefined when it
 * is public. Not an IP address at all: refused as such.
 */
export function refusedRange(address: string): string | undefined {
  const bytes = ipBytes(address);
  if (!bytes) return 'not an IP address';
  if (bytes.length === 4) return IPV4_REFUSED.find((r) => within(bytes, r.net, r.bits))?.name;
  for (const [carrier, at] of [
    [NAT64, 12],
    [SIX_TO_FOUR, 2],
  ] as const) {
    if (!within(bytes, carrier.net, carrier.bits)) continue;
    const inner = bytes.subarray(at, at + 4);
    const innerRange = refusedRange(Array.from(inner).join('.'));
    return innerRange ? `${carrier.name} of ${innerRange}` : undefined;
  }
  const refused = IPV6_REFUSED.find((r) => within(bytes, r.net, r.bits))?.name;
  if (refused) return refused;
  if (!within(bytes, GLOBAL_UNICAST.net, GLOBAL_UNICAST.bits)) return 'reserved (outside 2000::/3)';
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  return refusedRange(address) === undefined;
}

/**
 * A URL's host as the checks compare it: lower case, brackets of an IPv6 literal removed, one trailing
 * dot removed (`localhost.` is `localhost`). Undefined for a name with an empty label (`a..b`, `x..`):
 * no receiver has one.
 */
export function normaliseHostname(hostname: string): string | undefined {
  let host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(host)) return host;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || host.split('.').some((label) => label === '')) return undefined;
  return host;
}

/** Names that only ever mean this machine or the local network (RFC 6761, RFC 6762, RFC 8375). */
const LOCAL_NAMES = /(?:^|\.)(?:localhost|local|internal|home\.arpa|localdomain)$/;

/** Why `raw` cannot be an outbound URL, or undefined when it can. */
export function outboundUrlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Under WEBHOOKS_ALLOW_PRIVATE_URLS http:// is accepted too: the message says so (issue 37).
    return allowPrivate ? 'url must be an absolute http(s):// URL' : 'url must be an absolute https:// URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'url must be an http(s):// URL' : 'url must be an https:// URL';
  }
  if (url.username || url.password) return 'url must not contain credentials';
  const host = normaliseHostname(url.hostname);
  if (!host) return 'url must name a host';
  if (allowPrivate) return undefined;
  if (isIP(host)) {
    const refused = refusedRange(host);
    if (refused) return `url must point to a public address, not ${refused}`;
  } else if (LOCAL_NAMES.test(host)) {
    return 'url must point to a public address, not a local name';
  }
  return undefined;
}

/** A connection the guard refused: its message names the address and the range. */
export class OutboundAddressError extends Error {
  override name = 'OutboundAddressError';
  readonly code = 'EOUTBOUNDADDRESS';
}

export type LookupAll = (
  hostname: string,
  options: { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export type OutboundOptions = {
  allowPrivate: boolean;
  /** The resolver (tests inject one; never real DNS of a public name there). Default: the system's. */
  lookup?: LookupAll;
};

type ConnectOptions = import('node:http').ClientRequestArgs;
type Created = (err: Error | null, stream: import('node:stream').Duplex) => void;

/**
 * Resolves the host (an IP literal to itself), refuses it unless every address is allowed, and connects
 * to the checked addresses: the address connected to is always one this guard passed.
 */
function guardedConnect(
  options: OutboundOptions,
  connectOptions: ConnectOptions,
  connect: (options: ConnectOptions) => import('node:stream').Duplex | null | undefined,
  done: Created,
) {
  const fail = (err: Error) => done(err, undefined as never);
  // Resolved as written (a trailing dot keeps its meaning to the resolver); every answer is checked.
  const host = String(connectOptions.host ?? '').replace(/^\[|\]$/g, '');
  if (!host) return fail(new OutboundAddressError('no host to connect to'));
  const lookup = options.lookup ?? (dnsLookup as unknown as LookupAll);
  lookup(host, { all: true }, (err, addresses) => {
    if (err) return fail(err);
    const first = addresses[0];
    if (!first) return fail(new OutboundAddressError(`${host} has no address`));
    if (!options.allowPrivate) {
      for (const a of addresses) {
        const refused = refusedRange(a.address);
        if (refused) {
          const which = a.address === host ? host : `${host} (${a.address})`;
          return fail(new OutboundAddressError(`refused to connect to ${which}: ${refused}`));
        }
      }
    }
    // The connection is given the checked answers instead of a resolver: it tries them in turn (Node's
    // happy eyeballs, for a receiver whose IPv6 route is down) and can reach no other address. An IP
    // literal is connected to as it is — it was its own answer.
    const checked: LookupAddress[] = addresses;
    const replay = (
      _host: string,
      lookupOptions: { all?: boolean },
      callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => (lookupOptions?.all ? callback(null, checked) : callback(null, first.address, first.family));
    let socket: import('node:stream').Duplex | null | undefined;
    try {
      socket = connect({ ...connectOptions, lookup: replay as never });
    } catch (e) {
      return fail(e as Error);
    }
    if (socket) done(null, socket);
    else fail(new OutboundAddressError(`could not connect to ${host}`));
  });
}

/**
 * How long a kept-alive connection may sit idle before we close it: below the idle timeouts servers
 * commonly use (Node's and Apache's 5 s), so we seldom send on a connection the receiver is closing (the
 * race Node's documentation warns of; outbound-request.ts retries the rest once). A receiver that
 * announces a shorter `Keep-Alive: timeout=` is believed (Node's agent closes a second before it).
 */
export const OUTBOUND_IDLE_MS = 4_000;

/** Keep-alive agents whose every new connection goes through the guard. */
export function outboundAgents(options: OutboundOptions, keepAlive = true) {
  const agentOptions = keepAlive
    ? { keepAlive: true, maxSockets: 64, timeout: OUTBOUND_IDLE_MS }
    : { keepAlive: false, maxSockets: 1 };
  // Asynchronous createConnection (Node's agents wait for the callback when nothing is returned).
  class GuardedHttpAgent extends http.Agent {
    override createConnection(connectOptions: ConnectOptions, done?: Created) {
      if (done) guardedConnect(options, connectOptions, (o) => super.createConnection(o), done);
      return undefined;
    }
  }
  class GuardedHttpsAgent extends https.Agent {
    override createConnection(connectOptions: ConnectOptions, done?: Created) {
      if (done) guardedConnect(options, connectOptions, (o) => super.createConnection(o), done);
      return undefined;
    }
  }
  return { http: new GuardedHttpAgent(agentOptions), https: new GuardedHttpsAgent(agentOptions) };
}

const shared = new Map<boolean, ReturnType<typeof outboundAgents>>();

/** The agent for `url`'s scheme: one shared pair per setting, or fresh ones with an injected resolver. */
export function outboundAgentFor(url: URL, options: OutboundOptions): http.Agent {
  let agents = options.lookup ? undefined : shared.get(options.allowPrivate);
  if (!agents) {
    agents = outboundAgents(options);
    if (!options.lookup) shared.set(options.allowPrivate, agents);
  }
  return url.protocol === 'https:' ? agents.https : agents.http;
}

/** A guarded agent for one request on a connection of its own (never a kept one), closed after it. */
export function singleUseAgentFor(url: URL, options: OutboundOptions): http.Agent {
  const agents = outboundAgents(options, false);
  return url.protocol === 'https:' ? agents.https : agents.http;
}
