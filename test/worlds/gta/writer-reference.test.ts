/**
 * The GTA collision writers against their reference (reference-col-writer.ts, the writers as they were before
 * they wrote into one exactly-sized buffer): on every shipped asset and real fixture, on generated models of every
 * version, on files laid out the way other tools lay them out, and on models their version cannot hold, the
 * canonical writer and the layout-keeping writer give the reference's bytes, or throw the reference's error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gtaAssetsDir } from '../../../src/node/assets.js';
import { canonicalFlags, emptyMesh, type ColMesh, type ColModel, type ColVersion } from '../../../src/worlds/gta/model.js';
import { parseColFile, parseColModel } from '../../../src/worlds/gta/parse.js';
import { writeColFile, writeColFileOf, writeColModel } from '../../../src/worlds/gta/write.js';
import { colLayoutOf, writeColFileCanonical, writeColFileKeepingLayout, type ColFileLayout } from '../../../src/worlds/gta/layout.js';
import { anyModelArb, modelArb, versionArb } from './arbitrary.js';
import { layOut, layoutArb } from './free-layout.js';
import {
  referenceWriteColFile,
  referenceWriteColFileCanonical,
  referenceWriteColFileKeepingLayout,
  referenceWriteColModel,
} from './reference-col-writer.js';

const fixtureDir = fileURLToPath(new URL('../../../../shared/fixtures/gta-col/', import.meta.url));
const fixturesPresent = existsSync(fixtureDir);
if (!fixturesPresent) console.warn(`gta-col fixtures: ${fixtureDir} is absent (a user's checkout has no ../shared), so the real-file comparison is skipped`);
const FIXTURES = ['coll_fcabin.col', 'col2_raceisland3.col', 'col3_pump_facegroups_pad.col', 'col3_mtrafi_2models.col'];
const ASSETS = ['bench-4k.col', 'town.col'];

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** What a write gave: its bytes (hex), or the error it threw (its name and message). */
function outcome(write: () => Uint8Array): string {
  try {
    return `bytes ${Buffer.from(write()).toString('hex')}`;
  } catch (e) {
    return `threw ${(e as Error).name}: ${(e as Error).message}`;
  }
}

/** Checks every writer against the reference on one parsed file, the layout-keeping one with the file's layout. */
function expectSameAsReference(bytes: Uint8Array, what: string): void {
  const file = parseColFile(bytes);
  const layout = colLayoutOf(bytes, file);
  const canon = writeColFileCanonical(file);
  expect(same(canon, referenceWriteColFileCanonical(file)), `${what}: canonical`).toBe(true);
  const kept = writeColFileKeepingLayout(file.models, layout);
  const ref = referenceWriteColFileKeepingLayout(file.models, layout);
  expect(kept.canonical, what).toEqual(ref.canonical);
  expect(same(kept.bytes, ref.bytes), `${what}: keeping the layout`).toBe(true);
  expect(same(kept.bytes, bytes), `${what}: keeping the layout gives the file back`).toBe(true);
  if (file.models.every((m) => m.flags === canonicalFlags(m))) {
    expect(same(writeColFileOf(file), referenceWriteColFile(file.models, file.trailing)), `${what}: writeColFileOf`).toBe(true);
  }
  for (const m of file.models) {
    const c = m.flags === canonicalFlags(m) ? m : { ...m, flags: canonicalFlags(m) };
    expect(same(writeColModel(c), referenceWriteColModel(c)), `${what}: model ${m.name}`).toBe(true);
  }
  // Models whose counts no longer fit their template go canonical, the others keep theirs, in one file.
  const mixed = file.models.map((m, i) => (i % 2 === 0 ? grown(m) : m));
  const keptMixed = writeColFileKeepingLayout(mixed, layout);
  const refMixed = referenceWriteColFileKeepingLayout(mixed, layout);
  expect(keptMixed.canonical, what).toEqual(refMixed.canonical);
  expect(keptMixed.canonical.length).toBe(Math.ceil(file.models.length / 2));
  expect(same(keptMixed.bytes, refMixed.bytes), `${what}: keeping the layout, some models grown`).toBe(true);
}

/** The model with one more box (so its counts no longer fit its template), flags made canonical. */
function grown(m: ColModel): ColModel {
  const g: ColModel = { ...m, boxes: [...m.boxes, { min: [-1, -2, -3], max: [1, 2, 3], surface: { material: 5, flag: 1, brightness: 2, light: 3 } }] };
  g.flags = canonicalFlags(g);
  return g;
}

/** A copy of a model sharing nothing with it, so a corruption touches only the copy. */
function clone(m: ColModel): ColModel {
  const mesh = (x: ColMesh): ColMesh => ({ ...x, vertices: x.vertices.slice(), indices: x.indices.slice(), surfaces: x.surfaces.slice() });
  return {
    ...m,
    nameBytes: m.nameBytes.slice(),
    bounds: { min: [...m.bounds.min], max: [...m.bounds.max], center: [...m.bounds.center], radius: m.bounds.radius },
    spheres: m.spheres.map((s) => ({ center: [...s.center], radius: s.radius, surface: { ...s.surface } })),
    boxes: m.boxes.map((b) => ({ min: [...b.min], max: [...b.max], surface: { ...b.surface } })),
    lines: m.lines.slice(),
    mesh: mesh(m.mesh),
    faceGroups: m.faceGroups ? m.faceGroups.map((g) => ({ min: [...g.min], max: [...g.max], first: g.first, last: g.last })) : null,
    shadow: m.shadow ? mesh(m.shadow) : null,
  };
}

/** Values a COL2+ vertex cannot hold: not a multiple of 1/128, −0, beyond ±256, NaN, infinite. */
const UNPACKABLE = [0.001, -0, 256, -256.0078125, Number.NaN, Number.POSITIVE_INFINITY, 1 / 256];

/**
 * Ways to make a model something its version cannot hold. Each applies to `m` in place (`k` picks a place or
 * a value) and returns false when it does not apply to this model.
 */
const CORRUPTIONS: Record<string, (m: ColModel, k: number) => boolean> = {
  'name length': (m) => ((m.nameBytes = new Uint8Array(21)), true),
  'model id': (m, k) => ((m.modelId = [0x10000, -1, 2.5][k % 3]!), true),
  'bounds radius not a float32': (m) => ((m.bounds.radius = 0.1), true),
  'bounds min not a float32': (m, k) => ((m.bounds.min[k % 3] = 1e-50), true),
  'sphere radius': (m, k) => m.spheres.length > 0 && ((m.spheres[k % m.spheres.length]!.radius = 0.1), true),
  'sphere surface byte': (m, k) => m.spheres.length > 0 && ((m.spheres[k % m.spheres.length]!.surface.material = 256), true),
  'box corner': (m, k) => m.boxes.length > 0 && ((m.boxes[k % m.boxes.length]!.max[1] = 0.3), true),
  'box surface byte': (m, k) => m.boxes.length > 0 && ((m.boxes[k % m.boxes.length]!.surface.light = 1.5), true),
  'vertex floats for the count': (m) => ((m.mesh.vertexCount += 1), true),
  'face arrays for the count': (m) => m.mesh.faceCount > 0 && ((m.mesh.surfaces = m.mesh.surfaces.subarray(1)), true),
  'index out of range': (m, k) => m.mesh.faceCount > 0 && ((m.mesh.indices[k % m.mesh.indices.length] = m.mesh.vertexCount + (k % 4)), true),
  'vertex not packable': (m, k) => m.version !== 1 && m.mesh.vertices.length > 0 && ((m.mesh.vertices[k % m.mesh.vertices.length] = UNPACKABLE[k % UNPACKABLE.length]!), true),
  'last vertex not packable': (m, k) => m.version !== 1 && m.mesh.vertices.length > 0 && ((m.mesh.vertices[m.mesh.vertices.length - 1] = UNPACKABLE[k % UNPACKABLE.length]!), true),
  'shadow vertex not packable': (m, k) => m.shadow !== null && m.shadow.vertices.length > 0 && ((m.shadow.vertices[k % m.shadow.vertices.length] = UNPACKABLE[k % UNPACKABLE.length]!), true),
  'face flag byte in COL2+': (m, k) => m.version !== 1 && m.mesh.faceCount > 0 && ((m.mesh.surfaces[(k % m.mesh.faceCount) * 4 + 1 + (k % 2)] = 1 + (k % 255)), true),
  'unreferenced vertex in COL2+': (m) => {
    if (m.version === 1) return false;
    const v = new Float32Array(m.mesh.vertices.length + 3);
    v.set(m.mesh.vertices);
    m.mesh = { ...m.mesh, vertices: v, vertexCount: m.mesh.vertexCount + 1 };
    return true;
  },
  'face groups in COLL': (m) => m.version === 1 && ((m.faceGroups = []), true),
  'shadow below COL3': (m) => m.version < 3 && ((m.shadow = { vertexCount: 3, vertices: new Float32Array(9), faceCount: 1, indices: Uint32Array.from([0, 1, 2]), surfaces: new Uint8Array(4) }), true),
  'lines above COLL': (m) => m.version !== 1 && ((m.lines = new Float32Array(6)), true),
  'lines not six floats each': (m) => m.version === 1 && ((m.lines = new Float32Array(m.lines.length + 5)), true),
  'COL4 word outside COL4': (m, k) => ((m.col4Unknown = m.version === 4 ? [-1, 2 ** 32, 0.5][k % 3]! : 1 + k), true),
  'empty shadow mesh': (m) => m.version >= 3 && ((m.shadow = emptyMesh()), true),
  'face group range': (m, k) => m.faceGroups !== null && m.faceGroups.length > 0 && ((m.faceGroups[k % m.faceGroups.length]!.last = m.mesh.faceCount + (k % 3)), true),
  'face group box': (m, k) => m.faceGroups !== null && m.faceGroups.length > 0 && ((m.faceGroups[k % m.faceGroups.length]!.min[0] = 0.2), true),
  'face groups without faces': (m) => m.version !== 1 && ((m.mesh = emptyMesh()), (m.faceGroups = []), true),
  'flags not canonical': (m, k) => m.version !== 1 && ((m.flags = (m.flags ^ [2, 8, 16, 1][k % 4]!) >>> 0), true),
  'flags not a u32': (m, k) => m.version !== 1 && ((m.flags = [-1, 2 ** 32, 3.5][k % 3]!), true),
};
const KINDS = Object.keys(CORRUPTIONS);

describe('GTA COL writers give the reference writer\'s bytes and errors', () => {
  it('on every shipped GTA asset', () => {
    for (const name of ASSETS) expectSameAsReference(new Uint8Array(readFileSync(join(gtaAssetsDir(), name))), name);
  });

  it.skipIf(!fixturesPresent)('on every real fixture (../shared/fixtures/gta-col)', () => {
    for (const name of FIXTURES) expectSameAsReference(new Uint8Array(readFileSync(fixtureDir + name)), name);
  });

  it('on generated models of every version: parse(write(m)) equals m, and the bytes are the reference\'s (property)', () => {
    const seen = new Set<ColVersion>();
    fc.assert(
      fc.property(anyModelArb, (m) => {
        seen.add(m.version);
        const bytes = writeColModel(m);
        expect(parseColModel(bytes)).toEqual(m);
        expect(same(bytes, referenceWriteColModel(m))).toBe(true);
        // One buffer of exactly the output's size.
        expect(bytes.byteOffset).toBe(0);
        expect(bytes.buffer.byteLength).toBe(bytes.length);
      }),
      { numRuns: 400 },
    );
    expect([...seen].sort()).toEqual([1, 2, 3, 4]);
  });

  it('on files of several models and any trailing bytes (property)', () => {
    fc.assert(
      fc.property(fc.array(anyModelArb, { maxLength: 5 }), fc.uint8Array({ maxLength: 40 }), (models, trailing) => {
        const bytes = writeColFile(models, trailing);
        expect(same(bytes, referenceWriteColFile(models, trailing))).toBe(true);
        expect(bytes.buffer.byteLength).toBe(bytes.length);
        if (models.length > 0) expect(parseColFile(bytes).models).toEqual(models);
      }),
      { numRuns: 150 },
    );
  });

  it('on COLL floats that are NaNs with payloads, signalling ones included', () => {
    fc.assert(
      fc.property(modelArb(1), fc.array(fc.integer({ min: 1, max: 0x7fffff }), { minLength: 1, maxLength: 8 }), fc.boolean(), (m, payloads, negative) => {
        const c = clone(m);
        const nan = (i: number): number => {
          const u = new Uint32Array([((negative ? 0xff800000 : 0x7f800000) | payloads[i % payloads.length]!) >>> 0]);
          return new Float32Array(u.buffer)[0]!;
        };
        for (let i = 0; i < c.mesh.vertices.length; i += 2) c.mesh.vertices[i] = nan(i);
        for (let i = 0; i < c.lines.length; i += 3) c.lines[i] = nan(i);
        c.bounds.radius = nan(0);
        expect(same(writeColModel(c), referenceWriteColModel(c))).toBe(true);
        const bytes = referenceWriteColModel(c);
        const file = parseColFile(bytes);
        const layout = colLayoutOf(bytes, file);
        expect(same(writeColFileKeepingLayout(file.models, layout).bytes, referenceWriteColFileKeepingLayout(file.models, layout).bytes)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('on files laid out the way other tools lay them out, models at unaligned offsets, some changed (property)', () => {
    let unaligned = 0;
    let canonicalUsed = 0;
    const col2plus = fc.constantFrom(2, 3, 4).chain((v) => modelArb(v as ColVersion));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(col2plus, modelArb(1)), layoutArb, fc.constantFrom('same', 'moved', 'grown', 'renamed')), { minLength: 1, maxLength: 4 }),
        fc.uint8Array({ maxLength: 7 }),
        (parts, trailing) => {
          const pieces = parts.map(([m, c]) => (m.version === 1 ? referenceWriteColModel(m) : layOut(m, c)));
          const total = pieces.reduce((a, p) => a + p.length, 0);
          // Fewer than 8 trailing bytes: the walk stops there whatever they hold.
          const tail = trailing;
          const bytes = new Uint8Array(total + tail.length);
          let at = 0;
          for (const p of pieces) {
            if (at % 4 !== 0) unaligned++;
            bytes.set(p, at);
            at += p.length;
          }
          bytes.set(tail, at);
          const file = parseColFile(bytes);
          fc.pre(file.models.length === parts.length);
          const layout: ColFileLayout = colLayoutOf(bytes, file);
          const models = file.models.map((p, i) => {
            const how = parts[i]![2];
            if (how === 'grown') return grown(p);
            if (how === 'renamed') return { ...clone(p), modelId: (p.modelId + 1) & 0xffff };
            if (how === 'moved' && p.mesh.vertexCount > 0) {
              const q = clone(p);
              q.mesh.vertices[0] = p.version === 1 ? Math.fround(q.mesh.vertices[0]! + 1) : (q.mesh.vertices[0]! >= 255 ? q.mesh.vertices[0]! - 1 / 128 : q.mesh.vertices[0]! + 1 / 128);
              return q;
            }
            return p;
          });
          const kept = writeColFileKeepingLayout(models, layout);
          const ref = referenceWriteColFileKeepingLayout(models, layout);
          expect(kept.canonical).toEqual(ref.canonical);
          canonicalUsed += kept.canonical.length;
          expect(same(kept.bytes, ref.bytes)).toBe(true);
          expect(same(writeColFileCanonical(file), referenceWriteColFileCanonical(file))).toBe(true);
          // More models than the layout has: the rest are written canonically.
          const more = [...models, ...models.slice(0, 1).map(grown)];
          expect(outcome(() => writeColFileKeepingLayout(more, layout).bytes)).toBe(outcome(() => referenceWriteColFileKeepingLayout(more, layout).bytes));
        },
      ),
      { numRuns: 250 },
    );
    expect(unaligned).toBeGreaterThan(20);
    expect(canonicalUsed).toBeGreaterThan(20);
  });

  it('on models their version cannot hold: the same error, from every writer (property)', () => {
    const ran = new Map<string, number>();
    let threw = 0;
    fc.assert(
      fc.property(
        anyModelArb,
        fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat(1000)), { minLength: 1, maxLength: 3 }),
        (m, corruptions) => {
          const bad = clone(m);
          const applied = corruptions.filter(([kind, k]) => CORRUPTIONS[kind]!(bad, k));
          fc.pre(applied.length > 0);
          for (const [kind] of applied) ran.set(kind, (ran.get(kind) ?? 0) + 1);
          const one = outcome(() => writeColModel(bad));
          expect(one).toBe(outcome(() => referenceWriteColModel(bad)));
          if (one.startsWith('threw')) threw++;
          expect(outcome(() => writeColFile([m, bad]))).toBe(outcome(() => referenceWriteColFile([m, bad])));
          // Keeping the layout of the model before it was corrupted: the overlay's rules, then the canonical ones.
          const bytes = referenceWriteColModel(m);
          const layout = colLayoutOf(bytes, parseColFile(bytes));
          expect(outcome(() => writeColFileKeepingLayout([bad], layout).bytes)).toBe(outcome(() => referenceWriteColFileKeepingLayout([bad], layout).bytes));
        },
      ),
      { numRuns: 1500 },
    );
    for (const kind of KINDS) expect(ran.get(kind) ?? 0, kind).toBeGreaterThan(5);
    expect(threw).toBeGreaterThan(1000);
  });

  it('on layouts that do not point at the mesh: the elements are still checked, with the reference\'s error (property)', () => {
    let ran = 0;
    const col2plus = fc.constantFrom(2, 3, 4).chain((v) => modelArb(v as ColVersion));
    fc.assert(
      fc.property(col2plus, fc.constantFrom('vertices', 'shadowVertices'), fc.nat(100), (m, field, k) => {
        fc.pre(field === 'vertices' ? m.mesh.vertices.length > 0 : m.shadow !== null && m.shadow.vertices.length > 0);
        ran++;
        const bytes = referenceWriteColModel(m);
        const layout = colLayoutOf(bytes, parseColFile(bytes));
        layout.models[0]![field] = -1;
        const bad = clone(m);
        const V = field === 'vertices' ? bad.mesh.vertices : bad.shadow!.vertices;
        V[k % V.length] = UNPACKABLE[k % UNPACKABLE.length]!;
        const r = outcome(() => referenceWriteColFileKeepingLayout([bad], layout).bytes);
        expect(r).toMatch(/^threw ColWriteError/);
        expect(outcome(() => writeColFileKeepingLayout([bad], layout).bytes)).toBe(r);
        // The model itself, unchanged, is written into the layout without the skipped section.
        expect(outcome(() => writeColFileKeepingLayout([m], layout).bytes)).toBe(outcome(() => referenceWriteColFileKeepingLayout([m], layout).bytes));
      }),
      { numRuns: 150 },
    );
    expect(ran).toBeGreaterThan(50);
  });

  it('on COL2+ counts beyond u16 and vertices beyond u16 indices: the same error', () => {
    const big = (faces: number, vertices: number): ColMesh => {
      const indices = new Uint32Array(faces * 3);
      for (let i = 0; i < indices.length; i++) indices[i] = i % vertices;
      indices[indices.length - 1] = vertices - 1;
      return { vertexCount: vertices, vertices: new Float32Array(vertices * 3), faceCount: faces, indices, surfaces: new Uint8Array(faces * 4) };
    };
    for (const version of [2, 3] as ColVersion[]) {
      for (const mesh of [big(0x10000, 3), big(30000, 0x10001)]) {
        const m: ColModel = {
          version, name: 'big', nameBytes: new Uint8Array(22), modelId: 0, bounds: { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 },
          flags: 0, spheres: [], boxes: [], lines: new Float32Array(0), mesh, faceGroups: null, shadow: null, col4Unknown: 0,
        };
        m.flags = canonicalFlags(m);
        const r = outcome(() => referenceWriteColModel(m));
        expect(r).toMatch(/^threw ColWriteError/);
        expect(outcome(() => writeColModel(m))).toBe(r);
      }
    }
  });
});
