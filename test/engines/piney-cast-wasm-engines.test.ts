/**
 * The Piney field's segment cast in WebAssembly gives the JavaScript cast's bits in Node (V8) and in Bun
 * (JavaScriptCore): piney-cast-wasm.mjs runs both casts of the built runtime on the same 3 × 20,000 seeded
 * segments (random, short, eye to eye, and the adversarial ones) in each engine; every answer must have the same
 * bits, and the digests of the answers must be the same in both engines. Bun is required (a devDependency).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT, findBun, runBun, type BunBinary } from './bun.js';

interface Compared {
  count: number;
  hits: number;
  mismatches: unknown[];
  digest: string;
  wasm: boolean;
}

const SCRIPT = join(ROOT, 'test', 'engines', 'piney-cast-wasm.mjs');
const COUNT = '20000';

let bun: BunBinary;
let home: string;

beforeAll(() => {
  bun = findBun();
  if (!existsSync(join(ROOT, 'dist', 'src', 'worlds', 'piney', 'cast-kernel-bytes.wasm'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
  home = mkdtempSync(join(tmpdir(), 'retrosim-cast-wasm-'));
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

test('in Node and in Bun, the kernel answers every segment with the JavaScript cast\'s bits, and both engines agree', async () => {
  const nodeOut = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [SCRIPT, COUNT], { cwd: ROOT, timeout: 600_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
  );
  const inNode = JSON.parse(nodeOut) as Compared;
  const r = await runBun(bun, [SCRIPT, COUNT], { cwd: ROOT, home });
  expect(r.code, r.stderr).toBe(0);
  const inBun = JSON.parse(r.stdout.trim().split('\n').pop()!) as Compared;
  for (const [engine, c] of [['Node', inNode], ['Bun', inBun]] as const) {
    expect(c.wasm, `${engine}: the kernel ran (and the JavaScript world did not use it)`).toBe(true);
    expect(c.count).toBe(60000);
    expect(c.mismatches, `${engine}: segments whose answers differ`).toEqual([]);
    // Both kinds of answer are there: hits and clear segments.
    expect(c.hits).toBeGreaterThan(5000);
    expect(c.hits).toBeLessThan(55000);
  }
  expect(inBun.digest).toBe(inNode.digest);
});
