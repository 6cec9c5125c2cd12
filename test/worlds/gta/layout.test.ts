/**
 * Writing a GTA .col keeping its layout: files of every version laid out the way other tools lay them out
 * (sections in any order, gaps with junk, unpadded or over-long vertex arrays, non-zero offsets of empty
 * sections, a line count, non-canonical flags, bytes after the last section) come back byte for byte with the
 * layout kept, their differences from the canonical layout are listed with offsets, and a model changed after
 * parsing is written into its layout and reads back as changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalFlags, type ColModel, type ColVersion } from '../../../src/worlds/gta/model.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColModel } from '../../../src/worlds/gta/write.js';
import { canonicalColModel, colLayoutDifferences, colLayoutOf, overlayColModel, writeColFileCanonical, writeColFileKeepingLayout } from '../../../src/worlds/gta/layout.js';
import { rewriteWorldFile } from '../../../src/worlds/rewrite.js';
import { modelArb } from './arbitrary.js';
import { layOut, layoutArb, type LayoutChoice } from './free-layout.js';

/** A parsed model's identity: everything it holds (flags aside, which a free layout may set otherwise). */
const view = (m: ColModel) => ({ ...m, flags: 0, name: m.name });

describe('GTA COL: writing a file back keeping its layout', () => {
  for (const version of [2, 3, 4] as ColVersion[]) {
    it(`COL${version}: any layout comes back byte for byte; its differences from the canonical layout are listed`, () => {
      let reordered = 0;
      let canonicalSeen = 0;
      fc.assert(
        fc.property(modelArb(version), layoutArb, (m, c) => {
          // Shadow vertices laid out before the shadow faces' reader sees them only when faces exist.
          const bytes = layOut(m, c);
          const file = parseColFile(bytes);
          expect(file.models).toHaveLength(1);
          const p = file.models[0]!;
          expect(view(p)).toEqual(view(m));
          const kept = writeColFileKeepingLayout(file.models, colLayoutOf(bytes, file));
          expect(kept.canonical).toEqual([]);
          expect(Buffer.from(kept.bytes).equals(Buffer.from(bytes))).toBe(true);
          const canon = writeColFileCanonical(file);
          const diffs = colLayoutDifferences(bytes, file);
          if (Buffer.from(canon).equals(Buffer.from(bytes))) {
            canonicalSeen++;
            expect(diffs).toEqual([]);
          } else {
            expect(diffs.length).toBeGreaterThan(0);
            for (const d of diffs) {
              expect(d.offset).toBeGreaterThanOrEqual(0);
              expect(d.offset).toBeLessThan(bytes.length);
              expect(d.reason).toMatch(/^model 0 \(COL/);
            }
            if (c.order.join() !== '0,1,2,3,4,5' && diffs.some((d) => /canonical order/.test(d.reason))) reordered++;
          }
          // The canonical bytes read back as the same model, its flags made canonical.
          expect(parseColFile(canon).models[0]).toEqual(canonicalColModel(p));
        }),
        { numRuns: 150 },
      );
      expect(reordered).toBeGreaterThan(0);
      void canonicalSeen;
    });
  }

  it('a model changed after parsing is written into its layout and reads back as changed', () => {
    let ran = 0;
    fc.assert(
      fc.property(modelArb(3), layoutArb, fc.integer({ min: -32768, max: 32767 }), (m, c, raw) => {
        fc.pre(m.mesh.faceCount > 0 && m.spheres.length > 0);
        ran++;
        const bytes = layOut(m, c);
        const file = parseColFile(bytes);
        const p = file.models[0]!;
        const changed: ColModel = { ...p, mesh: { ...p.mesh, vertices: p.mesh.vertices.slice() }, spheres: p.spheres.map((s) => ({ ...s, radius: Math.fround(s.radius + 1) })) };
        changed.mesh.vertices[0] = raw / 128;
        const kept = writeColFileKeepingLayout([changed], colLayoutOf(bytes, file));
        expect(kept.canonical).toEqual([]);
        expect(kept.bytes.length).toBe(bytes.length);
        expect(parseColFile(kept.bytes).models[0]).toEqual(changed);
        // Only the changed values' bytes differ from the original.
        let differing = 0;
        for (let i = 0; i < bytes.length; i++) if (bytes[i] !== kept.bytes[i]) differing++;
        expect(differing).toBeLessThanOrEqual(2 + 4 * p.spheres.length);
      }),
      { numRuns: 200 },
    );
    expect(ran).toBeGreaterThan(20);
  });

  it('a model whose counts changed is written in the canonical layout (and says so)', () => {
    fc.assert(
      fc.property(modelArb(3), layoutArb, (m, c) => {
        const bytes = layOut(m, c);
        const file = parseColFile(bytes);
        const p = file.models[0]!;
        const grown: ColModel = { ...p, spheres: [...p.spheres, { center: [1, 2, 3], radius: 4, surface: { material: 1, flag: 0, brightness: 0, light: 0 } }] };
        grown.flags = canonicalFlags(grown);
        const kept = writeColFileKeepingLayout([grown], colLayoutOf(bytes, file));
        expect(kept.canonical).toEqual([0]);
        expect(Buffer.from(kept.bytes).equals(Buffer.from(writeColModel(grown)))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('a layout whose sections do not lie inside its template is refused with a RangeError naming the model', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3, 4).chain((v) => modelArb(v as ColVersion)), fc.nat(3), (m, cut) => {
        const bytes = writeColModel(m);
        const file = parseColFile(bytes);
        const layout = colLayoutOf(bytes, file);
        const l = layout.models[0]!;
        if (m.version === 1 || m.mesh.faceCount === 0) l.template = l.template.slice(0, l.template.length - 1 - cut);
        else l.faces = l.template.length - 7 + cut; // the faces would run past the end
        expect(() => writeColFileKeepingLayout(file.models, layout)).toThrow(RangeError);
        expect(() => writeColFileKeepingLayout(file.models, layout)).toThrow(/^COL[L234] model .*: its layout puts the .* at \d+\.\.\d+, outside its \d+-byte template$/);
        expect(() => overlayColModel(file.models[0]!, l)).toThrow(RangeError);
      }),
      { numRuns: 100 },
    );
  });

  it('a signalling NaN with a payload is kept with the layout, and listed when the canonical writer changes it', () => {
    const m = parseColFile(writeColModel({ ...canonicalColModel({ ...emptyish(), version: 1, flags: 0 }) })).models[0]!;
    const bytes = writeColModel(m);
    new DataView(bytes.buffer).setUint32(32, 0x7fa00001, true); // the bounds radius
    const r = rewriteWorldFile(bytes);
    const kept = rewriteWorldFile(bytes, { keepLayout: true });
    expect(kept.identical).toBe(true);
    if (r.identical) expect(r.differences).toEqual([]);
    else expect(r.differences.map((d) => [d.offset, /NaN/.test(d.reason)])).toEqual([[32, true]]);
  });

  it('the layout-keeping write puts an edited COLL vertex or line in as the model holds it, NaN payloads included', () => {
    // Floats travel as their bits (src/binary/float-bits.ts): the model's words are what the file gets.
    const words = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    const base = emptyish();
    base.lines = new Float32Array([1, 2, 3, 4, 5, 6]);
    base.mesh = { vertexCount: 3, vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), faceCount: 1, indices: new Uint32Array([0, 1, 2]), surfaces: new Uint8Array(4) };
    const src = writeColModel(canonicalColModel(base));
    const file = parseColFile(src);
    const layout = colLayoutOf(src, file);
    const m = file.models[0]!;
    words(m.mesh.vertices).set([0xff900000, 0x7f800001], 0); // a signalling NaN over a number, another over a number
    words(m.lines).set([0xffbfffff], 5);
    const out = writeColFileKeepingLayout(file.models, layout);
    const back = parseColFile(out.bytes).models[0]!;
    expect(Array.from(words(back.mesh.vertices).subarray(0, 3))).toEqual([0xff900000, 0x7f800001, words(new Float32Array([0]))[0]]);
    expect(words(back.lines)[5]).toBe(0xffbfffff);
    // Written again over its own NaNs, with other payloads: the model's, not the file's.
    words(back.mesh.vertices)[0] = 0xffc00002;
    const again = parseColFile(writeColFileKeepingLayout([back], colLayoutOf(out.bytes, parseColFile(out.bytes))).bytes).models[0]!;
    expect(words(again.mesh.vertices)[0]).toBe(0xffc00002);
  });

  it('world write lists the reasons for an unpadded vertex array (as DragonFF writes it) and a line count', () => {
    const m = parseColFile(writeColModel(odd())).models[0]!;
    const c: LayoutChoice = { order: [0, 1, 2, 3, 4, 5], gaps: [0, 0, 0, 0, 0, 0, 0], junk: 0, extraVertices: 0, lineByte: 3, padByte: 0, junkOffsets: false, flagNoise: 0, tail: 0 };
    const bytes = layOut(m, c);
    const r = rewriteWorldFile(bytes);
    expect(r.identical).toBe(false);
    const reasons = r.differences.map((d) => `${d.offset} ${d.reason}`);
    expect(reasons.some((s) => /^78 .*line count byte 3/.test(s))).toBe(true);
    expect(reasons.some((s) => /without the 2-byte pad/.test(s))).toBe(true);
    expect(rewriteWorldFile(bytes, { keepLayout: true }).identical).toBe(true);
  });
});

function emptyish(): ColModel {
  return {
    version: 1, name: 'n', nameBytes: new Uint8Array(22), modelId: 0, bounds: { min: [0, 0, 0], max: [1, 1, 1], center: [0.5, 0.5, 0.5], radius: 1 }, flags: 0,
    spheres: [], boxes: [], lines: new Float32Array(0), mesh: { vertexCount: 0, vertices: new Float32Array(0), faceCount: 0, indices: new Uint32Array(0), surfaces: new Uint8Array(0) },
    faceGroups: null, shadow: null, col4Unknown: 0,
  };
}

/** A COL3 model with an odd vertex count (3 vertices, one face). */
function odd(): ColModel {
  const m: ColModel = { ...emptyish(), version: 3, mesh: { vertexCount: 3, vertices: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), faceCount: 1, indices: Uint32Array.from([0, 1, 2]), surfaces: Uint8Array.from([4, 0, 0, 0]) } };
  m.flags = canonicalFlags(m);
  return m;
}
