import { BUYER_RESPONSE_EXCERPT_BYTES } from '@uf/shared/buyers';

// A small XML reader for buyers' answers (issue 34, ADR 069). Buyers answer from servers we do not
// control, so this reads only the part of XML a response rule needs and refuses the rest rather than
// guessing: no DTD (so no entity expansion, no external entities, no billion laughs), no namespaces,
// attributes ignored. It gives a plain tree the response rules read with dot paths:
//   <response><status>Matched</status><lead><id>7</id></lead></response>
//   → { response: { status: 'Matched', lead: { id: '7' } } }
// An element with child elements becomes an object of them (text between them is ignored); one without
// becomes its text, trimmed (an empty or self-closing element is ''). When an element repeats among its
// siblings, the first one wins: a dot path names one value, and `response.error` is the first error.

export type XmlValue = string | XmlNode;
export type XmlNode = { [name: string]: XmlValue };

/** Inputs longer than this are refused unread (a buyer's answer is excerpted to 8 KB in the log). */
export const XML_MAX_LENGTH = BUYER_RESPONSE_EXCERPT_BYTES * 8;

export type ParseXmlOptions = {
  /** Longer inputs give null; XML_MAX_LENGTH unless given (our own request bodies may be longer). */
  maxLength?: number;
  /** Keep the text of leaf elements as written instead of trimmed (to re-serialise our own bodies). */
  keepWhitespace?: boolean;
};

type Frame = { name: string; children: XmlNode | null; text: string };

const NAME = /^[A-Za-z_:][\w.:-]*/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Own property, even for a name such as `__proto__`, which a plain assignment would not create. */
function setOwn(node: XmlNode, name: string, value: XmlValue) {
  Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Decodes the five predefined entities and numeric character references. Any other `&` makes the
 * document malformed (there is no DTD to define one), so the answer is null.
 */
function decode(text: string): string | null {
  if (!text.includes('&')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const amp = text.indexOf('&', i);
    if (amp < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, amp);
    const semi = text.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) return null;
    const name = text.slice(amp + 1, semi);
    const named = Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : undefined;
    if (named !== undefined) {
      out += named;
    } else {
      const m = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(name);
      if (!m) return null;
      const code = m[1] !== undefined ? Number.parseInt(m[1], 16) : Number(m[2]);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
      out += String.fromCodePoint(code);
    }
    i = semi + 1;
  }
  return out;
}

/**
 * Parses an XML document into a plain tree keyed by its root element's name, or null when the document
 * is too long, declares a DTD or entities, or is malformed (mismatched or unclosed tags, text outside
 * the root, two roots, an unknown entity). Comments and processing instructions are skipped; CDATA is
 * text. Never throws.
 */
export function parseXml(text: string, options: ParseXmlOptions = {}): XmlNode | null {
  try {
    return parse(text, options);
  } catch {
    return null;
  }
}

function parse(text: string, options: ParseXmlOptions): XmlNode | null {
  if (typeof text !== 'string' || text.length > (options.maxLength ?? XML_MAX_LENGTH)) return null;
  // Refused outright, wherever it appears: a DTD is how entity expansion and external entities get in.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  const stack: Frame[] = [];
  const doc: { root: XmlNode | null } = { root: null };
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const close = (frame: Frame): boolean => {
    let value: XmlValue;
    if (frame.children) {
      value = frame.children;
    } else {
      const decoded = decode(frame.text);
      if (decoded === null) return false;
      value = options.keepWhitespace ? decoded : decoded.trim();
    }
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.children ??= {};
      if (!Object.hasOwn(parent.children, frame.name)) setOwn(parent.children, frame.name, value);
    } else {
      doc.root = {};
      setOwn(doc.root, frame.name, value);
    }
    return true;
  };

  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    const top = stack[stack.length - 1];
    if (top) {
      // Checked now even when it is ignored text between child elements: a stray '&' is malformed.
      if (chunk && decode(chunk) === null) return null;
      if (!top.children) top.text += chunk;
    } else if (chunk.trim() !== '') {
      return null; // text outside the root element
    }
    if (lt < 0) break;

    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0 || !top) return null;
      // Escape the CDATA's own text so the leaf's later decode gives it back verbatim.
      if (!top.children) top.text += escapeText(text.slice(lt + 9, end));
      i = end + 3;
    } else if (text.startsWith('<!', lt)) {
      return null;
    } else if (text.startsWith('</', lt)) {
      const end = text.indexOf('>', lt + 2);
      if (end < 0 || !top) return null;
      if (text.slice(lt + 2, end).trim() !== top.name) return null;
      stack.pop();
      if (!close(top)) return null;
      i = end + 1;
    } else {
      const m = NAME.exec(text.slice(lt + 1, lt + 1 + 200));
      if (!m) return null;
      const name = m[0];
      // Skip the attributes: find the '>' that is not inside a quoted value.
      let j = lt + 1 + name.length;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") {
          quote = c;
        } else if (c === '<') {
          return null;
        } else if (c === '>') {
          break;
        }
      }
      if (j >= text.length) return null;
      const attributes = text.slice(lt + 1 + name.length, j);
      if (attributes !== '' && !/^\s/.test(attributes) && attributes !== '/') return null;
      if (!top && doc.root) return null; // a second root element
      // A child element turns its parent into an object; the parent's text so far is dropped.
      if (top) top.children ??= {};
      const frame: Frame = { name, children: null, text: '' };
      if (attributes.trimEnd().endsWith('/')) {
        if (!close(frame)) return null;
      } else {
        stack.push(frame);
      }
      i = j + 1;
    }
  }
  if (stack.length > 0) return null;
  return doc.root;
}

/** Text escaped for an element's content or an attribute (the five predefined entities). */
export function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
