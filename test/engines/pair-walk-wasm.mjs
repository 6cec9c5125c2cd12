// Run by Node and by Bun (wasm-kernels-engines.test.ts), and its `comparePairWalks` by the browsers: line of
// sight's pair walk in WebAssembly against the JavaScript walk (its oracle) over the same grid, on seeded crowds
// drawn with integer operations only (spread, clustered, on a line, stacked on a spot, a few coordinates odd:
// ±0, ±∞, NaN, huge), each walked whole and in batches of uneven sizes. Every pair, segment and cursor must be
// the same. Prints one JSON line: { crowds, pairs, mismatches: [first few], digest, wasm: true }.
import { seeded } from './wasm-compare.mjs';

/** A crowd of `n` agents' feet (3 doubles each) of the given shape, from `next`. */
function crowd(next, n, shape) {
  const size = shape === 0 ? 4000 : shape === 1 ? 300 : shape === 4 ? 1e12 : 1000;
  const feet = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    feet[3 * i] = shape === 3 ? 5 : next() * size - size / 2;
    feet[3 * i + 1] = shape === 2 || shape === 3 ? 5 : next() * size - size / 2;
    feet[3 * i + 2] = shape === 3 && i % 3 === 0 ? 0 : next() * 100;
  }
  const odd = [0, -0, Infinity, -Infinity, NaN, 1e300, -1e300, 2 ** 53];
  for (let k = 0; k < 4; k++) if (next() < 0.5) feet[3 * Math.floor(next() * n) + Math.floor(next() * 3)] = odd[Math.floor(next() * odd.length)];
  return feet;
}

/**
 * `crowds` seeded crowds through both walks (`AgentPairGrid` the runtime's class, `module` the compiled pair-walk
 * kernel), compared pair by pair; the digest is over every segment and pair the JavaScript wrote.
 */
export function comparePairWalks(AgentPairGrid, module, crowds, seed) {
  const next = seeded(seed);
  const world = { up: { axis: 2, sign: 1 } };
  const mismatches = [];
  let pairs = 0;
  // FNV-1a 32 × 2 of every segment's and pair's 32-bit words, in the order the JavaScript wrote them.
  let h1 = 0x811c9dc5, h2 = 0x5bd1e995;
  const fold = (u, count) => {
    for (let i = 0; i < count; i++) {
      h1 = Math.imul(h1 ^ u[i], 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ (u[i] >>> 7), 0x01000193) >>> 0;
    }
  };
  for (let c = 0; c < crowds; c++) {
    const n = 64 + Math.floor(next() * 1400);
    const shape = Math.floor(next() * 5);
    const feet = crowd(next, n, shape);
    const range = shape === 3 ? 50 : 20 + next() * 200;
    const eye = next() * 2;
    const batch = next() < 0.3 ? (n * (n - 1)) / 2 : 1 + Math.floor(next() * 30000);
    const js = new AgentPairGrid(), wa = new AgentPairGrid();
    const sa = new Float64Array(batch * 6), sb = new Float64Array(batch * 6);
    const pa = new Uint32Array(batch * 2), pb = new Uint32Array(batch * 2);
    const ca = { i: 0, j: 1 }, cb = { i: 0, j: 1 };
    for (let guard = 0; ca.i < n - 1 && guard < 100000; guard++) {
      const a = js.walk(world, feet, n, eye, range, sa, pa, ca, batch);
      const b = wa.walk(world, feet, n, eye, range, sb, pb, cb, batch, n - 1, module);
      let same = a === b && ca.i === cb.i && ca.j === cb.j;
      const ua = new Uint32Array(sa.buffer, 0, a * 12), ub = new Uint32Array(sb.buffer, 0, a * 12);
      for (let i = 0; same && i < a * 12; i++) if (ua[i] !== ub[i]) same = false;
      for (let i = 0; same && i < a * 2; i++) if (pa[i] !== pb[i]) same = false;
      if (!same && mismatches.length < 5) mismatches.push({ crowd: c, n, shape, batch, from: pairs, js: [a, ca.i, ca.j], wasm: [b, cb.i, cb.j] });
      if (a < 0) break;
      pairs += a;
      fold(ua, a * 12);
      fold(pa, a * 2);
    }
  }
  const digest = h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
  return { crowds, pairs, mismatches, digest, wasm: module !== null };
}

// Run as a program (not when bundled into a page, where import.meta.url is not a file's).
const isMain = typeof process !== 'undefined' && typeof process.argv?.[1] === 'string' && typeof import.meta.url === 'string' && import.meta.url.endsWith(process.argv[1].split('/').pop());
if (isMain) {
  // The built runtime's modules (no top-level await: the page's bundle is a script).
  const root = new URL('../../', import.meta.url);
  const crowds = Number(process.argv[2] ?? '40');
  Promise.all([import(new URL('dist/src/systems/los/agent-pairs.js', root).href), import(new URL('dist/src/systems/los/pair-walk-wasm.js', root).href)]).then(([{ AgentPairGrid }, { pairWalkWasmModule }]) => {
    process.stdout.write(JSON.stringify(comparePairWalks(AgentPairGrid, pairWalkWasmModule(), crowds, 20261206)) + '\n');
  });
}
