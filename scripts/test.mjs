#!/usr/bin/env node
/**
 * `npm test` after the build: the Node suite (vitest.config.ts) and the browser suite
 * (vitest.browser.config.ts) at the same time, one vitest process each.
 *
 * Why at once: the Node suite keeps both cores of a small machine busy (about 1.8 cores on average), while the
 * browser suite mostly waits on pages (about half a core). One after the other they took 21 minutes on a
 * 2-core machine; together the browser suite fills the Node suite's gaps. Every test holds under load (nothing
 * in them is timed), so running them side by side changes nothing they check.
 *
 * The Node suite prints as it goes; the browser suite's output is held and printed whole when it ends (with a
 * one-line notice of each file it finishes meanwhile), so the two never interleave mid-report. The exit code is
 * the first nonzero of the two, so either failing fails `npm test`. Arguments go to both runs (a file filter
 * that matches nothing in one of them is fine there: --passWithNoTests). `RETROSIM_TEST=node` or `=browser`
 * runs one suite alone.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);
const only = process.env.RETROSIM_TEST;
if (only !== undefined && only !== 'node' && only !== 'browser') {
  process.stderr.write(`test: RETROSIM_TEST must be "node" or "browser", not ${JSON.stringify(only)}\n`);
  process.exit(2);
}
const filtered = args.some((a) => !a.startsWith('-'));

/** Runs one vitest suite; resolves with its exit code. `hold` keeps its output until it ends. */
function suite(name, configArgs, hold) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...configArgs, ...(filtered ? ['--passWithNoTests'] : []), ...args], {
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: hold ? { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : (process.env.FORCE_COLOR ?? '0') } : process.env,
    });
    const held = [];
    if (hold) {
      for (const stream of [child.stdout, child.stderr]) {
        stream.on('data', (chunk) => {
          held.push(chunk);
          // A short notice per finished file, so a long run shows progress.
          for (const m of String(chunk).replace(/\x1b\[[0-9;]*m/g, '').matchAll(/^ *([✓❯×]) (test\/\S+) .*$/gm)) {
            process.stdout.write(`[${name}] ${m[1]} ${m[2]}\n`);
          }
        });
      }
    }
    child.on('error', (e) => {
      process.stderr.write(`test: could not start the ${name} suite: ${e.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => {
      if (hold) {
        process.stdout.write(`\n──── the ${name} suite ────\n`);
        process.stdout.write(Buffer.concat(held));
      }
      resolve(code ?? 1);
    });
  });
}

const runs = [];
if (only !== 'browser') runs.push(suite('node', [], false));
if (only !== 'node') runs.push(suite('browser', ['--config', 'vitest.browser.config.ts'], only !== 'browser'));
const codes = await Promise.all(runs);
const failed = codes.find((c) => c !== 0);
if (failed !== undefined) process.stderr.write(`test: ${codes.length === 2 ? `node suite exit ${codes[0]}, browser suite exit ${codes[1]}` : `exit ${failed}`}\n`);
process.exitCode = failed ?? 0;
