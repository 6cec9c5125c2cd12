// Run by Node and by Bun (rugrats-walk-wasm-engines.test.ts), and its `compareWalks` by the browsers: the Rugrats
// line-of-sight walk in WebAssembly against the JavaScript walk (its oracle) on the same segments over the demo
// and hand-made levels, seeded and drawn with integer operations only: eye to eye between open spots, random ones
// around the level, tiny steps from cell borders and diagonals, starts differing on one axis, vertical and
// zero-length ones, and hostile coordinates (±0, fractions, beyond 32 bits, non-finite). Every answer must have
// the same bits. Prints one JSON line: { count, hits, mismatches: [first few], digest, wasm: true }.
import { loadWorldFile, packageRoot } from 'retrosim';
import { compareWorlds, seeded } from './wasm-compare.mjs';

/** The levels compared, by their file under assets/worlds/rugrats/. */
export const LEVELS = ['demo.col', 'hand.col'];

/** `count` segments (6 doubles each) over `world` from `seed`, a mix of every kind above. */
export function segmentsFor(world, count, seed) {
  const next = seeded(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const { min, max } = world.bounds;
  const odd = [0, -0, 0.5, -0.5, 0x7fffffff, -0x80000000, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, -(2 ** 40), 1e300, -1e300, NaN, Infinity, -Infinity, 5e-324];
  const along = (a) => {
    const k = next();
    const v = Math.floor(min[a] - 500 + next() * (max[a] - min[a] + 1000));
    if (k < 0.7) return v;
    if (k < 0.85) return (v & -1024) + pick([0, 1, 1023, 1024, -1, 512]);
    if (k < 0.95) return v + pick([0.5, -0.5, 0.999, -1e-9]);
    return pick(odd);
  };
  const open = () => {
    for (let tries = 0; tries < 50; tries++) {
      const p = world.sampleOpen(next(), next());
      if (p) return [p[0], p[1] - 1 - Math.floor(next() * 2000), p[2]];
    }
    return [along(0), along(1), along(2)];
  };
  const out = new Float64Array(count * 6);
  let prev = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < count; i++) {
    const kind = next();
    let seg;
    if (kind < 0.35) {
      const f = open(), t = open();
      seg = [...f, ...t];
    } else if (kind < 0.55) seg = [...open(), along(0), along(1), along(2)];
    else if (kind < 0.65) seg = [along(0), along(1), along(2), along(0), along(1), along(2)];
    else if (kind < 0.75) {
      const f = open();
      const u = Math.floor(next() * 1024);
      const local = pick([[pick([-1, 0, 1, 1023, 1024]), u], [u, u + pick([-1, 0, 1])], [u, 1024 - u + pick([-1, 0, 1])]]);
      const s = [(f[0] & -1024) + local[0], f[1], (f[2] & -1024) + local[1]];
      seg = [...s, s[0] + pick([-3, -1, 0, 1, 3]), s[1] + pick([-2, 0, 2]), s[2] + pick([-3, -1, 0, 1, 3])];
    } else if (kind < 0.85) {
      // The last start moved on one axis (the remembered start must not answer for it).
      seg = [...prev];
      seg[Math.floor(next() * 3)] += pick([1, -1, 1024, -1024, 3000]);
    } else if (kind < 0.9) {
      const f = open();
      seg = [...f, f[0], along(1), f[2]];
    } else if (kind < 0.95) {
      const f = open();
      seg = [...f, ...f];
    } else seg = [...open(), pick([0, -0]), along(1), pick([0, -0])];
    prev = seg;
    out.set(seg, i * 6);
  }
  return out;
}

/** Every level's answers through both walks, compared bit for bit (`load(file, wasm)` gives a world). */
export function compareWalks(load, count, seed) {
  return compareWorlds(LEVELS.length, (f, wasm) => load(LEVELS[f], wasm), segmentsFor, count, seed);
}

// Run as a program (not when bundled into a page, where import.meta.url is not a file's).
const isMain = typeof process !== 'undefined' && typeof process.argv?.[1] === 'string' && typeof import.meta.url === 'string' && import.meta.url.endsWith(process.argv[1].split('/').pop());
if (isMain) {
  const count = Number(process.argv[2] ?? '20000');
  const load = (file, wasm) => loadWorldFile(`${packageRoot()}/assets/worlds/rugrats/${file}`, { wasm }).world;
  process.stdout.write(JSON.stringify(compareWalks(load, count, 20261206)) + '\n');
}
