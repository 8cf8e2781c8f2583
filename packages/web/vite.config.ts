import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
  },
});
