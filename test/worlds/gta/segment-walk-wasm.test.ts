/**
 * The GTA scene's segment walk in WebAssembly (WasmSceneWalker, behind GtaWorld.segmentFractions with `wasm:
 * 'on'`) against its oracles: the JavaScript walk (`ColScene.segmentFractions`) and the rule-exact reference
 * (`segmentFractionReference`: every placement in order, each model's tree walked as built). The same answer,
 * bit for bit, for every segment of random batches over random scenes and over the demo town, adversarial
 * segments included: through and along triangles' vertices, edges and faces (degenerate triangles too), through
 * sphere centres and tangent to spheres, on box faces, edges and corners, on placement boxes' faces, ±0
 * direction components, zero length, huge, NaN and infinite coordinates, and batches cut anywhere (the kernel
 * takes them in chunks). The mode itself: off / on / auto, scenes with the broad phase, the load option.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../src/worlds/world.js';
import { ColScene } from '../../../src/worlds/gta/query.js';
import { GtaWorld, loadGtaWorld, parseGtaPlacements } from '../../../src/worlds/gta/collision-world.js';
import { GTA_WASM_CHUNK, gtaWalkWasmModule, WasmSceneWalker } from '../../../src/worlds/gta/segment-walk-wasm.js';
import { jsEngine, wasmAutoChoiceFor } from '../../../src/worlds/wasm-mode.js';
import { loadWorldBytes } from '../../../src/worlds/load.js';
import { colSceneArb, sceneModelArb, smallCoord, smallPoint } from './arbitrary.js';
import { MeshBuilder, computeBounds } from '../../../src/worlds/gta/build.js';
import { emptyModel, type ColModel } from '../../../src/worlds/gta/model.js';

const module = gtaWalkWasmModule();

const bits = new Float64Array(2);
const words = new Uint32Array(bits.buffer);
function sameBits(a: number, b: number): boolean {
  bits[0] = a;
  bits[1] = b;
  return words[0] === words[2] && words[1] === words[3];
}

/**
 * A model of degenerate triangles among ordinary ones: a corner repeated, three corners on a line, all three at
 * one point.
 */
const degenerateModelArb: fc.Arbitrary<ColModel> = fc
  .array(fc.tuple(smallPoint, smallPoint, smallPoint, fc.nat(4)), { minLength: 1, maxLength: 16 })
  .map((tris) => {
    const m = emptyModel(3, 'd');
    const b = new MeshBuilder();
    for (const [p, q, r, kind] of tris) {
      const mid: Vec3 = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2];
      const [x, y, z] = kind === 0 ? [p, p, q] : kind === 1 ? [p, q, mid] : kind === 2 ? [p, p, p] : kind === 3 ? [p, q, q] : [p, q, r];
      b.triangle(b.vertex(...x), b.vertex(...y), b.vertex(...z));
    }
    m.mesh = b.build();
    m.bounds = computeBounds(m);
    return m;
  });
const modelArb = fc.oneof({ weight: 4, arbitrary: sceneModelArb({ maxTriangles: 20, zeroRadiusSpheres: true }) }, { weight: 1, arbitrary: degenerateModelArb });
const spread = fc.integer({ min: -6400, max: 6400 }).map((i) => i / 64);
const huge = fc.constantFrom(1e15, -1e15, 3e200, -7.7e15, 2 ** 30, -(2 ** 31));
const posArb: fc.Arbitrary<Vec3> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(spread, spread, smallCoord) },
  { weight: 2, arbitrary: smallPoint },
  { weight: 1, arbitrary: fc.tuple(huge, smallCoord, smallCoord) },
);
/**
 * Scenes, a third of them with every placement at the origin unturned: there a feature's world point is its model
 * point exactly, so segments pass exactly through node boxes' corners and along their faces.
 */
const sceneArb = fc.tuple(colSceneArb({ model: modelArb, maxModels: 4, position: posArb, copyFreq: 4 }), fc.nat(2)).map(([scene, k]) =>
  k > 0 ? scene : { models: scene.models, placements: scene.placements.map((p) => ({ model: p.model, position: [0, 0, 0] as Vec3 })) },
);

/** Points of the scene's own geometry in world space: where the adversarial segments start, end or pass. */
function features(s: ColScene): Vec3[] {
  const out: Vec3[] = [];
  const R = s.instRot, P = s.instPos;
  for (let i = 0; i < s.instanceCount; i++) {
    const world = (x: number, y: number, z: number): Vec3 => {
      const v: number[] = [];
      for (let k = 0; k < 3; k++) v.push(R[i * 9 + k * 3]! * x + R[i * 9 + k * 3 + 1]! * y + R[i * 9 + k * 3 + 2]! * z + P[i * 3 + k]!);
      return v as Vec3;
    };
    const c = s.colliders[s.instModel[i]!]!;
    const T = c.tri;
    for (let p = 0; p < T.length; p += 9) {
      const [x, y, z] = [T[p]!, T[p + 1]!, T[p + 2]!];
      const [ax, ay, az] = [T[p + 3]!, T[p + 4]!, T[p + 5]!];
      const [bx, by, bz] = [T[p + 6]!, T[p + 7]!, T[p + 8]!];
      // The corners, the edges' middles, the centroid.
      out.push(world(x, y, z), world(x + ax, y + ay, z + az), world(x + bx, y + by, z + bz));
      out.push(world(x + ax / 2, y + ay / 2, z + az / 2), world(x + bx / 2, y + by / 2, z + bz / 2), world(x + (ax + bx) / 2, y + (ay + by) / 2, z + (az + bz) / 2));
      out.push(world(x + (ax + bx) / 3, y + (ay + by) / 3, z + (az + bz) / 3));
    }
    const S = c.spheres;
    for (let q = 0; q < S.length; q += 4) {
      const [x, y, z, r] = [S[q]!, S[q + 1]!, S[q + 2]!, S[q + 3]!];
      // The centre and the points where an axis leaves the sphere (segments along the other axes are tangent).
      out.push(world(x, y, z), world(x + r, y, z), world(x, y - r, z), world(x, y, z + r));
    }
    const B = c.boxes;
    for (let q = 0; q < B.length; q += 6) {
      for (let corner = 0; corner < 8; corner++) out.push(world(B[q + (corner & 1 ? 3 : 0)]!, B[q + (corner & 2 ? 4 : 1)]!, B[q + (corner & 4 ? 5 : 2)]!));
      out.push(world((B[q]! + B[q + 3]!) / 2, (B[q + 1]! + B[q + 4]!) / 2, B[q + 5]!), world(B[q]!, (B[q + 1]! + B[q + 4]!) / 2, (B[q + 2]! + B[q + 5]!) / 2));
    }
    // The tree's node boxes (padded, so no vertex lies on them): their corners and faces' middles.
    for (const [NB, n] of [[c.packBox, c.packBox.length], [c.rootBox, 6]] as const) {
      for (let q = 0; q < n; q += 6) {
        out.push(world(NB[q]!, NB[q + 1]!, NB[q + 2]!), world(NB[q + 3]!, NB[q + 4]!, NB[q + 5]!), world(NB[q]!, (NB[q + 1]! + NB[q + 4]!) / 2, NB[q + 5]!));
      }
    }
    const IB = s.instBox;
    if (IB[i * 6]! <= IB[i * 6 + 3]!) out.push([IB[i * 6]!, (IB[i * 6 + 1]! + IB[i * 6 + 4]!) / 2, IB[i * 6 + 5]!], [IB[i * 6 + 3]!, IB[i * 6 + 4]!, IB[i * 6 + 2]!]);
  }
  return out.filter((p) => p.every((v) => Number.isFinite(v)));
}

type Seg = [number, number, number, number, number, number];
const odd = fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e308, -1e308, 5e-324, 2 ** 15, -(2 ** 15) - 1 / 64);
/** How a segment is made from the scene's feature points (picked by index) and free numbers. */
type Recipe = [number, number, number, Vec3, number, number, number];
const recipe: fc.Arbitrary<Recipe> = fc.tuple(fc.nat(7), fc.nat(), fc.nat(), fc.tuple(spread, spread, smallCoord), fc.nat(5), fc.constantFrom(0, 1e-12, -1e-12, 2 ** -40, 0.5, -3), odd);

function makeSegment(feat: Vec3[], [how, a, b, free, axis, d, x]: Recipe): Seg {
  const p = feat.length > 0 ? feat[a % feat.length]! : free;
  const q = feat.length > 0 ? feat[b % feat.length]! : free;
  switch (how) {
    case 0: // feature to feature (along an edge, through a vertex, across a face)
      return [...p, ...q];
    case 1: // from a free point through a feature and beyond it
      return [...free, p[0] + (p[0] - free[0]) * 0.5, p[1] + (p[1] - free[1]) * 0.5, p[2] + (p[2] - free[2]) * 0.5];
    case 2: {
      // Along one axis through a feature, a little off it: the other two direction components are exactly 0 or −0.
      const k = axis % 3, sign = axis < 3 ? 1 : -1;
      const s: Seg = [p[0], p[1], p[2], p[0], p[1], p[2]];
      s[(k + 1) % 3] += d;
      s[((k + 1) % 3) + 3] += d;
      s[k] -= 5 * sign;
      s[k + 3] += 5 * sign;
      if (axis >= 3) {
        // −0 direction components: ends written as −0 where they are 0.
        for (let j = 0; j < 6; j++) if (s[j] === 0) s[j] = -0;
      }
      return s;
    }
    case 3: // zero length, on a feature
      return [...p, ...p];
    case 4: // a feature to an odd number somewhere
      return axis === 0 ? [x, p[1], p[2], ...q] : [...p, q[0], axis === 1 ? x : q[1], q[2]];
    case 5: // ends a hair off a feature
      return [...free, p[0] + d * 1e-3, p[1] - d * 1e-3, p[2] + d];
    default: // free
      return [...free, ...q];
  }
}

/** The three answers to a batch, cut at [start, end): the kernel's, the JavaScript walk's, the reference's. */
function answers(s: ColScene, walker: WasmSceneWalker, segs: Seg[], start: number, end: number): { wasm: Float64Array; js: Float64Array; ref: Float64Array } {
  const batch = new Float64Array(segs.length * 6);
  segs.forEach((g, i) => batch.set(g, i * 6));
  const wasm = new Float64Array(segs.length).fill(7);
  const js = new Float64Array(segs.length).fill(7);
  const ref = new Float64Array(segs.length).fill(7);
  walker.segmentFractions(batch, start, end, wasm);
  s.segmentFractions(batch, start, end, js);
  for (let i = start; i < end; i++) ref[i] = s.segmentFractionReference(...segs[i]!);
  return { wasm, js, ref };
}

function town(wasm: 'off' | 'on' | 'auto' = 'on'): GtaWorld {
  const root = new URL('../../../', import.meta.url);
  const bytes = new Uint8Array(readFileSync(new URL('assets/worlds/gta/town.col', root)));
  const placements = parseGtaPlacements(readFileSync(new URL('assets/worlds/gta/town.placements.json', root), 'utf8'));
  return loadGtaWorld(bytes, 'town', placements, undefined, wasm);
}

describe('the GTA segment walk in WebAssembly equals the JavaScript walk and the reference', () => {
  it('compiles here', () => {
    expect(module).not.toBeNull();
  });

  it('on random scenes and adversarial segments, bit for bit, batches cut anywhere (property)', () => {
    let cases = 0, hits = 0, tiny = 0;
    fc.assert(
      fc.property(sceneArb, fc.array(recipe, { minLength: 10, maxLength: 40 }), fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 4 }), ({ models, placements }, recipes, cut) => {
        const s = new ColScene(models, placements, { broadPhase: false });
        const walker = new WasmSceneWalker(module!, s.kernel.tables());
        const feat = features(s);
        const segs = recipes.map((r) => makeSegment(feat, r));
        const start = cut ? cut[0] % (segs.length + 1) : 0;
        const end = cut ? start + (cut[1] % (segs.length - start + 1)) : segs.length;
        const { wasm, js, ref } = answers(s, walker, segs, start, end);
        for (let i = 0; i < segs.length; i++) {
          // Inside the range: all three the same bits; outside it: untouched.
          expect([i, sameBits(wasm[i]!, js[i]!), sameBits(wasm[i]!, ref[i]!)]).toEqual([i, true, true]);
          if (i >= start && i < end) {
            cases++;
            if (wasm[i]! >= 0) hits++;
            if (wasm[i]! > 0 && wasm[i]! < 1e-9) tiny++;
          }
        }
      }),
      { numRuns: 500 },
    );
    expect(cases).toBeGreaterThan(3000);
    expect(hits).toBeGreaterThan(1500);
    // Segments that graze a surface at their start (hits just after 0) are among them.
    expect(tiny).toBeGreaterThan(20);
  });

  it('on the town: random segments over it and along the ground, and eye-to-eye segments in batches longer than a chunk (property)', () => {
    const w = town('on');
    const js = town('off');
    expect(w.scene.broad).toBeNull();
    expect(w.wasmKernels).toBe(true);
    expect(js.wasmKernels).toBe(false);
    const x = fc.integer({ min: -90 * 64, max: 90 * 64 }).map((i) => i / 64);
    const z = fc.integer({ min: -64, max: 20 * 64 }).map((i) => i / 64);
    let hits = 0, n = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(x, x, z, x, x, z), { minLength: 20, maxLength: 80 }), fc.array(recipe, { maxLength: 20 }), (free, recipes) => {
        const feat = features(w.scene);
        const segs: Seg[] = [...free, ...recipes.map((r) => makeSegment(feat, r))];
        const batch = new Float64Array(segs.length * 6);
        segs.forEach((g, i) => batch.set(g, i * 6));
        const a = new Float64Array(segs.length), b = new Float64Array(segs.length);
        w.segmentFractions(batch, 0, segs.length, a);
        js.segmentFractions(batch, 0, segs.length, b);
        segs.forEach((g, i) => {
          expect([i, sameBits(a[i]!, b[i]!), sameBits(a[i]!, w.segmentFractionReference(...g))]).toEqual([i, true, true]);
          n++;
          if (a[i]! >= 0) hits++;
        });
      }),
      { numRuns: 150 },
    );
    expect(n).toBeGreaterThan(4000);
    expect(hits).toBeGreaterThan(800);
    // Eye-to-eye: eyes 0.9 to 1.7 m above open spots, every pair within 20 m, more segments than a chunk.
    const eyes: Vec3[] = [];
    for (let k = 0; eyes.length < 700 && k < 16000; k++) {
      const p = w.sampleOpen(((k * 0.618034) % 1 + 1) % 1, ((k * 0.4142136) % 1 + 1) % 1);
      if (p) eyes.push([p[0], p[1], p[2] + 0.9 + (k % 9) / 10]);
    }
    const flat: number[] = [];
    for (let i = 0; i < eyes.length; i++) {
      for (let j = i + 1; j < eyes.length; j++) {
        const [p, q] = [eyes[i]!, eyes[j]!];
        if ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 <= 400) flat.push(...p, ...q);
      }
    }
    const seg = Float64Array.from(flat);
    const count = seg.length / 6;
    expect(count).toBeGreaterThan(GTA_WASM_CHUNK + 1);
    const a = new Float64Array(count), b = new Float64Array(count);
    w.segmentFractions(seg, 0, count, a);
    js.segmentFractions(seg, 0, count, b);
    let visible = 0;
    for (let i = 0; i < count; i++) {
      if (!sameBits(a[i]!, b[i]!)) expect([i, a[i], b[i]]).toEqual([i, b[i], b[i]]);
      if (a[i]! < 0) visible++;
    }
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(count);
  });

  it('refuses a bad range as the JavaScript does', () => {
    const w = town('on');
    const six = new Float64Array(12);
    expect(() => w.segmentFractions(six, 0, 3, new Float64Array(3))).toThrow(/segment range 0\.\.3 is not within the batch's 2 segments/);
    expect(() => w.segmentFractions(six, 0, 2, new Float64Array(1))).toThrow(/output arrays hold 1 answers, 2 needed/);
  });
});

describe('the GTA world\'s wasm mode', () => {
  it('off, on and auto by the constructor, setWasm and the load option; other values refused', () => {
    const w = town('off');
    expect(w.wasmKernels).toBe(false);
    expect(w.setWasm('on')).toBe(true);
    expect(w.wasmKernels).toBe(true);
    expect(w.setWasm('off')).toBe(false);
    expect(w.setWasm('auto')).toBe(wasmAutoChoiceFor('gta-walk', true, jsEngine()));
    expect(() => w.setWasm('fast' as never)).toThrow(/GtaWorld\.setWasm: wasm mode must be one of off, on, auto \(got "fast"\)/);
    const root = new URL('../../../', import.meta.url);
    const bytes = new Uint8Array(readFileSync(new URL('assets/worlds/gta/town.col', root)));
    const placements = parseGtaPlacements(readFileSync(new URL('assets/worlds/gta/town.placements.json', root), 'utf8'));
    expect((loadWorldBytes(bytes, 't', { placements, wasm: 'off' }) as GtaWorld).wasmKernels).toBe(false);
    expect((loadWorldBytes(bytes, 't', { placements, wasm: 'on' }) as GtaWorld).wasmKernels).toBe(true);
    expect((loadWorldBytes(bytes, 't', { placements }) as GtaWorld).wasmKernels).toBe(wasmAutoChoiceFor('gta-walk', true));
  });

  it('auto takes the walk where it was measured faster (V8, SpiderMonkey, JavaScriptCore) and only where it compiles', () => {
    for (const engine of ['v8', 'spidermonkey', 'jsc'] as const) {
      expect(wasmAutoChoiceFor('gta-walk', true, engine)).toBe(true);
      expect(wasmAutoChoiceFor('gta-walk', false, engine)).toBe(false);
    }
    expect(wasmAutoChoiceFor('gta-walk', true, 'other')).toBe(false);
    expect(town('auto').wasmKernels).toBe(true);
  });

  it('a scene with the broad phase over placements keeps the JavaScript walk, even with on', () => {
    const w = town('off');
    const broad = new GtaWorld('broad', w.file, undefined, { broadPhase: true }, 'on');
    expect(broad.scene.broad).not.toBeNull();
    expect(broad.wasmKernels).toBe(false);
    expect(broad.setWasm('on')).toBe(false);
  });
});
