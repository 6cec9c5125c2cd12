/**
 * Regenerates assets/worlds/llama (the demo level, the reference minimal level and the broken level for
 * the checker) from the descriptions in src/worlds/llama/demo-levels.ts. Deterministic: a test checks that
 * regenerating gives byte-identical files.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/make-llama-assets.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llamaAssetFiles } from '../src/worlds/llama/assets.js';

const here = dirname(fileURLToPath(import.meta.url));
// Compiled to dist/scripts: the repository root is two levels up; run from source it is one.
const root = here.includes(`${join('dist', 'scripts')}`) ? join(here, '..', '..') : join(here, '..');
const out = join(root, 'assets', 'worlds', 'llama');
mkdirSync(out, { recursive: true });
for (const [name, bytes] of llamaAssetFiles()) {
  writeFileSync(join(out, name), bytes);
  process.stdout.write(`${join('assets', 'worlds', 'llama', name)}: ${bytes.length} bytes\n`);
}
