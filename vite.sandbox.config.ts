/**
 * The browser sandbox (npm run sandbox / npm run build:web): a Vite app rooted at sandbox/, serving assets/
 * as its public folder (worlds, Piney tables, sounds) and building to web-dist/.
 *
 * The simulation modules are the same ones Node runs. The few node:* imports some of them carry (asset
 * lookups by file path, a timing clock for reports) are aliased to small browser modules in
 * src/render/node-shims/, which serve the files the page fetched; nothing else changes.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const shim = (name: string): string => fileURLToPath(new URL(`./src/render/node-shims/${name}.ts`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./sandbox', import.meta.url)),
  publicDir: fileURLToPath(new URL('./assets', import.meta.url)),
  base: './',
  resolve: {
    alias: [
      { find: /^node:fs$/, replacement: shim('node-fs') },
      { find: /^node:path$/, replacement: shim('node-path') },
      { find: /^node:url$/, replacement: shim('node-url') },
      { find: /^node:perf_hooks$/, replacement: shim('node-perf-hooks') },
    ],
  },
  server: { host: '127.0.0.1', strictPort: false },
  preview: { host: '127.0.0.1' },
  build: {
    outDir: fileURLToPath(new URL('./web-dist', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'app',
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
  },
});
