/**
 * The browser sandbox (npm run sandbox / npm run build:web): a Vite app rooted at sandbox/, serving assets/
 * as its public folder (worlds, Piney tables, sounds) and building to web-dist/.
 *
 * The simulation modules are the same ones Node runs: the page imports the runtime's core (no file access;
 * src/core.ts and below) and fetches the bytes itself, so nothing needs a stand-in for Node.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./sandbox', import.meta.url)),
  publicDir: fileURLToPath(new URL('./assets', import.meta.url)),
  base: './',
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
