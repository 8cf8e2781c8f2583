import { describe, expect, it } from 'vitest';
import { escapeText, parseXml, XML_MAX_LENGTH } from './buyer-xml';

// The XML reader for buyers' answers (issue 34, ADR 069): the tree a rule reads, and every document it
// must refuse rather than read (DTDs, entities, malformed, too long).

describe('parseXml', () => {
  it('gives a plain tree of a buyer answer', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<!-- boberdoo-like -->
<response>
  <status>Matched</status>
  <best_bid>12.00</best_bid>
  <lead id="ignored"><id>L-77</id></lead>
</response>
`;
    expect(parseXml(text)).toEqual({
      response: { status: 'Matched', best_bid: '12.00', lead: { id: 'L-77' } },
    });
  });

  it('reads text: trimmed, entities and character references decoded, CDATA verbatim', () => {
    expect(parseXml('<a>  Tom &amp; Jerry &lt;3 &#65;&#x42; &quot;&apos;&gt; </a>')).toEqual({
      a: 'Tom & Jerry <3 AB "\'>',
    });
    expect(parseXml('<a><![CDATA[<b>not an element</b> & no entity &amp;]]></a>')).toEqual({
      a: '<b>not an element</b> & no entity &amp;',
    });
    expect(parseXml('<a>x<![CDATA[ & ]]>y</a>')).toEqual({ a: 'x & y' });
    expect(parseXml('<a>\n  spaced  \n</a>', { keepWhitespace: true })).toEqual({ a: '\n  spaced  \n' });
  });

  it('gives empty and self-closing elements as empty text', () => {
    expect(parseXml('<r><a></a><b/><c attr="1" /></r>')).toEqual({ r: { a: '', b: '', c: '' } });
    expect(parseXml('<r/>')).toEqual({ r: '' });
  });

  it('keeps the first of repeated siblings, and ignores text between child elements', () => {
    expect(parseXml('<r><e>first</e><e>second</e> stray text <f>x</f></r>')).toEqual({
      r: { e: 'first', f: 'x' },
    });
  });

  it('ignores attributes, even with > or / inside their quotes', () => {
    expect(parseXml('<r a="1 > 0" b=\'/\'><s x="a/b">v</s></r>')).toEqual({ r: { s: 'v' } });
  });

  it('skips comments and processing instructions anywhere', () => {
    expect(
      parseXml('<?xml version="1.0"?><!-- c --><r><!-- <x>no</x> --><?pi data?><a>1</a></r><!-- end -->'),
    ).toEqual({ r: { a: '1' } });
  });

  it('makes own properties of hostile element names', () => {
    const tree = parseXml(
      '<r><__proto__><polluted>yes</polluted></__proto__><constructor>c</constructor></r>',
    );
    expect(tree).not.toBeNull();
    const r = tree?.r as Record<string, unknown>;
    expect(Object.hasOwn(r, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(r.constructor).toBe('c');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses any DTD or entity declaration', () => {
    expect(parseXml('<!DOCTYPE r [<!ENTITY x "boom">]><r>&x;</r>')).toBeNull();
    expect(parseXml('<!doctype r><r>1</r>')).toBeNull();
    expect(parseXml('<r><![CDATA[ <!ENTITY inside> ]]></r>')).toBeNull();
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`;
    expect(parseXml(laughs)).toBeNull();
    expect(parseXml('<!DOCTYPE r SYSTEM "file:///etc/passwd"><r>1</r>')).toBeNull();
  });

  it('refuses unknown entities and bad character references', () => {
    expect(parseXml('<r>&nbsp;</r>')).toBeNull();
    expect(parseXml('<r>AT&T</r>')).toBeNull();
    expect(parseXml('<r>&#0;</r>')).toBeNull();
    expect(parseXml('<r>&#xD800;</r>')).toBeNull();
    expect(parseXml('<r>&#x110000;</r>')).toBeNull();
    expect(parseXml('<r><a>1</a> & <b>2</b></r>')).toBeNull();
  });

  it('refuses malformed documents', () => {
    for (const text of [
      '',
      '   ',
      'Matched',
      '<r>',
      '<r><a>1</r>',
      '<r><a>1</b></r>',
      '<r></r><s></s>',
      'text<r></r>',
      '<r></r>text',
      '<r>1</r></r>',
      '<r><!-- unclosed </r>',
      '<r><![CDATA[ unclosed </r>',
      '<![CDATA[x]]>',
      '<r a="unclosed></r>',
      '<1r></1r>',
      '<r$></r$>',
      '<r><a<b>1</b></a></r>',
      '{"Success":true}',
    ]) {
      expect(parseXml(text), text).toBeNull();
    }
  });

  it('refuses documents over 64 KB unread, and reads one just under', () => {
    expect(XML_MAX_LENGTH).toBe(64 * 1024);
    const open = '<r>';
    const close = '</r>';
    const fill = (n: number) => 'x'.repeat(n - open.length - close.length);
    expect(parseXml(open + fill(XML_MAX_LENGTH) + close)).toEqual({ r: fill(XML_MAX_LENGTH) });
    expect(parseXml(open + fill(XML_MAX_LENGTH + 1) + close)).toBeNull();
    expect(
      parseXml(open + fill(XML_MAX_LENGTH + 1) + close, { maxLength: Number.POSITIVE_INFINITY }),
    ).not.toBeNull();
  });

  it('reads deep nesting without recursion and never throws', () => {
    const depth = 5000;
    const deep = `${'<a>'.repeat(depth)}v${'</a>'.repeat(depth)}`;
    let node: unknown = parseXml(deep);
    for (let i = 0; i < depth; i++) node = (node as Record<string, unknown>).a;
    expect(node).toBe('v');
    expect(parseXml(undefined as unknown as string)).toBeNull();
    expect(parseXml(42 as unknown as string)).toBeNull();
  });

  it('accepts a byte-order mark', () => {
    expect(parseXml('\uFEFF<r>1</r>')).toEqual({ r: '1' });
  });
});

describe('escapeText', () => {
  it('escapes the five predefined entities, and parseXml reads them back', () => {
    const text = `Tom & "Jerry" <'3'>`;
    expect(escapeText(text)).toBe('Tom &amp; &quot;Jerry&quot; &lt;&apos;3&apos;&gt;');
    expect(parseXml(`<a>${escapeText(text)}</a>`)).toEqual({ a: text });
  });
});
