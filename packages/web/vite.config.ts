import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Each chunk's static imports (file names), recorded before Vite writes the preload lists. */
const staticImports = new Map<string, string[]>();
const recordStaticImports: Plugin = {
  name: 'uf:record-static-imports',
  apply: 'build',
  enforce: 'pre',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk') staticImports.set(chunk.fileName, chunk.imports);
  },
};

/**
 * CommonJS packages (React, React DOM, the scheduler) are bundled as factories that run when their chunk is
 * evaluated, written as arrow functions. V8 compiles an arrow function lazily, on its first call: React
 * DOM's factory (≈170 KB) was then parsed a second time on the main thread, in the task that evaluates it,
 * the longest task of the landing page's start on a slow phone (issue 36). Written as a parenthesised
 * `function` expression, the factory is compiled eagerly with the rest of its chunk, which the browser
 * streams and compiles off the main thread as it downloads. It behaves the same: `this` is undefined
 * either way (module code is strict), and `arguments` means what CommonJS code expects.
 */
const eagerCommonJsFactories: Plugin = {
  name: 'uf:eager-commonjs-factories',
  apply: 'build',
  renderChunk(code, chunk) {
    if (!code.includes('__commonJSMin((')) return null;
    const eager = code.replace(
      /__commonJSMin\(\(\(((?:exports|module)(?:, (?:exports|module))*)\) => \{/g,
      '__commonJSMin((function ($1) {',
    );
    if (eager === code) this.warn(`${chunk.fileName}: no CommonJS factory made eager (a new wrapper form?)`);
    return { code: eager, map: null };
  },
};

/** What the browser has loaded before `chunk` runs: its static imports, theirs, and so on. */
function loadedBefore(chunk: string, seen = new Set<string>()): Set<string> {
  for (const file of staticImports.get(chunk) ?? []) {
    if (seen.has(file)) continue;
    seen.add(file);
    loadedBefore(file, seen);
  }
  return seen;
}

/** The entry script: every other chunk runs after it. */
const ENTRY = /^assets\/index-[\w-]+\.js$/;

export default defineConfig({
  plugins: [react(), recordStaticImports, eagerCommonJsFactories],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  // The server renderer (entry-server.tsx → dist-ssr) carries its dependencies: the server also runs it
  // where the web app's packages are not installed (the Docker image; ADR 057).
  ssr: { noExternal: true },
  build: {
    outDir: 'dist',
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
    // dist/.vite/manifest.json: which files each module's chunk loads, read by prerender.mjs and
    // report-bundle.mjs (the server does not serve dot-folders).
    manifest: true,
    modulePreload: {
      // A dynamic import preloads its chunk's dependencies, listed as text in the importing chunk (hashed
      // names, which compress badly). What the importing chunk imported itself, and the entry script every
      // chunk runs after, are loaded already: listing them again only made the landing page's app larger,
      // which is held to its size limit (ADR 053, ADR 068).
      resolveDependencies: (_file, deps, { hostId, hostType }) => {
        if (hostType !== 'js') return deps;
        const loaded = loadedBefore(hostId);
        return deps.filter((dep) => !ENTRY.test(dep) && !loaded.has(dep));
      },
    },
  },
});
