import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 23: services take plain inputs, never Fastify objects. Only the transport folders (and the
// entry files at the top of src) may import Fastify or reach into the transport; every other folder —
// services, the domain folders, db, cli — may not.

const SRC = import.meta.dirname;
const TRANSPORT = new Set(['trpc', 'rest', 'plugins', 'openapi']);

/** Every .ts file in src's folders other than the transport ones, relative to src. */
function nonTransportFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(relative(SRC, path));
    }
  };
  for (const entry of readdirSync(SRC, { withFileTypes: true })) {
    if (entry.isDirectory() && !TRANSPORT.has(entry.name)) walk(join(SRC, entry.name));
  }
  return files;
}

/** The module specifiers a file imports (static, dynamic, `import type`, re-exports, type imports). */
function importedModules(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) found.push(m[1] ?? '');
  return found;
}

/** Why a module may not be imported outside the transport, or null when it may. */
function forbiddenImport(specifier: string): string | null {
  if (specifier === 'fastify' || specifier === 'fastify-plugin' || specifier.startsWith('@fastify/')) {
    return 'Fastify';
  }
  const transport = specifier.match(/^(?:\.\.?\/)+(trpc|rest|plugins|openapi)(?:\/|$)/);
  if (transport) return `the transport (${transport[1]}/)`;
  return null;
}

describe('architecture', () => {
  it('reads every kind of import', () => {
    const source = [
      "import type { FastifyReply } from 'fastify';",
      "import fp from 'fastify-plugin';",
      "export { x } from '../trpc/context';",
      "const m = await import('@fastify/cookie');",
      "import '../plugins/session';",
    ].join('\n');
    expect(importedModules(source).map(forbiddenImport)).toEqual([
      'Fastify',
      'Fastify',
      'the transport (trpc/)',
      'Fastify',
      'the transport (plugins/)',
    ]);
    expect(forbiddenImport('../errors')).toBeNull();
    expect(forbiddenImport('./rest-of-it')).toBeNull();
    expect(forbiddenImport('pg')).toBeNull();
  });

  it('no file outside the transport imports Fastify or the transport', () => {
    const files = nonTransportFiles();
    // The walk found the services (a guard against a test that checks nothing).
    expect(files.some((f) => f.includes('lead.service'))).toBe(true);
    const offences = files.flatMap((file) =>
      importedModules(readFileSync(join(SRC, file), 'utf8'))
        .map((specifier) => ({ specifier, why: forbiddenImport(specifier) }))
        .filter((i) => i.why !== null)
        .map((i) => `${file} imports ${i.specifier} (${i.why})`),
    );
    expect(offences).toEqual([]);
  });
});
