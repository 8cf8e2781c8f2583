import type { JsonSchema } from './json-schema';
import type { OpenApiDocument } from './openapi-document';

// /api/docs: the OpenAPI document rendered as one static HTML page on the server. No script, no CDN,
// nothing third-party: readable in any browser, printable, and fine under a strict CSP.

const esc = (s: unknown) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The little Markdown the descriptions use: `code`, **bold**, [text](#anchor), "* " bullets, paragraphs. */
function markdown(text: string): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\[([^\]]+)\]\((#[\w-]+)\)/g, '<a href="$2">$1</a>');
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith('* '))) {
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join('');
}

type Components = Record<string, JsonSchema>;

const refName = (schema: JsonSchema) =>
  typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : null;

function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const name = refName(schema);
  return name ? (components[name] ?? schema) : schema;
}

function typeOf(schema: JsonSchema, components: Components): string {
  const name = refName(schema);
  if (name) return name;
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as JsonSchema[]).map((s) => typeOf(s, components)).join(' or ');
  if (Array.isArray(schema.type)) return (schema.type as string[]).join(' | ');
  if (schema.type === 'array' && schema.items)
    return `array of ${typeOf(schema.items as JsonSchema, components)}`;
  return String(schema.type ?? 'any');
}

/** Like typeOf, as HTML: named schemas link to their section, inline objects list their fields. */
function typeHtml(schema: JsonSchema, components: Components): string {
  const name = refName(schema);
  if (name) return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  if (schema.type === 'array' && schema.items)
    return `array of ${typeHtml(schema.items as JsonSchema, components)}`;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) return `object {${Object.keys(props).map(esc).join(', ')}}`;
  return esc(typeOf(schema, components));
}

function rulesOf(schema: JsonSchema): string {
  const parts: string[] = [];
  if (typeof schema.description === 'string') parts.push(esc(schema.description));
  if (Array.isArray(schema.enum))
    parts.push(`one of ${schema.enum.map((v) => `<code>${esc(v)}</code>`).join(', ')}`);
  if (schema.format) parts.push(`format ${esc(schema.format)}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    parts.push(`length ${esc(schema.minLength ?? 0)}–${esc(schema.maxLength ?? '∞')}`);
  }
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${esc(schema.minimum ?? '−∞')} to ${esc(schema.maximum ?? '∞')}`);
  }
  if (schema.pattern) parts.push(`pattern <code>${esc(schema.pattern)}</code>`);
  if (Array.isArray(schema.anyOf)) {
    for (const alt of schema.anyOf as JsonSchema[]) {
      const r = rulesOf(alt);
      if (r) parts.push(`${esc(typeOf(alt, {}))}: ${r}`);
    }
  }
  if (schema.default !== undefined) parts.push(`default <code>${esc(JSON.stringify(schema.default))}</code>`);
  return parts.join('; ');
}

function fieldTable(schema: JsonSchema, components: Components): string {
  const s = resolve(schema, components);
  const props = s.properties as Record<string, JsonSchema> | undefined;
  if (!props) return `<p>${esc(typeOf(schema, components))}</p>`;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const rows = Object.entries(props)
    .map(
      ([name, p]) =>
        `<tr><td><code>${esc(name)}</code></td><td>${typeHtml(p, components)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${rulesOf(p)}</td></tr>`,
    )
    .join('');
  const note = s.additionalProperties === false ? '<p class="note">Other fields are refused.</p>' : '';
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Rules</th></tr></thead><tbody>${rows}</tbody></table>${note}`;
}

type Operation = {
  tags: string[];
  summary: string;
  description?: string;
  operationId: string;
  security?: Record<string, unknown>[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: JsonSchema }>;
      headers?: Record<string, { description: string }>;
    }
  >;
};

function renderOperation(method: string, path: string, op: Operation, components: Components): string {
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  const auth =
    scheme === 'partnerKey'
      ? '<p class="auth">Authentication: <code>Authorization: Bearer &lt;API key&gt;</code></p>'
      : scheme === 'metricsToken'
        ? '<p class="auth">Authentication: <code>Authorization: Bearer &lt;METRICS_TOKEN&gt;</code></p>'
        : scheme
          ? '<p class="auth">Authentication: signed-in admin (session cookie)</p>'
          : '';
  const params = op.parameters.length
    ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Rules</th></tr></thead><tbody>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(typeOf(p.schema, components))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${p.description && p.in === 'header' ? `${esc(p.description)} ` : ''}${rulesOf(p.schema)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const media = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
  const body = media
    ? `<h4>Request body <span class="ct">${esc(media[0])} · ${typeHtml(media[1].schema, components)}</span></h4>${fieldTable(media[1].schema, components)}${
        media[1].example !== undefined
          ? `<h4>Example</h4><pre>curl -X ${esc(method.toUpperCase())} https://YOUR-SITE${esc(path)} \\
  -H 'Content-Type: application/json' \\${scheme === 'partnerKey' ? "\n  -H 'Authorization: Bearer YOUR_API_KEY' \\" : ''}
  -H 'Idempotency-Key: 4f1c2b1e-5b7a-4e0e-9d43-2f1a6c3b9e77' \\
  -d '${esc(JSON.stringify(media[1].example, null, 2))}'</pre>`
          : ''
      }`
    : '';
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const content = r.content ? Object.entries(r.content)[0] : undefined;
      const headers = r.headers
        ? `<br><span class="note">Headers: ${Object.entries(r.headers)
            .map(([h, d]) => `<code>${esc(h)}</code> (${esc(d.description)})`)
            .join(', ')}</span>`
        : '';
      return `<tr><td><code>${esc(status)}</code></td><td>${markdown(r.description)}${headers}</td><td>${
        content ? `${esc(content[0])}<br>${typeHtml(content[1].schema, components)}` : ''
      }</td></tr>`;
    })
    .join('');
  return `<section class="op" id="op-${esc(op.operationId)}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p class="summary">${esc(op.summary)}</p>${op.description ? markdown(op.description) : ''}${auth}${params}${body}
<h4>Responses</h4><table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${responses}</tbody></table>
</section>`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
main{max-width:960px;margin:0 auto;padding:24px}h1{margin-top:0}h2{border-bottom:2px solid #2b8a3e;padding-bottom:4px;margin-top:48px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}th,td{border:1px solid #ccc;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f1f3f5}code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f1f3f5;padding:12px;overflow:auto}
.op{border:1px solid #dee2e6;border-radius:8px;padding:8px 16px;margin:16px 0}.summary{font-weight:600}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;padding:2px 6px;font-size:13px}
.get{background:#1864ab}.post{background:#2b8a3e}.patch{background:#a61e4d}.delete{background:#c92a2a}.put{background:#5f3dc4}
.ct,.note{color:#495057;font-size:14px;font-weight:normal}.auth{color:#862e9c}nav ul{columns:2}a{color:#1864ab}`;

export function renderDocsPage(doc: OpenApiDocument): string {
  const components = doc.components.schemas;
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as Operation;
      const tag = op.tags[0] ?? 'Operations';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, op, components)]);
      toc.set(tag, [
        ...(toc.get(tag) ?? []),
        `<li><a href="#op-${esc(op.operationId)}">${esc(method.toUpperCase())} ${esc(path)}</a> — ${esc(op.summary)}</li>`,
      ]);
    }
  }
  const sections = doc.tags
    .filter((t) => byTag.has(t.name))
    .map(
      (t) =>
        `<h2 id="tag-${esc(t.name.toLowerCase().replace(/\s+/g, '-'))}">${esc(t.name)}</h2>${markdown(t.description)}${(byTag.get(t.name) ?? []).join('')}`,
    )
    .join('');
  const nav = doc.tags
    .filter((t) => toc.has(t.name))
    .map((t) => `<h3>${esc(t.name)}</h3><ul>${(toc.get(t.name) ?? []).join('')}</ul>`)
    .join('');
  const schemas = `<h2 id="schemas">Schemas</h2>${Object.entries(components)
    .map(
      ([name, schema]) =>
        `<section class="op" id="schema-${esc(name)}"><h3>${esc(name)}</h3>${
          typeof schema.description === 'string' ? markdown(schema.description) : ''
        }${fieldTable(schema, components)}</section>`,
    )
    .join('')}`;
  const problems = doc['x-problem-types']
    .map(
      (p) =>
        `<tr id="problem-${esc(p.code)}"><td><code>${esc(p.type)}</code></td><td>${esc(p.status)}</td><td>${esc(p.title)}</td><td><code>${esc(p.code)}</code></td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)}</title><style>${STYLE}</style></head><body><main>
<h1>${esc(doc.info.title)} <small class="note">OpenAPI ${esc(doc.openapi)} · version ${esc(doc.info.version)}</small></h1>
${markdown(doc.info.description)}
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a></p>
<nav aria-label="Operations">${nav}</nav>${sections}
${schemas}
<h2 id="problem-types">Problem types</h2>
<p>Partner API errors are <code>application/problem+json</code> (RFC 9457): <code>type</code> is one of these, <code>detail</code> explains the case, <code>errors</code> lists each invalid field with a JSON Pointer.</p>
<table><thead><tr><th>type</th><th>Status</th><th>Title</th><th>code</th></tr></thead><tbody>${problems}</tbody></table>
</main></body></html>`;
}
