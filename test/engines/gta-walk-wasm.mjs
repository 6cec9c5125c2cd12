// Run by Node and by Bun (wasm-kernels-engines.test.ts), and its `compareWalks` by the browsers: the GTA scene's
// segment walk in WebAssembly against the JavaScript walk (its oracle) on the same segments, seeded and drawn with
// integer operations only, over the demo town as placed, its models each once at the origin, and the town with
// turned copies (rational quaternions: no engine sin or cos): random ones across the scene, short ones, eye to
// eye above open spots, vertical probes, along an axis (±0 direction components), through triangles' corners
// and edges' middles, zero length, huge and non-finite coordinates. Every answer must have the same bits. Prints one JSON line:
//   { count, hits, mismatches: [first few], digest, wasm: true }.
import { loadGtaWorld, parseGtaPlacements } from 'retrosim/worlds/gta';
import { compareWorlds, seeded } from './wasm-compare.mjs';

/** The scenes: the town as placed, each model once at the origin, the town with turned copies (no broad phase). */
function placementsOf(k, town) {
  if (k === 0) return town;
  if (k === 1) return undefined;
  const turned = town.map((p, i) => ({ model: p.model, position: [p.position[0] + 3.25 * i, p.position[1] - 7.5, p.position[2] + 0.125 * i], rotation: [i % 3 === 0 ? 0.25 : 0, 0, ((i % 7) - 3) / 4, 1] }));
  return [...town, ...turned].slice(0, 22);
}

/** `count` segments over `world` (6 doubles each) from `seed`, a mix of every kind above. */
export function segmentsFor(world, count, seed) {
  const next = seeded(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const { min, max } = world.bounds;
  const s = world.scene;
  // Triangle corners and edges' middles in world space.
  const feats = [];
  for (let i = 0; i < s.instanceCount; i++) {
    const T = s.colliders[s.instModel[i]].tri;
    const R = s.instRot, P = s.instPos;
    const put = (x, y, z) => feats.push([0, 1, 2].map((k) => R[i * 9 + k * 3] * x + R[i * 9 + k * 3 + 1] * y + R[i * 9 + k * 3 + 2] * z + P[i * 3 + k]));
    for (let p = 0; p < T.length && feats.length < 20000; p += 9 * 7) {
      put(T[p], T[p + 1], T[p + 2]);
      put(T[p] + T[p + 3] / 2, T[p + 1] + T[p + 4] / 2, T[p + 2] + T[p + 5] / 2);
    }
  }
  const odd = [0, -0, 1e15, -1e15, 2 ** 15, -(2 ** 15), 2 ** 30, 1e300, -1e300, NaN, Infinity, -Infinity, 5e-324];
  const across = (k) => (next() < 0.97 ? min[k] - 10 + next() * (max[k] - min[k] + 20) : pick(odd));
  const eye = () => {
    for (let t = 0; t < 20; t++) {
      const p = world.sampleOpen(next(), next());
      if (p) return [p[0], p[1], p[2] + 0.9 + next()];
    }
    return [across(0), across(1), across(2)];
  };
  const out = new Float64Array(count * 6);
  for (let i = 0; i < count; i++) {
    const kind = next();
    let seg;
    const x = across(0), y = across(1), z = across(2);
    if (kind < 0.25) seg = [x, y, z, across(0), across(1), across(2)];
    else if (kind < 0.45) seg = [x, y, z, x + (next() - 0.5) * 6, y + (next() - 0.5) * 6, z + (next() - 0.5) * 3];
    else if (kind < 0.65) {
      const a = eye();
      const b = next() < 0.5 ? eye() : [a[0] + (next() - 0.5) * 40, a[1] + (next() - 0.5) * 40, a[2] + (next() - 0.5) * 2];
      seg = [...a, ...b];
    } else if (kind < 0.7) seg = [x, y, max[2] + 1, x, y, min[2] - 1];
    else if (kind < 0.75) seg = [x, y, z, x, y, z];
    else if (kind < 0.8) {
      // Along one axis, the other direction components exactly 0 or −0.
      const k = Math.floor(next() * 3), d = (next() - 0.5) * 60, zero = next() < 0.5 ? 0 : -0;
      seg = [x, y, z, x, y, z];
      seg[3 + k] += d;
      for (let j = 0; j < 3; j++) if (j !== k) seg[3 + j] = seg[j] + zero;
    } else if (kind < 0.95 && feats.length > 0) {
      // Through a feature (corner or edge middle) and beyond, or from one feature to another.
      const p = pick(feats), q = next() < 0.3 ? pick(feats) : [p[0] + (p[0] - x) * 0.5, p[1] + (p[1] - y) * 0.5, p[2] + (p[2] - z) * 0.5];
      seg = next() < 0.5 ? [x, y, z, ...q] : [...p, ...q];
    } else seg = [pick(odd), y, z, x, pick([y, ...odd]), z];
    out.set(seg, i * 6);
  }
  return out;
}

/** The three scenes' answers through both walks, compared bit for bit (the town's .col bytes and placements text). */
export function compareWalks(colBytes, placementsText, count, seed) {
  const town = parseGtaPlacements(placementsText);
  return compareWorlds(3, (k, wasm) => loadGtaWorld(colBytes, 'town', placementsOf(k, town), undefined, wasm), segmentsFor, count, seed);
}

// Run as a program (not when bundled into a page, where import.meta.url is not a file's).
const isMain = typeof process !== 'undefined' && typeof process.argv?.[1] === 'string' && typeof import.meta.url === 'string' && import.meta.url.endsWith(process.argv[1].split('/').pop());
if (isMain) {
  // Node's and Bun's own module loader (a static import of node:fs would not bundle into the page).
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const root = new URL('../../', import.meta.url);
  const bytes = new Uint8Array(readFileSync(new URL('assets/worlds/gta/town.col', root)));
  const text = readFileSync(new URL('assets/worlds/gta/town.placements.json', root), 'utf8');
  const count = Number(process.argv[2] ?? '20000');
  process.stdout.write(JSON.stringify(compareWalks(bytes, text, count, 20261206)) + '\n');
}
