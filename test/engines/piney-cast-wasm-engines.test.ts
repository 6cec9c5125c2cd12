/**
 * The WebAssembly kernels give the JavaScript walks' bits in Node (V8) and in Bun (JavaScriptCore):
 * piney-cast-wasm.mjs runs both casts of the Piney field of the built runtime on the same 3 × 20,000 seeded
 * segments (random, short, eye to eye, and the adversarial ones), rugrats-walk-wasm.mjs both walks of the Rugrats
 * levels on 2 × 20,000 (eye to eye, tiny steps, hostile coordinates), in each engine; every answer must have the
 * same bits, and the digests of the answers must be the same in both engines. Bun is required (a devDependency).
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

/** Per kernel: its script, the answers it compares, and bounds on how many of them stop (hits). */
const KERNELS = [
  { name: 'the Piney cast', script: 'piney-cast-wasm.mjs', bytes: join('piney', 'cast-kernel-bytes.wasm'), count: 60000, hits: [5000, 55000] },
  { name: 'the Rugrats walk', script: 'rugrats-walk-wasm.mjs', bytes: join('rugrats', 'walk-kernel-bytes.wasm'), count: 40000, hits: [5000, 35000] },
] as const;
const COUNT = '20000';

let bun: BunBinary;
let home: string;

beforeAll(() => {
  bun = findBun();
  for (const k of KERNELS) if (!existsSync(join(ROOT, 'dist', 'src', 'worlds', k.bytes))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
  home = mkdtempSync(join(tmpdir(), 'retrosim-cast-wasm-'));
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

for (const k of KERNELS) {
  test(`${k.name}: in Node and in Bun, the kernel answers every segment with the JavaScript's bits, and both engines agree`, async () => {
    const script = join(ROOT, 'test', 'engines', k.script);
    const nodeOut = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [script, COUNT], { cwd: ROOT, timeout: 600_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const inNode = JSON.parse(nodeOut) as Compared;
    const r = await runBun(bun, [script, COUNT], { cwd: ROOT, home });
    expect(r.code, r.stderr).toBe(0);
    const inBun = JSON.parse(r.stdout.trim().split('\n').pop()!) as Compared;
    for (const [engine, c] of [['Node', inNode], ['Bun', inBun]] as const) {
      expect(c.wasm, `${engine}: the kernel ran (and the JavaScript world did not use it)`).toBe(true);
      expect(c.count).toBe(k.count);
      expect(c.mismatches, `${engine}: segments whose answers differ`).toEqual([]);
      // Both kinds of answer are there: hits and clear segments.
      expect(c.hits).toBeGreaterThan(k.hits[0]);
      expect(c.hits).toBeLessThan(k.hits[1]);
    }
    expect(inBun.digest).toBe(inNode.digest);
  });
}
