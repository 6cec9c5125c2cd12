/**
 * The WebAssembly kernels give their JavaScript walks' bits in Node (V8) and in Bun (JavaScriptCore): each
 * script runs both walks of the built runtime on the same seeded segments in each engine; every answer must have
 * the same bits, and the digests of the answers must be the same in both engines. Bun is required (a
 * devDependency).
 *   - piney-cast-wasm.mjs: the Piney field's segment cast, 3 fields × 20,000 segments (random, short, eye to
 *     eye, and the adversarial ones);
 *   - pair-walk-wasm.mjs: line of sight's pair walk, 40 crowds of every shape walked whole and in batches;
 *   - gta-walk-wasm.mjs: the GTA scene's segment walk, 3 scenes of the demo town × 20,000 segments (random,
 *     short, eye to eye, vertical, along an axis, through triangles' corners and edges, odd numbers);
 *   - rugrats-walk-wasm.mjs: the Rugrats walk, 2 levels × 20,000 segments (eye to eye, tiny steps, hostile
 *     coordinates).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, findBun, runBun, type BunBinary } from './bun.js';

interface Compared {
  count: number;
  hits: number;
  mismatches: unknown[];
  digest: string;
  wasm: boolean;
}

const COUNT = '20000';

/** Each kernel's script, the built kernel it needs, how many answers it compares, and how many are hits at least and at most. */
const KERNELS = [
  { label: "the Piney field's cast", script: 'piney-cast-wasm.mjs', wasm: ['piney', 'cast-kernel-bytes.wasm'], count: 60000, hits: [5000, 55000] },
  { label: "the GTA scene's walk", script: 'gta-walk-wasm.mjs', wasm: ['gta', 'walk-kernel-bytes.wasm'], count: 60000, hits: [5000, 55000] },
  { label: 'the Rugrats walk', script: 'rugrats-walk-wasm.mjs', wasm: ['rugrats', 'walk-kernel-bytes.wasm'], count: 40000, hits: [5000, 35000] },
] as const;

let bun: BunBinary;
let home: string;

beforeAll(() => {
  bun = findBun();
  home = mkdtempSync(join(tmpdir(), 'retrosim-cast-wasm-'));
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.each(KERNELS)('$label in WebAssembly', ({ script, wasm, count, hits }) => {
  test("in Node and in Bun, the kernel answers every segment with the JavaScript walk's bits, and both engines agree", async () => {
    if (!existsSync(join(ROOT, 'dist', 'src', 'worlds', ...wasm))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
    const path = join(ROOT, 'test', 'engines', script);
    const nodeOut = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path, COUNT], { cwd: ROOT, timeout: 600_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const inNode = JSON.parse(nodeOut) as Compared;
    const r = await runBun(bun, [path, COUNT], { cwd: ROOT, home });
    expect(r.code, r.stderr).toBe(0);
    const inBun = JSON.parse(r.stdout.trim().split('\n').pop()!) as Compared;
    for (const [engine, c] of [['Node', inNode], ['Bun', inBun]] as const) {
      expect(c.wasm, `${engine}: the kernel ran (and the JavaScript world did not use it)`).toBe(true);
      expect(c.count).toBe(count);
      expect(c.mismatches, `${engine}: segments whose answers differ`).toEqual([]);
      // Both kinds of answer are there: hits and clear segments.
      expect(c.hits).toBeGreaterThan(hits[0]);
      expect(c.hits).toBeLessThan(hits[1]);
    }
    expect(inBun.digest).toBe(inNode.digest);
  });
});

describe("line of sight's pair walk in WebAssembly", () => {
  test("in Node and in Bun, the kernel walks every crowd to the JavaScript walk's pairs, segments and cursors, and both engines agree", async () => {
    if (!existsSync(join(ROOT, 'dist', 'src', 'systems', 'los', 'pair-walk-kernel-bytes.wasm'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
    const path = join(ROOT, 'test', 'engines', 'pair-walk-wasm.mjs');
    const nodeOut = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path, '40'], { cwd: ROOT, timeout: 600_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const inNode = JSON.parse(nodeOut) as { crowds: number; pairs: number; mismatches: unknown[]; digest: string; wasm: boolean };
    const r = await runBun(bun, [path, '40'], { cwd: ROOT, home });
    expect(r.code, r.stderr).toBe(0);
    const inBun = JSON.parse(r.stdout.trim().split('\n').pop()!) as typeof inNode;
    for (const [engine, c] of [['Node', inNode], ['Bun', inBun]] as const) {
      expect(c.wasm, `${engine}: the kernel compiled`).toBe(true);
      expect(c.crowds).toBe(40);
      expect(c.mismatches, `${engine}: walks whose pairs differ`).toEqual([]);
      expect(c.pairs, `${engine}: pairs compared`).toBeGreaterThan(500_000);
    }
    expect(inBun.digest).toBe(inNode.digest);
    expect(inBun.pairs).toBe(inNode.pairs);
  });
});
