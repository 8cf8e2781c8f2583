import { describe, expect, it } from 'vitest';
import { isPublicAddress, normaliseHostname, outboundUrlProblem, refusedRange } from './outbound-address';

// The outbound guard's table (issue 38, ADR 066): every range it refuses, with an address at each end
// where that says something, and the public addresses on either side of them that it must let through.

const REFUSED: [range: string, addresses: string[]][] = [
  ['"this network" (0.0.0.0/8)', ['0.0.0.0', '0.255.255.255']],
  ['private (10.0.0.0/8)', ['10.0.0.0', '10.255.255.255']],
  ['shared address space (carrier-grade NAT) (100.64.0.0/10)', ['100.64.0.0', '100.127.255.255']],
  ['loopback (127.0.0.0/8)', ['127.0.0.1', '127.255.255.254']],
  ['link-local (cloud metadata) (169.254.0.0/16)', ['169.254.169.254', '169.254.0.1']],
  ['private (172.16.0.0/12)', ['172.16.0.1', '172.31.255.255']],
  ['IETF protocol assignments (192.0.0.0/24)', ['192.0.0.8', '192.0.0.170']],
  ['documentation (TEST-NET-1) (192.0.2.0/24)', ['192.0.2.1']],
  ['6to4 relay anycast (deprecated) (192.88.99.0/24)', ['192.88.99.1']],
  ['private (192.168.0.0/16)', ['192.168.0.1', '192.168.255.255']],
  ['benchmarking (198.18.0.0/15)', ['198.18.0.1', '198.19.255.255']],
  ['documentation (TEST-NET-2) (198.51.100.0/24)', ['198.51.100.7']],
  ['documentation (TEST-NET-3) (203.0.113.0/24)', ['203.0.113.7']],
  ['multicast (224.0.0.0/4)', ['224.0.0.1', '239.255.255.250']],
  ['reserved (and broadcast) (240.0.0.0/4)', ['240.0.0.1', '255.255.255.255']],
  ['unspecified (::/128)', ['::']],
  ['loopback (::1/128)', ['::1', '0:0:0:0:0:0:0:1']],
  ['IPv4-mapped (::ffff:0:0/96)', ['::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', '::ffff:7f00:1']],
  ['IPv4-translated (::ffff:0:0:0/96)', ['::ffff:0:8.8.8.8']],
  ['IPv4-compatible (deprecated) (::/96)', ['::127.0.0.1', '::8.8.8.8']],
  ['NAT64 (64:ff9b::/96) of private (10.0.0.0/8)', ['64:ff9b::10.0.0.1', '64:ff9b::a00:1']],
  ['NAT64 (64:ff9b::/96) of loopback (127.0.0.0/8)', ['64:ff9b::7f00:1']],
  ['NAT64 (64:ff9b::/96) of link-local (cloud metadata) (169.254.0.0/16)', ['64:ff9b::169.254.169.254']],
  ['local-use NAT64 (64:ff9b:1::/48)', ['64:ff9b:1::808:808']],
  ['discard-only (100::/64)', ['100::1']],
  [
    'IETF protocol assignments (Teredo, benchmarking, ORCHID) (2001::/23)',
    ['2001::1', '2001:2::1', '2001:1ff::1'],
  ],
  ['documentation (2001:db8::/32)', ['2001:db8::1']],
  ['6to4 (2002::/16) of private (192.168.0.0/16)', ['2002:c0a8:101::1']],
  ['6to4 (2002::/16) of loopback (127.0.0.0/8)', ['2002:7f00:1::']],
  ['documentation (3fff::/20)', ['3fff::1']],
  ['SRv6 segment identifiers (5f00::/16)', ['5f00::1']],
  ['unique-local (fc00::/7)', ['fc00::1', 'fd12:3456:789a::1']],
  ['link-local (fe80::/10)', ['fe80::1', 'fe80::1%eth0', 'febf::1']],
  ['site-local (deprecated) (fec0::/10)', ['fec0::1', 'feff::1']],
  ['multicast (ff00::/8)', ['ff02::1', 'ff05::1:3']],
  ['reserved (outside 2000::/3)', ['400::1', '4000::1', 'e000::1']],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '2001:200::1',
];

describe('the outbound address guard', () => {
  it.each(REFUSED)('refuses %s', (name, addresses) => {
    for (const address of addresses) {
      expect({ address, range: refusedRange(address) }).toEqual({ address, range: name });
      expect(isPublicAddress(address)).toBe(false);
    }
  });

  it('lets public addresses through, right next to the refused ranges', () => {
    for (const address of PUBLIC) expect({ address, range: refusedRange(address) }).toEqual({ address });
  });

  it('refuses what is no IP address', () => {
    for (const text of ['', 'example.com', '1.2.3', '::g']) expect(isPublicAddress(text)).toBe(false);
  });

  it('normalises host names before comparing them: case, one trailing dot, brackets', () => {
    expect(normaliseHostname('LOCALHOST.')).toBe('localhost');
    expect(normaliseHostname('Crm.Example.COM')).toBe('crm.example.com');
    expect(normaliseHostname('[FEC0::1]')).toBe('fec0::1');
    expect(normaliseHostname('localhost..')).toBeUndefined();
    expect(normaliseHostname('a..b')).toBeUndefined();
  });

  it.each([
    ['https://crm.example.com/hooks', false, undefined],
    ['https://crm.example.com./hooks', false, undefined],
    ['http://crm.example.com/hooks', false, 'url must be an https:// URL'],
    ['ftp://crm.example.com/hooks', true, 'url must be an http(s):// URL'],
    ['https://user:secret@crm.example.com/', false, 'url must not contain credentials'],
    ['https://127.0.0.1/x', false, 'url must point to a public address, not loopback (127.0.0.0/8)'],
    ['https://2130706433/x', false, 'url must point to a public address, not loopback (127.0.0.0/8)'],
    ['https://0x7f.1/x', false, 'url must point to a public address, not loopback (127.0.0.0/8)'],
    ['https://127.0.0.1./x', false, 'url must point to a public address, not loopback (127.0.0.0/8)'],
    ['https://10.1.2.3/x', false, 'url must point to a public address, not private (10.0.0.0/8)'],
    ['https://[::1]/x', false, 'url must point to a public address, not loopback (::1/128)'],
    [
      'https://[fec0::1]/',
      false,
      'url must point to a public address, not site-local (deprecated) (fec0::/10)',
    ],
    ['https://[::ffff:a00:1]/', false, 'url must point to a public address, not IPv4-mapped (::ffff:0:0/96)'],
    ['https://localhost/x', false, 'url must point to a public address, not a local name'],
    ['https://LOCALHOST./', false, 'url must point to a public address, not a local name'],
    ['https://api.LocalHost./', false, 'url must point to a public address, not a local name'],
    ['https://printer.local/', false, 'url must point to a public address, not a local name'],
    ['https://localhost../', false, 'url must name a host'],
    ['http://127.0.0.1:8080/x', true, undefined],
    ['http://localhost:8080/x', true, undefined],
    ['not a url', false, 'url must be an absolute https:// URL'],
    ['not a url', true, 'url must be an absolute http(s):// URL'],
  ])('%s (private allowed: %s) → %s', (url, allowPrivate, problem) => {
    expect(outboundUrlProblem(url, allowPrivate)).toBe(problem);
  });
});
