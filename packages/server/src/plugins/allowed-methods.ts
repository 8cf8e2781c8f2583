import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// For the not-found handler: which methods another route answers at a path, so a wrong method gets
// 405 with Allow instead of 404 (issue 13). Collected from every /api route as it is registered.

declare module 'fastify' {
  interface FastifyInstance {
    /** Methods some route answers for this concrete path (empty when no route has the path). */
    allowedMethods(pathname: string): string[];
  }
}

const toRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\/:[^/]+/g, '/[^/]+')
      .replace(/\*$/, '.*')}$`,
  );

export const allowedMethodsPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: { methods: string[]; pattern: RegExp }[] = [];
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
        (m) => m !== 'HEAD',
      );
      routes.push({ methods, pattern: toRegExp(route.url) });
    });
    app.decorate('allowedMethods', (pathname: string) => {
      const allowed = new Set<string>();
      for (const r of routes) if (r.pattern.test(pathname)) for (const m of r.methods) allowed.add(m);
      return [...allowed].sort();
    });
  },
  { name: 'allowed-methods' },
);
