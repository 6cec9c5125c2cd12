/**
 * Conformance over the real files in ../shared/fixtures/gta-col/ (expected values from its README, which were
 * checked with an independent reader and with DragonFF). The folder is not shipped to users: when it is absent
 * the suite is skipped with a message saying so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColFileOf } from '../../../src/worlds/gta/write.js';
import { loadGtaWorld } from '../../../src/worlds/gta/collision-world.js';
import { runCli } from '../../cli/run-cli.js';

const fixtureDir = fileURLToPath(new URL('../../../../shared/fixtures/gta-col/', import.meta.url));
const present = existsSync(fixtureDir);
if (!present) console.warn(`gta-col fixtures: ${fixtureDir} is absent (a user's checkout has no ../shared), so the real-file suite is skipped`);

const load = (name: string): Uint8Array => new Uint8Array(readFileSync(fixtureDir + name));
const close = (v: number, want: number, digits = 4): void => expect(v).toBeCloseTo(want, digits);

describe.skipIf(!present)('GTA .col real files (../shared/fixtures/gta-col)', () => {
  it('coll_fcabin.col: COLL, float vertices, 16-byte faces', () => {
    const bytes = load('coll_fcabin.col');
    const f = parseColFile(bytes);
    expect(f.models).toHaveLength(1);
    expect(f.trailingBytes).toBe(0);
    const m = f.models[0]!;
    expect(m.version).toBe(1);
    expect(m.name).toBe('asdcol');
    expect(m.modelId).toBe(12868);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)).toBe(5608);
    expect(m.spheres).toHaveLength(0);
    expect(m.lines.length).toBe(0);
    expect(m.boxes).toHaveLength(0);
    expect(m.mesh.vertexCount).toBe(119);
    expect(m.mesh.faceCount).toBe(256);
    close(m.mesh.vertices[0]!, 1.9394);
    close(m.mesh.vertices[1]!, -0.093);
    close(m.mesh.vertices[2]!, 1.4647);
    expect(Array.from(m.mesh.indices.subarray(0, 3))).toEqual([13, 22, 23]);
    expect(Array.from(m.mesh.surfaces.subarray(0, 4))).toEqual([0, 0, 0, 232]);
    close(m.bounds.radius, 2.7531);
    [0.005, 0.0042, 0.0019].forEach((v, i) => close(m.bounds.center[i]!, v));
    [-1.9294, -1.1977, -1.5451].forEach((v, i) => close(m.bounds.min[i]!, v));
    [1.9394, 1.2061, 1.5489].forEach((v, i) => close(m.bounds.max[i]!, v));
    expect(m.faceGroups).toBeNull();
    expect(m.shadow).toBeNull();
  });

  it('col2_raceisland3.col: COL2 with 124 face groups', () => {
    const bytes = load('col2_raceisland3.col');
    const f = parseColFile(bytes);
    expect(f.models).toHaveLength(1);
    const m = f.models[0]!;
    expect(m.version).toBe(2);
    expect(m.name).toBe('col');
    expect(m.flags).toBe(10);
    expect(m.spheres).toHaveLength(0);
    expect(m.boxes).toHaveLength(0);
    expect(m.mesh.faceCount).toBe(3960);
    expect(m.mesh.vertexCount).toBe(2136);
    expect(m.faceGroups).toHaveLength(124);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(dv.getUint32(4, true)).toBe(48072);
    expect(dv.getUint32(96, true)).toBe(104);
    expect(dv.getUint32(100, true)).toBe(16396);
    const g = m.faceGroups![0]!;
    [-134.0312, -147.2344, -10.2578].forEach((v, i) => close(g.min[i]!, v));
    [-88.1797, -104.4375, 12.7031].forEach((v, i) => close(g.max[i]!, v));
    expect([g.first, g.last]).toEqual([0, 41]);
    expect(Array.from(m.mesh.vertices.subarray(0, 3))).toEqual([-14843 / 128, -16212 / 128, 1060 / 128]);
    expect(Array.from(m.mesh.vertices.subarray(0, 3))).toEqual([-115.9609375, -126.65625, 8.28125]);
    expect(Array.from(m.mesh.indices.subarray(0, 3))).toEqual([0, 28, 71]);
    expect([m.mesh.surfaces[0], m.mesh.surfaces[3]]).toEqual([0, 0]);
    [-134.0377, -147.2383, -11.8025].forEach((v, i) => close(m.bounds.min[i]!, v));
    [156.2065, 146.5078, 23.2422].forEach((v, i) => close(m.bounds.max[i]!, v));
    [11.0844, -0.3652, 5.7198].forEach((v, i) => close(m.bounds.center[i]!, v));
    close(m.bounds.radius, 207.2176);
    // The groups are contiguous and cover every face, and each box holds its faces' vertices.
    let next = 0;
    for (const grp of m.faceGroups!) {
      expect(grp.first).toBe(next);
      next = grp.last + 1;
      for (let fi = grp.first; fi <= grp.last; fi++) {
        for (let k = 0; k < 3; k++) {
          const v = m.mesh.indices[fi * 3 + k]!;
          for (let ax = 0; ax < 3; ax++) {
            expect(m.mesh.vertices[v * 3 + ax]!).toBeGreaterThanOrEqual(grp.min[ax]!);
            expect(m.mesh.vertices[v * 3 + ax]!).toBeLessThanOrEqual(grp.max[ax]!);
          }
        }
      }
    }
    expect(next).toBe(3960);
  });

  it('col3_pump_facegroups_pad.col: odd vertex count with the 2-byte pad', () => {
    const bytes = load('col3_pump_facegroups_pad.col');
    const f = parseColFile(bytes);
    const m = f.models[0]!;
    expect(m.version).toBe(3);
    expect(m.name).toBe('Object001');
    expect(m.flags).toBe(10);
    expect(m.mesh.faceCount).toBe(95);
    expect(m.mesh.vertexCount).toBe(51);
    expect(m.faceGroups!.map((g) => [g.first, g.last])).toEqual([[0, 46], [47, 94]]);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(dv.getUint32(4, true)).toBe(1240);
    expect(dv.getUint32(96, true)).toBe(116);
    expect(dv.getUint32(100, true)).toBe(484);
    expect([bytes[426], bytes[427]]).toEqual([0, 0]);
    expect(Array.from(m.mesh.vertices.subarray(0, 3))).toEqual([0.046875, -0.296875, 0.1796875]);
    expect(m.shadow).toBeNull();
  });

  it('col3_mtrafi_2models.col: two models, a Latin-1 name, a pad in the second', () => {
    const bytes = load('col3_mtrafi_2models.col');
    const f = parseColFile(bytes);
    expect(f.models).toHaveLength(2);
    expect(f.modelOffsets).toEqual([0, 5864]);
    expect(f.trailingBytes).toBe(0);
    const [a, b] = f.models as [NonNullable<(typeof f.models)[0]>, NonNullable<(typeof f.models)[0]>];
    expect([a.flags, b.flags]).toEqual([10, 10]);
    expect(a.name).toBe('Box001');
    expect([a.mesh.faceCount, a.mesh.vertexCount, a.faceGroups!.length]).toEqual([480, 242, 16]);
    expect(Array.from(b.nameBytes.subarray(0, 8))).toEqual([0xe1, 0x6c, 0x6c, 0x76, 0xe1, 0x6e, 0x79, 0]);
    expect(b.name).toBe('\u00e1llv\u00e1ny');
    expect([b.mesh.faceCount, b.mesh.vertexCount, b.faceGroups!.length]).toEqual([164, 97, 7]);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(dv.getUint32(4, true)).toBe(5856);
    expect(dv.getUint32(5864 + 4, true)).toBe(2208);
  });

  for (const name of ['coll_fcabin.col', 'col2_raceisland3.col', 'col3_pump_facegroups_pad.col', 'col3_mtrafi_2models.col']) {
    it(`${name}: written back unmodified gives the same bytes (canonical layout)`, () => {
      const bytes = load(name);
      const out = writeColFileOf(parseColFile(bytes));
      expect(out.length).toBe(bytes.length);
      expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
    });
  }

  it('every fixture truncated anywhere gives a FormatError or a shorter clean walk, never another exception', () => {
    for (const name of ['coll_fcabin.col', 'col3_pump_facegroups_pad.col', 'col3_mtrafi_2models.col']) {
      const bytes = load(name);
      const whole = parseColFile(bytes);
      for (let cut = 1; cut < bytes.length; cut += 7) {
        if (whole.modelOffsets.includes(cut)) continue;
        try {
          const f = parseColFile(bytes.subarray(0, cut));
          // A cut file reads cleanly only when fewer than 8 bytes of the cut model remain: the walk stops there.
          expect(f.models.length).toBeLessThan(whole.models.length);
          expect(f.trailingBytes).toBeLessThan(8);
        } catch (e) {
          expect((e as Error).name).toBe('FormatError');
        }
      }
    }
  });

  it('retrosim col info --json reports the README values', () => {
    const r = runCli(['col', 'info', fixtureDir + 'col3_mtrafi_2models.col', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.trailingBytes).toBe(0);
    expect(out.models.map((m: Record<string, unknown>) => [m.version, m.name, m.flags, m.faces, m.vertices, m.faceGroups])).toEqual([
      [3, 'Box001', 10, 480, 242, 16],
      [3, '\u00e1llv\u00e1ny', 10, 164, 97, 7],
    ]);
    const race = JSON.parse(runCli(['col', 'info', fixtureDir + 'col2_raceisland3.col', '--json']).stdout).models[0];
    expect([race.version, race.faces, race.vertices, race.faceGroups, race.shadowFaces]).toEqual([2, 3960, 2136, 124, 0]);
    expect(race.bounds.radius).toBeCloseTo(207.2176, 4);
  });

  it('a ray straight down onto the race island hits its mesh where a brute-force scan says', () => {
    const bytes = load('col2_raceisland3.col');
    const world = loadGtaWorld(bytes, 'raceisland3');
    const m = parseColFile(bytes).models[0]!;
    // Brute force: the highest triangle under (x, y) by barycentric interpolation.
    const x = m.mesh.vertices[0]! + 0.01;
    const y = m.mesh.vertices[1]! + 0.01;
    const g = world.ground([x, y, 100]);
    let best = -Infinity;
    const V = m.mesh.vertices;
    for (let f = 0; f < m.mesh.faceCount; f++) {
      const [a, b, c] = [m.mesh.indices[f * 3]!, m.mesh.indices[f * 3 + 1]!, m.mesh.indices[f * 3 + 2]!];
      const ax = V[a * 3]!, ay = V[a * 3 + 1]!, az = V[a * 3 + 2]!;
      const bx = V[b * 3]!, by = V[b * 3 + 1]!, bz = V[b * 3 + 2]!;
      const cx = V[c * 3]!, cy = V[c * 3 + 1]!, cz = V[c * 3 + 2]!;
      const det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
      if (det === 0) continue;
      const l1 = ((by - cy) * (x - cx) + (cx - bx) * (y - cy)) / det;
      const l2 = ((cy - ay) * (x - cx) + (ax - cx) * (y - cy)) / det;
      const l3 = 1 - l1 - l2;
      if (l1 < 0 || l2 < 0 || l3 < 0) continue;
      const z = l1 * az + l2 * bz + l3 * cz;
      if (z <= 100 && z > best) best = z;
    }
    expect(best).toBeGreaterThan(-Infinity);
    expect(g.hasFloor).toBe(true);
    expect(g.floor).toBeCloseTo(best, 6);
  });
});
