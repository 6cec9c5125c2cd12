// Run by Node and by Bun (piney-cast-wasm-engines.test.ts), and its `compareCasts` by the browsers: the Piney
// field's segment cast in WebAssembly against the JavaScript cast (its oracle) on the same segments, seeded and
// drawn with integer operations only: random ones across the field, short ones, and the adversarial ones (±0,
// ends on cell borders and corners, zero length, vertical, along an axis, huge and non-finite coordinates).
// Every answer must have the same bits. Prints one JSON line:
//   { count, hits, mismatches: [first few], digest, wasm: true }.
import { defaultPineyTables } from 'retrosim';
import { loadPineyWorld } from 'retrosim/worlds/piney';
import { compareWorlds, seeded } from './wasm-compare.mjs';

/** The fields compared: the default one, one with hills and many objects, one flat. */
export const FIELDS = [
  { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 0, protect: false },
  { seed: 77, fieldType: 2, weather: 3, ground: 2, object: 2, event: 0, protect: false },
  { seed: 1, fieldType: 0, weather: 0, ground: 0, object: 0, event: 0, protect: false },
];

/** `count` segments (6 doubles each) from `seed`, a mix of every kind above. */
export function segmentsFor(count, seed) {
  const next = seeded(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const SIZE = 48000;
  const odd = [0, -0, SIZE, SIZE - 1e-9, 600, -600, 599.9999999999999, 1e15, -1e15, 2 ** 41, -(2 ** 41), 1e300, -1e300, NaN, Infinity, -Infinity, 5e-324, -5e-324];
  const across = () => {
    const k = next();
    if (k < 0.6) return -2000 + next() * (SIZE + 4000);
    if (k < 0.85) return (Math.floor(next() * 89) - 4) * 600;
    if (k < 0.95) return (Math.floor(next() * 89) - 4) * 600 + pick([1e-9, -1e-9, 1e-12, -1e-12]);
    return pick(odd);
  };
  const up = () => {
    const k = next();
    if (k < 0.85) return -200 + next() * 1700;
    if (k < 0.95) return Math.floor(next() * 12) * 100;
    return pick([0, -0, 1e6, -1e6, NaN, Infinity, -Infinity]);
  };
  const out = new Float64Array(count * 6);
  for (let i = 0; i < count; i++) {
    const kind = next();
    let seg;
    const x = across(), y = across(), z = up();
    if (kind < 0.3) seg = [x, y, z, across(), across(), up()];
    else if (kind < 0.7) seg = [x, y, z, x + (next() - 0.5) * 5000, y + (next() - 0.5) * 5000, z + (next() - 0.5) * 600];
    else if (kind < 0.75) seg = [x, y, z, x, y, z];
    else if (kind < 0.8) seg = [x, y, z, across(), y, z];
    else if (kind < 0.85) seg = [x, y, z, x, y, up()];
    else if (kind < 0.9) {
      // eye to eye a little above the ground (what line of sight casts), with -0 directions now and then
      const a = Math.floor(next() * 80) * 600, b = Math.floor(next() * 80) * 600;
      seg = [a, b, 80 + next() * 200, next() < 0.5 ? -0 : a, b + (next() - 0.5) * 8000, 80 + next() * 200];
    } else if (kind < 0.95) {
      const d = (next() - 0.5) * 2e6;
      seg = [x, y, z, x + d, y - d / 3, z];
    } else seg = [pick([1e12, -3e12, 2 ** 41, 1e15]), y, z, pick([0, 1e12 + 600, 2 ** 41 - 1200]), y + 700, up()];
    out.set(seg, i * 6);
  }
  return out;
}

/** Every field's answers through both casts, compared bit for bit (`load(params, wasm)` gives a world). */
export function compareCasts(load, count, seed) {
  return compareWorlds(FIELDS.map((params, f) => ({ js: load(params, 'off'), wa: load(params, 'on'), segs: segmentsFor(count, seed + f) })), count);
}

// Run as a program (not when bundled into a page, where import.meta.url is not a file's).
const isMain = typeof process !== 'undefined' && typeof process.argv?.[1] === 'string' && typeof import.meta.url === 'string' && import.meta.url.endsWith(process.argv[1].split('/').pop());
if (isMain) {
  const tables = defaultPineyTables();
  const count = Number(process.argv[2] ?? '20000');
  const result = compareCasts((p, wasm) => loadPineyWorld(p, 'field', tables, undefined, wasm), count, 20261205);
  process.stdout.write(JSON.stringify(result) + '\n');
}
