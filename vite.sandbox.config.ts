/**
 * The browser sandbox (npm run sandbox / npm run build:web): a Vite app rooted at sandbox/, serving assets/
 * as its public folder (worlds, Piney tables, sounds) and building to web-dist/.
 *
 * The simulation modules are the same ones Node runs: the page imports the runtime's core (no file access;
 * src/core.ts and below) and fetches the bytes itself, so nothing needs a stand-in for Node. The WebAssembly
 * kernels' modules (their bytes in base64) are built first, as `npm run build` builds them.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
// @ts-ignore: a plain JavaScript module of the build (no types); it builds the WebAssembly kernels' modules.
import { buildWasmKernels } from './scripts/wasm-kernels.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The hash a page names as its runtime in a netplay room (src/render/sandbox/build-identity.ts): SHA-256 of
 * every file under src/ (path, length, bytes, sorted by path) and of package-lock.json (the dependencies'
 * versions and integrity hashes). Two builds of the same sources have the same hash.
 */
function buildHash(): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(join(root, 'src'));
  files.push(join(root, 'package-lock.json'));
  const paths = files.map((p) => relative(root, p).split('\\').join('/')).sort();
  const h = createHash('sha256');
  h.update('retrosim-browser-build\n');
  for (const rel of paths) {
    const bytes = readFileSync(join(root, rel));
    h.update(`${rel}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex');
}

// The page imports the runtime's sources, and with them the WebAssembly kernels' bytes (built from wasm/).
await buildWasmKernels();

export default defineConfig({
  define: { __RETROSIM_BUILD_HASH__: JSON.stringify(buildHash()) },
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
