import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/binary/format-error.js';
import { parseColFile, parseColModel } from '../../../src/worlds/gta/parse.js';
import { ColWriteError, writeColFile, writeColModel } from '../../../src/worlds/gta/write.js';
import {
  COL_FLAG_FACE_GROUPS,
  COL_FLAG_NOT_EMPTY,
  COL_FLAG_SHADOW_MESH,
  convertModel,
  emptyModel,
  encodeColName,
  type ColModel,
  type ColVersion,
} from '../../../src/worlds/gta/model.js';
import { MeshBuilder, computeBounds, groupFaces, snap, withFaceGroups } from '../../../src/worlds/gta/build.js';
import { anyModelArb, modelArb } from './arbitrary.js';

const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const u16 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint16(at, true);

function expectFormatError(fn: () => unknown, match?: RegExp): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    if (match) expect((e as Error).message).toMatch(match);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** A small model with every section its version allows, switched on by the bits of `parts`. */
function sample(version: ColVersion, parts: number): ColModel {
  const m = emptyModel(version, `m${version}_${parts}`, 7);
  if (parts & 1) m.spheres.push({ center: [1, 2, 3], radius: 0.5, surface: { material: 4, flag: 1, brightness: 2, light: 0x31 } });
  if (parts & 2) m.boxes.push({ min: [-1, -1, 0], max: [1, 1, 2], surface: { material: 9, flag: 0, brightness: 0, light: 0 } });
  if (parts & 4) {
    const b = new MeshBuilder();
    b.box([-2, -2, -1], [2, 2, 0], 1, 0x11);
    b.vertex(5, 5, 5); // one more: an odd vertex count (9) needs the 2-byte pad in COL2+
    b.triangle(0, 1, 8, 2);
    m.mesh = b.build();
    if (version === 1) m.lines = Float32Array.from([0, 0, 0, 1, 1, 1]);
  }
  if (parts & 8 && version >= 2 && m.mesh.faceCount > 0) {
    const g = groupFaces(m.mesh, 4);
    m.mesh = g.mesh;
    m.faceGroups = g.groups;
  }
  if (parts & 16 && version >= 3) m.shadow = new MeshBuilder().box([0, 0, 0], [1, 1, 1]).build();
  m.bounds = computeBounds(m);
  return convertModel(m, version);
}

describe('GTA .col writer and reader', () => {
  it('every version and section combination round-trips, with canonical offsets and flags', () => {
    for (const version of [1, 2, 3, 4] as ColVersion[]) {
      for (let parts = 0; parts < 32; parts++) {
        const m = sample(version, parts);
        const bytes = writeColModel(m);
        expect(bytes.length % 4).toBe(0);
        expect(u32(bytes, 4)).toBe(bytes.length - 8);
        const back = parseColModel(bytes);
        expect(back).toEqual(m);
        expect(writeColModel(back)).toEqual(bytes);
        if (version === 1) continue;
        const headerRel = { 2: 104, 3: 116, 4: 120 }[version];
        const firstOffset = [84, 88, 96].map((o) => u32(bytes, o)).find((o) => o !== 0);
        if (firstOffset !== undefined) expect(firstOffset).toBe(headerRel);
        // Offsets are 0 exactly for absent sections.
        expect(u32(bytes, 84) !== 0).toBe(m.spheres.length > 0);
        expect(u32(bytes, 88) !== 0).toBe(m.boxes.length > 0);
        expect(u32(bytes, 100) !== 0).toBe(m.mesh.faceCount > 0);
        const flags = u32(bytes, 80);
        expect((flags & COL_FLAG_NOT_EMPTY) !== 0).toBe((parts & 7) !== 0);
        expect((flags & COL_FLAG_FACE_GROUPS) !== 0).toBe(m.faceGroups !== null);
        expect((flags & COL_FLAG_SHADOW_MESH) !== 0).toBe(m.shadow !== null);
        if (m.faceGroups) {
          // The group count sits just before the faces, the groups just before it.
          const faces = 4 + u32(bytes, 100);
          expect(u32(bytes, faces - 4)).toBe(m.faceGroups.length);
        }
        if (m.mesh.vertexCount % 2 === 1) {
          // Odd vertex count: 2 zero bytes keep the next section 4-aligned.
          const vEnd = 4 + u32(bytes, 96) + m.mesh.vertexCount * 6;
          expect([bytes[vEnd], bytes[vEnd + 1]]).toEqual([0, 0]);
          expect(vEnd % 4).toBe(2);
        }
      }
    }
  });

  it('parse(write(m)) equals m for generated models of every version (property)', () => {
    fc.assert(
      fc.property(anyModelArb, (m) => {
        const bytes = writeColModel(m);
        expect(parseColModel(bytes)).toEqual(m);
      }),
      { numRuns: 300 },
    );
  });

  it('a file of several models and trailing zeros walks back to the same models and padding (property)', () => {
    fc.assert(
      fc.property(fc.array(anyModelArb, { minLength: 1, maxLength: 4 }), fc.nat(40), (models, pad) => {
        const bytes = writeColFile(models, new Uint8Array(pad));
        const f = parseColFile(bytes);
        expect(f.models).toEqual(models);
        expect(f.trailingBytes).toBe(pad);
        expect(f.trailingZero).toBe(true);
        expect(f.modelOffsets[0]).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('reads the same from a buffer at an odd byte offset (the unaligned path) as from an aligned one (property)', () => {
    fc.assert(
      fc.property(anyModelArb, (m) => {
        const bytes = writeColModel(m);
        const shifted = new Uint8Array(bytes.length + 1);
        shifted.set(bytes, 1);
        expect(parseColModel(shifted.subarray(1))).toEqual(parseColModel(bytes));
      }),
      { numRuns: 100 },
    );
  });

  it('stops cleanly at an unknown FourCC and reports the bytes left', () => {
    const a = writeColModel(sample(3, 5));
    const junk = new TextEncoder().encode('XXXXjunk-after');
    const f = parseColFile(Uint8Array.from([...a, ...junk]));
    expect(f.models).toHaveLength(1);
    expect(f.trailingBytes).toBe(junk.length);
    expect(f.trailingZero).toBe(false);
  });

  it('refuses a file with no model at its start (empty, too short for a header, a text, a picture)', () => {
    const text = new TextEncoder().encode('# a README, not a collision file\n');
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (const bytes of [new Uint8Array(0), Uint8Array.from([0x43, 0x4f, 0x4c, 0x4c, 1, 0, 0]), text, png]) {
      const e = expectFormatError(() => parseColFile(bytes), /no collision model/);
      expect(e.offset).toBe(0);
    }
  });

  it('keeps name bytes after the NUL and reads non-ASCII names as Latin-1', () => {
    const m = sample(2, 1);
    m.nameBytes = Uint8Array.from([0xe1, 0x6c, 0x6c, 0x76, 0xe1, 0x6e, 0x79, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x43, 0x45]);
    m.name = '\u00e1llv\u00e1ny';
    const back = parseColModel(writeColModel(m));
    expect(back.name).toBe('\u00e1llv\u00e1ny');
    expect(Array.from(back.nameBytes.subarray(20))).toEqual([0x43, 0x45]);
  });

  it('refuses models their version cannot hold exactly', () => {
    const m = sample(3, 4);
    m.mesh.vertices[0] = 0.001; // not a multiple of 1/128
    expect(() => writeColModel(m)).toThrow(ColWriteError);
    const n = sample(2, 4);
    n.mesh.surfaces[1] = 5; // a face flag byte: COL2+ faces have no room for it
    expect(() => writeColModel(n)).toThrow(/flag\/brightness/);
    const s = sample(2, 0);
    s.shadow = new MeshBuilder().box([0, 0, 0], [1, 1, 1]).build();
    expect(() => writeColModel(s)).toThrow(/shadow/);
    const f = sample(3, 5);
    f.flags = 0;
    expect(() => writeColModel(f)).toThrow(/flags/);
    const c = sample(1, 1);
    c.spheres[0]!.radius = 0.1; // not a float32
    expect(() => writeColModel(c)).toThrow(/float32/);
  });

  it('negative zero: packing and snapping give +0, and the writer refuses a -0 it would read back as +0', () => {
    expect(Object.is(snap(-0.001), 0)).toBe(true);
    const m = sample(3, 4);
    m.mesh.vertices[0] = -0;
    expect(() => writeColModel(m)).toThrow(/int16 \/ 128/);
    expect(Object.is(convertModel(m, 3).mesh.vertices[0], 0)).toBe(true);
  });

  it('convertModel makes a COLL model writable as COL3 (vertices truncated to 1/128)', () => {
    const m = emptyModel(1, 'conv');
    m.mesh = { vertexCount: 4, vertices: Float32Array.from([0.3, -0.3, 1, 2, 2, 2, 0, 1, 0, 9, 9, 9]), faceCount: 1, indices: Uint32Array.from([0, 1, 2]), surfaces: Uint8Array.from([3, 4, 5, 6]) };
    const c = convertModel(m, 3);
    expect(c.mesh.vertexCount).toBe(3); // the unreferenced 4th vertex goes
    expect(c.mesh.vertices[0]).toBe(Math.trunc(Math.fround(0.3) * 128) / 128);
    expect(c.mesh.vertices[1]).toBe(Math.trunc(Math.fround(-0.3) * 128) / 128);
    expect(Array.from(c.mesh.surfaces)).toEqual([3, 0, 0, 6]);
    expect(parseColModel(writeColModel(c))).toEqual(c);
  });

  it('convertModel makes any model writable in any version, and the result round-trips (property)', () => {
    fc.assert(
      fc.property(anyModelArb, fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<ColVersion>, (m, v) => {
        const c = convertModel(m, v);
        expect(c.version).toBe(v);
        expect(parseColModel(writeColModel(c))).toEqual(c);
        // What every version keeps: name bytes, id, spheres, boxes and the faces' corners and materials.
        expect(c.nameBytes).toEqual(m.nameBytes);
        expect([c.modelId, c.spheres, c.boxes]).toEqual([m.modelId, m.spheres, m.boxes]);
        expect(c.mesh.faceCount).toBe(m.mesh.faceCount);
        expect(c.mesh.indices).toEqual(m.mesh.indices);
        for (let f = 0; f < m.mesh.faceCount; f++) expect(c.mesh.surfaces[f * 4]).toBe(m.mesh.surfaces[f * 4]);
      }),
      { numRuns: 200 },
    );
  });

  it('face groups built by groupFaces partition the faces, hold at most the limit and box their faces', () => {
    fc.assert(
      fc.property(modelArb(3), fc.integer({ min: 1, max: 6 }), (m, limit) => {
        if (m.mesh.faceCount === 0) return;
        const g = withFaceGroups(m, limit);
        let next = 0;
        for (const grp of g.faceGroups!) {
          expect(grp.first).toBe(next);
          expect(grp.last - grp.first + 1).toBeLessThanOrEqual(limit);
          next = grp.last + 1;
          for (let f = grp.first; f <= grp.last; f++) {
            for (let k = 0; k < 3; k++) {
              const v = g.mesh.indices[f * 3 + k]!;
              for (let a = 0; a < 3; a++) {
                expect(g.mesh.vertices[v * 3 + a]!).toBeGreaterThanOrEqual(grp.min[a]!);
                expect(g.mesh.vertices[v * 3 + a]!).toBeLessThanOrEqual(grp.max[a]!);
              }
            }
          }
        }
        expect(next).toBe(m.mesh.faceCount);
        // Same faces, reordered.
        const key = (mm: typeof m.mesh, f: number): string => `${mm.indices.subarray(f * 3, f * 3 + 3).join()}/${mm.surfaces.subarray(f * 4, f * 4 + 4).join()}`;
        const before = Array.from({ length: m.mesh.faceCount }, (_, f) => key(m.mesh, f)).sort();
        const after = Array.from({ length: g.mesh.faceCount }, (_, f) => key(g.mesh, f)).sort();
        expect(after).toEqual(before);
        expect(parseColModel(writeColModel(g))).toEqual(g);
      }),
      { numRuns: 100 },
    );
  });
});

describe('GTA .col bad input', () => {
  const good3 = (): Uint8Array => writeColModel(sample(3, 31));

  it('a model size past the end of the file', () => {
    const b = good3();
    new DataView(b.buffer).setUint32(4, b.length, true);
    expectFormatError(() => parseColFile(b), /runs past the end of the file/);
  });

  it('a COL4 (or any) header that does not fit in its model', () => {
    const b = writeColModel(sample(4, 0));
    expect(b.length).toBe(8 + 24 + 92);
    const cut = b.slice(0, 8 + 24 + 80);
    new DataView(cut.buffer).setUint32(4, cut.length - 8, true);
    expectFormatError(() => parseColFile(cut), /COL4 model size 104 cannot hold its 116-byte header/);
    const c = writeColModel(sample(2, 0)).slice(0, 60);
    new DataView(c.buffer).setUint32(4, 52, true);
    expectFormatError(() => parseColFile(c), /COL2/);
  });

  it('a section offset past the end of the model', () => {
    const b = good3();
    new DataView(b.buffer).setUint32(84, 0x7fffff00, true);
    const e = expectFormatError(() => parseColFile(b), /spheres/);
    expect(e.offset).toBe(84);
  });

  it('a section with a count but offset 0', () => {
    const b = good3();
    new DataView(b.buffer).setUint32(88, 0, true);
    expectFormatError(() => parseColFile(b), /boxes but the boxes offset is 0/);
  });

  it('face indices beyond the vertices (COL2+: past the room before the next section)', () => {
    const m = sample(3, 4);
    const b = writeColModel(m);
    const faces = 4 + u32(b, 100);
    new DataView(b.buffer).setUint16(faces, 300, true);
    expectFormatError(() => parseColFile(b), /vertex 300/);
  });

  it('face indices beyond the vertices (COLL: the stored vertex count)', () => {
    const m = sample(1, 4);
    const b = writeColModel(m);
    // COLL face array: after the face count, which is the last u32 before the 16-byte faces.
    const firstFace = b.length - m.mesh.faceCount * 16;
    expect(u32(b, firstFace - 4)).toBe(m.mesh.faceCount);
    new DataView(b.buffer).setUint32(firstFace, m.mesh.vertexCount, true);
    expectFormatError(() => parseColFile(b), /refers to vertex 9 but the model has 9 vertices/);
  });

  it('counts that cannot fit are refused before anything is allocated', () => {
    const m = sample(1, 4);
    const b = writeColModel(m);
    const faceCountAt = b.length - m.mesh.faceCount * 16 - 4;
    new DataView(b.buffer).setUint32(faceCountAt, 0xffffffff, true);
    expectFormatError(() => parseColFile(b), /face count 4294967295/);
    const s = writeColModel(sample(1, 0));
    new DataView(s.buffer).setUint32(72, 0x10000000, true); // sphere count
    expectFormatError(() => parseColFile(s), /sphere count/);
  });

  it('a face-group count that cannot fit between the header and the faces', () => {
    const b = good3();
    const faces = 4 + u32(b, 100);
    new DataView(b.buffer).setUint32(faces - 4, 0x01000000, true);
    expectFormatError(() => parseColFile(b), /face-group count/);
  });

  it('a face group covering faces that do not exist', () => {
    const b = good3();
    const faces = 4 + u32(b, 100);
    new DataView(b.buffer).setUint16(faces - 4 - 2, 999, true); // last face of the last group
    expectFormatError(() => parseColFile(b), /face group/);
  });

  it('a huge shadow face count', () => {
    const b = good3();
    expect(u32(b, 108)).toBeGreaterThan(0);
    new DataView(b.buffer).setUint32(108, 0xfffffff0, true);
    expectFormatError(() => parseColFile(b), /shadow faces/);
  });

  it('random corruption gives a FormatError or a model, never another exception (property)', () => {
    const bases = [1, 2, 3, 4].map((v) => writeColModel(sample(v as ColVersion, 31)));
    fc.assert(
      fc.property(
        fc.nat(3),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.option(fc.nat()),
        (which, edits, cut) => {
          let b = bases[which]!.slice();
          for (const [at, v] of edits) b[at % b.length] = v;
          if (cut !== null) b = b.slice(0, cut % (b.length + 1));
          try {
            const f = parseColFile(b);
            for (const m of f.models) {
              // Whatever was read is self-consistent: every index names a vertex that was read.
              for (let i = 0; i < m.mesh.faceCount * 3; i++) expect(m.mesh.indices[i]!).toBeLessThan(m.mesh.vertexCount);
            }
          } catch (e) {
            expect(e).toBeInstanceOf(FormatError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('name helper refuses what the 22-byte field cannot hold', () => {
    expect(() => encodeColName('x'.repeat(22))).toThrow(RangeError);
    expect(() => encodeColName('\u0100')).toThrow(RangeError);
    expect(u16(writeColModel(sample(2, 0)), 30)).toBe(7);
  });
});

describe('COLL floats travel as their bits', () => {
  // A signalling NaN read into a JS number may come back quieted, and whether it does depends on how far V8
  // has optimised the code: the reader and the writer copy the file's words instead, however often they ran.
  const SIGNALLING = [0xff900000, 0x7f800001, 0xffbfffff];
  it('keeps NaN payloads in vertices and lines through parse → write → parse, thousands of times', () => {
    const m = sample(1, 4);
    m.lines = new Float32Array(6);
    const words = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    words(m.mesh.vertices).set(SIGNALLING, 0);
    words(m.lines).set(SIGNALLING, 3);
    const bytes = writeColFile([m]);
    let wrong = 0;
    let runs = 0;
    for (let i = 0; i < 4000; i++) {
      const a = parseColFile(bytes).models[0]!;
      const b = parseColFile(writeColFile([a])).models[0]!;
      for (const x of [a, b]) {
        if (Array.from(words(x.mesh.vertices).subarray(0, 3)).join() !== SIGNALLING.join()) wrong++;
        if (Array.from(words(x.lines).subarray(3, 6)).join() !== SIGNALLING.join()) wrong++;
      }
      runs++;
    }
    expect(runs).toBe(4000);
    expect(wrong).toBe(0);
  });
});
