#!/usr/bin/env node
// Entry point of the `retrosim` command: runs the compiled CLI (built by `npm run build`, also on `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('retrosim: not built yet; run `npm run build` (npm ci does it on prepare)\n');
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
