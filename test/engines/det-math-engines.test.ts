/**
 * The deterministic maths gives the same bits in Node (V8) and Bun (JavaScriptCore): det-math-bits.mjs runs
 * every det* function of the built runtime (retrosim/core) on the same 20,000-odd arguments per function in
 * both, and the digests of the results' bits must be equal, function by function. The engines' own Math
 * functions, on the same arguments, are compared too: they differ (which is why systems may not call them),
 * so the comparison is one that can see a difference. And `2 ** k` for every integer k that gives a double is
 * exact in both (the documentation says so of the one `**` use it does not warn against).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, findBun, runBun, type BunBinary } from './bun.js';

interface Digests {
  det: Record<string, string>;
  engine: Record<string, string>;
  powersOfTwo: string;
  powersOfTwoInexact: number;
  count: number;
}

const SCRIPT = join(ROOT, 'test', 'engines', 'det-math-bits.mjs');
const COUNT = '20000';

let bun: BunBinary;
let home: string;
let inNode: Digests;
let inBun: Digests;

beforeAll(async () => {
  bun = findBun();
  if (!existsSync(join(ROOT, 'dist', 'src', 'core.js'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
  home = mkdtempSync(join(tmpdir(), 'retrosim-det-math-'));
  const nodeOut = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [SCRIPT, COUNT], { cwd: ROOT, timeout: 600_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
  );
  inNode = JSON.parse(nodeOut) as Digests;
  const r = await runBun(bun, [SCRIPT, COUNT], { cwd: ROOT, home });
  expect(r.code, r.stderr).toBe(0);
  inBun = JSON.parse(r.stdout.trim().split('\n').pop()!) as Digests;
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

const FUNCTIONS = ['exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'pow', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'cbrt', 'hypot'];

describe('the same bits in Node (V8) and Bun (JavaScriptCore)', () => {
  test('every det* function, on the same arguments', () => {
    expect(Object.keys(inNode.det).sort()).toEqual([...FUNCTIONS].sort());
    for (const name of FUNCTIONS) expect(inBun.det[name], `det${name}: Bun's digest against Node's`).toBe(inNode.det[name]);
  });

  test("the engines' own Math functions differ on the same arguments (the comparison sees a difference where there is one)", () => {
    const differ = FUNCTIONS.filter((n) => inBun.engine[n] !== inNode.engine[n]);
    expect(differ.length, `Math functions whose results differ between Node and Bun: ${differ.join(', ')}`).toBeGreaterThan(0);
  });

  test('2 ** k, for every integer k from −1074 to 1023, is exact in both', () => {
    expect(inNode.powersOfTwoInexact).toBe(0);
    expect(inBun.powersOfTwoInexact).toBe(0);
    expect(inBun.powersOfTwo).toBe(inNode.powersOfTwo);
  });
});
