import { parseTransform, type TransformOp } from '@uf/shared/buyer-transforms';
import { type BuyerField, type BuyerHttpDelivery, type BuyerLeadField, MASK } from '@uf/shared/buyers';
import { applyTransforms } from './buyer-transforms';
import { escapeText, parseXml, type XmlNode } from './buyer-xml';

// The HTTP request that offers a lead to a buyer (issue 34, ADR 069), built from the buyer's posting
// spec: its delivery (URL, method, encoding, headers) and its field map. Pure: the sending, the timeout
// and the outbound-address guard are the caller's. Bodies are built as objects and serialised by
// JSON.stringify, URLSearchParams or our XML writer, never by pasting lead text into a template, so a
// lead's value can never change the body's shape.
//
// Where the fields go:
//   json  — `to` is a dot path: `ContactData.ZipCode` → {"ContactData":{"ZipCode":"…"}}; values are text.
//   form  — `to` is the field's name, as written; application/x-www-form-urlencoded.
//   xml   — `to` is a dot path of elements under the root element (delivery.xmlRoot, else `lead`).
//   query — appended to the URL's query string (the URL's own parameters kept); no body.
//   A GET has no body whatever the encoding: its fields go in the query string, `to` as written.
// Two fields with the same `to`: json and xml keep the later one (a later `A.B` also replaces an
// earlier `A` and the other way round); form and query send both, as repeated names.

/** A lead as offered to buyers: every field a field map may read, as text, or null when absent. */
export type OfferedLead = Record<BuyerLeadField, string | null>;

export type BuiltRequest = {
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  body: string | null;
};

export const BUYER_USER_AGENT = 'unclaimed-funds-buyers/1';

const CONTENT_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
} as const;

/** A field whose `to` names a credential: its value is masked in what is logged or shown. */
const SECRET_FIELD = /(key|token|secret|password|passwd|auth)/i;
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|password|x-auth/i;
/** Standard headers whose values are never credentials (our user-agent would otherwise look like a key). */
const PUBLIC_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'connection',
  'content-length',
  'content-type',
  'host',
  'user-agent',
]);
const KEY_LIKE = /^[A-Za-z0-9_\-.=+/]{20,}$/;

/** URLSearchParams and URL percent-encode the mask; the log shows it as written. */
const ENCODED_MASK = encodeURIComponent(MASK);

type Tree = { [name: string]: string | Tree };

/** Own property, even for a name such as `__proto__`, which a plain assignment would not create. */
function setOwn<T>(target: Record<string, T>, name: string, value: T) {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function opsOf(field: BuyerField): TransformOp[] {
  return (field.transforms ?? []).map((text) => {
    const parsed = parseTransform(text);
    // The schema refused an unknown transform when the buyer was saved: reaching this is a bug, and
    // posting the value untransformed (unhashed, say) would be worse than not posting.
    if (!parsed.ok) throw new Error(`buyer field '${field.to}': ${parsed.message}`);
    return parsed.value;
  });
}

/** Each field's final value, in the field map's order; a field whose value ends up null is left out. */
export function fieldValues(fields: readonly BuyerField[], lead: OfferedLead): [to: string, value: string][] {
  const pairs: [string, string][] = [];
  for (const field of fields) {
    const raw = field.value !== undefined ? field.value : field.from ? (lead[field.from] ?? null) : null;
    const value = applyTransforms(raw, opsOf(field));
    if (value !== null) pairs.push([field.to, value]);
  }
  return pairs;
}

/** An e-mail buyer's lines (`to: value`), from the same field map and transforms as a post. */
export function emailLines(fields: readonly BuyerField[], lead: OfferedLead): string[] {
  return fieldValues(fields, lead).map(([to, value]) => `${to}: ${value}`);
}

/** Dot paths to nested objects. */
function nest(pairs: readonly [string, string][]): Tree {
  const root: Tree = {};
  for (const [path, value] of pairs) {
    const segments = path.split('.');
    const last = segments.pop() as string;
    let node = root;
    for (const segment of segments) {
      const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
      if (typeof next === 'object') {
        node = next;
      } else {
        const child: Tree = {};
        setOwn<string | Tree>(node, segment, child);
        node = child;
      }
    }
    setOwn<string | Tree>(node, last, value);
  }
  return root;
}

function xmlElements(tree: Tree | XmlNode): string {
  let out = '';
  for (const [name, value] of Object.entries(tree)) {
    out += `<${name}>${typeof value === 'string' ? escapeText(value) : xmlElements(value)}</${name}>`;
  }
  return out;
}

function xmlDocument(root: string, tree: Tree | XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?><${root}>${xmlElements(tree)}</${root}>`;
}

const rootOf = (delivery: BuyerHttpDelivery) => delivery.xmlRoot ?? 'lead';

/** The request offering `lead` to the buyer; `test` posts to the buyer's test URL when it has one. */
export function buildRequest(
  delivery: BuyerHttpDelivery,
  fields: readonly BuyerField[],
  lead: OfferedLead,
  options: { test?: boolean } = {},
): BuiltRequest {
  const pairs = fieldValues(fields, lead);
  let url = options.test ? (delivery.testUrl ?? delivery.url) : delivery.url;
  let body: string | null = null;
  let contentType: string | null = null;
  if (delivery.method === 'GET' || delivery.encoding === 'query') {
    if (pairs.length > 0) {
      const target = new URL(url);
      for (const [name, value] of pairs) target.searchParams.append(name, value);
      url = target.toString();
    }
  } else if (delivery.encoding === 'json') {
    body = JSON.stringify(nest(pairs));
    contentType = CONTENT_TYPES.json;
  } else if (delivery.encoding === 'form') {
    body = new URLSearchParams(pairs).toString();
    contentType = CONTENT_TYPES.form;
  } else {
    body = xmlDocument(rootOf(delivery), nest(pairs));
    contentType = CONTENT_TYPES.xml;
  }

  // The buyer's headers, then its secret ones (which win on a clash); ours only where the buyer set none
  // (a buyer may want `text/xml` or `application/json; charset=utf-8`).
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers ?? {}))
    setOwn(headers, name.toLowerCase(), value);
  for (const [name, value] of Object.entries(delivery.secretHeaders ?? {})) {
    setOwn(headers, name.toLowerCase(), value);
  }
  if (contentType && !Object.hasOwn(headers, 'content-type')) headers['content-type'] = contentType;
  if (!Object.hasOwn(headers, 'user-agent')) headers['user-agent'] = BUYER_USER_AGENT;
  return { method: delivery.method, url, headers, body };
}

/**
 * True for a header that carries a credential: by its name, or by a value that looks like one (a
 * bearer or basic credential, or a long token of letters and digits). Standard headers such as
 * user-agent are never taken for secrets.
 */
export function isSecretHeader(name: string, value: string): boolean {
  if (SECRET_HEADER.test(name)) return true;
  if (PUBLIC_HEADERS.has(name.toLowerCase())) return false;
  const text = value.trim();
  if (/^(?:Bearer|Basic) /i.test(text)) return true;
  return KEY_LIKE.test(text) && /[A-Za-z]/.test(text) && /[0-9]/.test(text);
}

/** Values of query parameters named like a credential, and a password in the URL, masked. */
function maskUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const target = new URL(url);
  let changed = false;
  const entries = [...target.searchParams].map(([name, value]): [string, string] => {
    if (!SECRET_FIELD.test(name)) return [name, value];
    changed = true;
    return [name, MASK];
  });
  if (changed) target.search = new URLSearchParams(entries).toString();
  if (target.password) {
    target.password = MASK;
    changed = true;
  }
  return changed ? target.toString().replaceAll(ENCODED_MASK, MASK) : url;
}

/** Leaves whose dot path (the field's `to`) names a credential, masked in place. */
function maskTree(tree: Tree | XmlNode, prefix: string) {
  for (const [name, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') {
      if (SECRET_FIELD.test(path)) setOwn<string | Tree>(tree, name, MASK);
    } else {
      maskTree(value, path);
    }
  }
}

function maskBody(body: string, delivery: BuyerHttpDelivery): string {
  if (delivery.encoding === 'form') {
    const params = new URLSearchParams(body);
    const masked = [...params].map(([name, value]): [string, string] => [
      name,
      SECRET_FIELD.test(name) ? MASK : value,
    ]);
    return new URLSearchParams(masked).toString().replaceAll(ENCODED_MASK, MASK);
  }
  if (delivery.encoding === 'json') {
    let tree: unknown;
    try {
      tree = JSON.parse(body);
    } catch {
      return MASK;
    }
    if (typeof tree !== 'object' || tree === null) return MASK;
    maskTree(tree as Tree, '');
    return JSON.stringify(tree);
  }
  // Our own XML: read back (whitespace kept, no size cap) and written again the same way.
  const document = parseXml(body, { maxLength: Number.POSITIVE_INFINITY, keepWhitespace: true });
  const root = rootOf(delivery);
  const tree = document && Object.hasOwn(document, root) ? document[root] : undefined;
  if (tree === undefined) return MASK;
  if (typeof tree === 'string') return body; // no fields at all
  maskTree(tree, '');
  return xmlDocument(root, tree);
}

/**
 * The request as it may be logged or shown to an admin: every secret header masked (the buyer's
 * secretHeaders, and any other that looks like a credential), and the values of fields named like a
 * credential (`ApiToken`, `lp_key`…) masked in the body and in the URL's query, re-serialised the same
 * way so the log shows the body's real shape. A body that cannot be read back is masked whole.
 */
export function maskRequest(req: BuiltRequest, delivery: BuyerHttpDelivery): BuiltRequest {
  const secretNames = new Set(Object.keys(delivery.secretHeaders ?? {}).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    setOwn(headers, name, secretNames.has(name.toLowerCase()) || isSecretHeader(name, value) ? MASK : value);
  }
  return {
    method: req.method,
    url: maskUrl(req.url),
    headers,
    body: req.body === null ? null : maskBody(req.body, delivery),
  };
}
