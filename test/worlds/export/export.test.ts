/**
 * Exporting every world's collision geometry: every glTF/GLB passes Khronos's glTF validator with no errors
 * and reads back with glTF Transform with the triangle counts and bounds of the world's own data; every OBJ
 * reads back with a small strict parser (below) with the same counts; ids are the ones the queries report.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import validator from 'gltf-validator';
import { Logger, NodeIO } from '@gltf-transform/core';
import { loadWorldFile } from '../../../src/node/world-files.js';
import { exportScene, SPHERE_TRIANGLES } from '../../../src/worlds/export/worlds.js';
import { writeGlb, writeGltf } from '../../../src/worlds/export/gltf.js';
import { writeObj } from '../../../src/worlds/export/obj.js';
import type { ExportScene } from '../../../src/worlds/export/scene.js';
import type { CollisionWorld } from '../../../src/worlds/world.js';
import type { GtaWorld } from '../../../src/worlds/gta/collision-world.js';
import type { ColbinWorld } from '../../../src/worlds/colbin/collision-world.js';
import type { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import type { RugratsWorld } from '../../../src/worlds/rugrats/collision-world.js';
import type { PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { FLAG_LAST } from '../../../src/worlds/rugrats/layout.js';
import { CELLS } from '../../../src/worlds/piney/field-state.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../setup/temp-dir.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtureDir = fileURLToPath(new URL('../../../../shared/fixtures/gta-col/', import.meta.url));
const fixtures = existsSync(fixtureDir) ? ['coll_fcabin.col', 'col2_raceisland3.col', 'col3_pump_facegroups_pad.col', 'col3_mtrafi_2models.col'].map((f) => fixtureDir + f) : [];
if (fixtures.length === 0) console.warn(`gta-col fixtures: ${fixtureDir} is absent, so only the shipped worlds are exported`);

const WORLDS = [
  'assets/worlds/rugrats/demo.col',
  'assets/worlds/rugrats/hand.col',
  'assets/worlds/llama/demo.trak',
  'assets/worlds/colbin/demo.colbin',
  'assets/worlds/colbin/demo-v1.colbin',
  'assets/worlds/gta/town.col',
  'assets/worlds/gta/bench-4k.col',
  'assets/worlds/piney/default.field.json',
].map((p) => root + p);

/** Triangles per part name, counted from the world's own data (not from the exporter). */
function expectedCounts(w: CollisionWorld): Map<string, number> {
  const m = new Map<string, number>();
  const add = (k: string, n: number) => {
    if (n > 0) m.set(k, (m.get(k) ?? 0) + n);
  };
  if (w.kind === 'gta') {
    const s = (w as GtaWorld).scene;
    for (let i = 0; i < s.instanceCount; i++) {
      const model = s.models[s.instModel[i]!]!;
      add('spheres', model.spheres.length * SPHERE_TRIANGLES);
      add('boxes', model.boxes.length * 12);
      add('mesh', model.mesh.faceCount);
      add('shadow', model.shadow?.faceCount ?? 0);
    }
  } else if (w.kind === 'colbin') {
    const f = (w as ColbinWorld).file;
    add('floors', f.floorCount);
    add('walls', f.wallCount * 12);
  } else if (w.kind === 'llama') {
    const c = (w as LlamaWorld).collision;
    for (let t = 0; t < c.tileCount; t++) {
      for (let v = 0; v < 2; v++) {
        const slot = (t * 2 + v) * 4;
        for (let p = c.ranges[slot]!; p < c.ranges[slot + 3]!; p++) {
          if (!c.active[p]) continue;
          const kind = v === 1 ? 'swaps' : p < c.ranges[slot + 1]! ? 'floors' : p < c.ranges[slot + 2]! ? 'ceilings' : 'walls';
          add(kind, c.edgeCount[p]! - 2);
        }
      }
    }
  } else if (w.kind === 'rugrats') {
    const ix = (w as RugratsWorld).index;
    for (let cell = 0; cell < ix.cellZ.length; cell++) {
      const halved = ix.cellStackB[cell]! >= 0;
      for (const first of [ix.cellStackA[cell]!, ix.cellStackB[cell]!]) {
        if (first < 0) continue;
        for (let t = first; ; t++) {
          if (ix.tileFloor[t]! > ix.tileCeiling[t]!) {
            add('floors', halved ? 1 : 2);
            add('ceilings', halved ? 1 : 2);
          }
          if (ix.tileFlags[t]! & FLAG_LAST) break;
        }
      }
    }
  } else if (w.kind === 'piney') {
    add('terrain', CELLS * CELLS * 2);
    add('objects', 12 * (w as PineyWorld).field.objects.length);
  }
  return m;
}

/** The world's bounds in export space (metres, +Y up), as min/max per axis. */
function exportBounds(w: CollisionWorld): { min: number[]; max: number[] } {
  const s = 1 / w.scale;
  const { min: a, max: b } = w.bounds;
  const map = (x: number, y: number, z: number): number[] => {
    switch (w.kind) {
      case 'rugrats':
        return [x * s, -y * s, -z * s];
      case 'colbin':
        return (w as ColbinWorld).upSign < 0 ? [x * s, -y * s, -z * s] : [-x * s, y * s, -z * s];
      case 'llama':
        return [x * s, y * s, z * s];
      default:
        return [x * s, z * s, -y * s];
    }
  };
  const p = map(a[0], a[1], a[2]), q = map(b[0], b[1], b[2]);
  return { min: p.map((v, i) => Math.min(v, q[i]!)), max: p.map((v, i) => Math.max(v, q[i]!)) };
}

const countsOf = (scene: ExportScene): Map<string, number> => {
  const m = new Map<string, number>();
  for (const p of scene.parts) m.set(p.name, (m.get(p.name) ?? 0) + p.count);
  return m;
};

/** A strict OBJ reader for the exporter's output: v, f (three indices), o, g, usemtl, mtllib, comments. */
function readObj(text: string, mtl: string): { triangles: number; byGroup: Map<string, number>; min: number[]; max: number[]; ids: number } {
  const materials = new Set(mtl.split('\n').filter((l) => l.startsWith('newmtl ')).map((l) => l.slice(7)));
  let vertices = 0;
  let triangles = 0;
  let group = '';
  let ids = 0;
  let mat = '';
  const byGroup = new Map<string, number>();
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  text.split('\n').forEach((line, i) => {
    const at = `line ${i + 1}: ${line}`;
    if (line === '') return;
    if (line.startsWith('# _FLOOR_ID ')) {
      expect(Number.isFinite(Number(line.slice(12))), at).toBe(true);
      ids++;
      return;
    }
    if (line.startsWith('#')) return;
    const [kw, ...rest] = line.split(' ');
    if (kw === 'v') {
      expect(rest.length, at).toBe(3);
      rest.forEach((t, k) => {
        expect(t, at).toMatch(/^-?\d+(\.\d+)?(e-?\d+)?$/);
        const v = Number(t);
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      });
      vertices++;
    } else if (kw === 'f') {
      expect(rest.length, at).toBe(3);
      for (const t of rest) {
        expect(t, at).toMatch(/^\d+$/);
        expect(Number(t) >= 1 && Number(t) <= vertices, at).toBe(true);
      }
      expect(mat, `${at}: a face before any usemtl`).not.toBe('');
      triangles++;
      byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
    } else if (kw === 'g') group = rest.join(' ').replace(/ \(hidden\)$/, '');
    else if (kw === 'usemtl') {
      expect(materials.has(rest.join(' ')), at).toBe(true);
      mat = rest.join(' ');
    } else if (kw === 'o' || kw === 'mtllib') expect(rest.length, at).toBeGreaterThan(0);
    else throw new Error(`unexpected OBJ statement at ${at}`);
  });
  return { triangles, byGroup, min, max, ids };
}

const io = new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR));

describe('world export: glTF, GLB and OBJ of every world', () => {
  for (const path of [...WORLDS, ...fixtures]) {
    const name = path.split('/').slice(-2).join('/');
    it(`${name}: valid glTF and GLB with the world's triangle counts and bounds; OBJ reads back the same`, { timeout: 60_000 }, async () => {
      const world = loadWorldFile(path).world;
      const scene = exportScene(world);
      const want = expectedCounts(world);
      if (world.kind === 'rugrats') {
        // Walls have no count of their own in the file: check each is a vertical face on a cell edge or diagonal.
        const walls = scene.parts.find((p) => p.name === 'walls')!;
        const ix = (world as RugratsWorld).index;
        for (let t = 0; t < walls.count; t++) {
          const q = walls.positions.subarray(t * 9, t * 9 + 9);
          const ux = q[3]! - q[0]!, uy = q[4]! - q[1]!, uz = q[5]! - q[2]!, vx = q[6]! - q[0]!, vy = q[7]! - q[1]!, vz = q[8]! - q[2]!;
          expect(Math.abs(uz * vx - ux * vz)).toBeLessThan(1e-6 * (Math.abs(uy * vz) + Math.abs(uz * vy) + 1));
          const onGrid = (m: number, o: number) => Math.abs(((m * 1024 - o) / 1024) - Math.round((m * 1024 - o) / 1024)) < 1e-6;
          for (let k = 0; k < 3; k++) {
            const x = q[k * 3]!, z = -q[k * 3 + 2]!;
            expect(onGrid(x, ix.minX) || onGrid(z, ix.minZ)).toBe(true);
          }
        }
        want.set('walls', walls.count);
      }
      expect(countsOf(scene)).toEqual(want);
      const total = [...want.values()].reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(0);
      const bounds = exportBounds(world);
      const tol = 1e-3;
      for (const [kind, bytes] of [['glb', writeGlb(scene)], ['gltf', writeGltf(scene)]] as const) {
        const report = await validator.validateBytes(bytes);
        expect(report.issues.numErrors, `${kind}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`).toBe(0);
        expect(report.issues.numWarnings, `${kind}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`).toBe(0);
        const doc = kind === 'glb' ? await io.readBinary(bytes) : await io.readJSON({ json: JSON.parse(new TextDecoder().decode(bytes)), resources: {} });
        const byMesh = new Map<string, number>();
        const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
        let ids = 0;
        for (const mesh of doc.getRoot().listMeshes()) {
          const part = mesh.getName().split('/').pop()!;
          for (const prim of mesh.listPrimitives()) {
            const pos = prim.getAttribute('POSITION')!;
            const id = prim.getAttribute('_FLOOR_ID')!;
            expect(id.getCount()).toBe(pos.getCount());
            ids += id.getCount();
            byMesh.set(part, (byMesh.get(part) ?? 0) + pos.getCount() / 3);
            const a = pos.getMinNormalized([]), b = pos.getMaxNormalized([]);
            for (let k = 0; k < 3; k++) {
              min[k] = Math.min(min[k]!, a[k]!);
              max[k] = Math.max(max[k]!, b[k]!);
            }
          }
        }
        expect(byMesh).toEqual(want);
        expect(ids).toBe(total * 3);
        for (let k = 0; k < 3; k++) {
          const span = Math.max(1, bounds.max[k]! - bounds.min[k]!);
          expect(min[k]!).toBeGreaterThanOrEqual(bounds.min[k]! - tol * span);
          expect(max[k]!).toBeLessThanOrEqual(bounds.max[k]! + tol * span);
          // The worlds whose bounds come from the geometry itself: the same box.
          if (world.kind === 'gta' || world.kind === 'piney') {
            expect(min[k]!).toBeCloseTo(bounds.min[k]!, 2);
            expect(max[k]!).toBeCloseTo(bounds.max[k]!, 2);
          }
        }
      }
      const { obj, mtl } = writeObj(scene, 'x.mtl');
      const r = readObj(obj, mtl);
      expect(r.triangles).toBe(total);
      expect(r.byGroup).toEqual(want);
      expect(r.ids).toBeGreaterThan(0);
    });
  }

  it('the ids are what the queries report: a downward segment onto an exported floor names the same id', () => {
    for (const path of WORLDS.filter((p) => /colbin\/demo\.colbin|gta\/town|piney/.test(p))) {
      const world = loadWorldFile(path).world;
      const scene = exportScene(world);
      const part = scene.parts.find((p) => p.name === 'floors' || p.name === 'mesh' || p.name === 'terrain')!;
      let checked = 0;
      for (let t = 0; t < part.count && checked < 20; t += Math.max(1, Math.floor(part.count / 20))) {
        // The triangle's centroid, back in native units, probed from just above it.
        const P = part.positions;
        const c = [0, 1, 2].map((k) => (P[t * 9 + k]! + P[t * 9 + 3 + k]! + P[t * 9 + 6 + k]!) / 3);
        const s = world.scale;
        const native = world.kind === 'colbin' ? [c[0]! * s, -c[1]! * s, -c[2]! * s] : [c[0]! * s, -c[2]! * s, c[1]! * s];
        const g = world.ground(native.map((v, k) => (k === world.up.axis ? v + world.up.sign * 0.01 * s : v)) as [number, number, number]);
        if (!g.hasFloor) continue;
        if (Math.abs(g.floor - native[world.up.axis]!) > 0.02 * s) continue; // another surface just above
        checked++;
        if (world.kind !== 'gta') expect(g.id).toBe(part.ids[t]);
      }
      expect(checked).toBeGreaterThan(5);
    }
  });

  it('retrosim world export writes .glb, .gltf and .obj + .mtl, and refuses another extension', () => {
    const dir = tempDir('retrosim-export-');
    const r = runCli(['world', 'export', root + 'assets/worlds/gta/town.col', '--out', join(dir, 'town.obj'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files).toEqual([join(dir, 'town.obj'), join(dir, 'town.mtl')]);
    expect(out.triangles).toBe(readObj(readFileSync(join(dir, 'town.obj'), 'utf8'), readFileSync(join(dir, 'town.mtl'), 'utf8')).triangles);
    expect(out.parts.filter((p: { hidden: boolean }) => p.hidden).map((p: { name: string }) => p.name)).toEqual(['shadow']);
    expect(runCli(['world', 'export', root + 'assets/worlds/gta/town.col', '--out', join(dir, 'town.stl')]).code).toBe(2);
    const g = runCli(['world', 'export', root + 'assets/worlds/llama/demo.map', '--out', join(dir, 'demo.glb')]);
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/^llama .* triangles/);
  });
});
