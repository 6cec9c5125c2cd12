import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findChunks, chunkNamed, type ChunkRef } from '../../../src/worlds/llama/chunks.js';
import { demoLevel } from '../../../src/worlds/llama/demo-levels.js';
import { llamaFileDifferences, writeLlamaFileKeepingLayout } from '../../../src/worlds/llama/file-write.js';
import { buildLevel } from '../../../src/worlds/llama/level-builder.js';
import { MODEL_HEADER_SIZE } from '../../../src/worlds/llama/trak-parse.js';
import { llamaContents, rewriteWorldFile } from '../../../src/worlds/rewrite.js';
import { minimalWad } from './minimal-wad.js';

/**
 * Floats whose bits a JS number does not always carry: a signalling NaN (quiet bit clear) read into a number
 * may come back quieted, so a reader or writer that goes through numbers gives other bits, and which bits
 * depends on how far V8 has optimised it. Both writes must keep them, however often they ran.
 */
const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
const chunk = (b: Uint8Array, name: string): ChunkRef => chunkNamed(findChunks(b, 'test')!, name)!;
const SIGNALLING_NAN = 0xff900000; // exponent all ones, quiet bit clear, a payload bit set
const nanBits = fc
  .tuple(fc.boolean(), fc.integer({ min: 1, max: 0x7fffff }))
  .map(([sign, mantissa]) => ((sign ? 0x80000000 : 0) | 0x7f800000 | mantissa) >>> 0);

/** Where the float fields are: the first TRAK model's bbox centre x and first vertex x, the first tile's x and z. */
function floatOffsets(b: Uint8Array): number[] {
  const t = chunk(b, 'TRAK').payload, m = chunk(b, 'MAP ').payload;
  return [t + 4, t + 4 + MODEL_HEADER_SIZE, m + 12, m + 20];
}

/** Every float of the contents as its u32 bits: each model's bounding volume, vertices and face planes, the tiles' positions. */
function floatWords(c: ReturnType<typeof llamaContents>): number[] {
  const words = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
  return [...(c.trak?.models ?? []).flatMap((m) => [...words(m.bbox), ...words(m.vertices), ...words(m.facePlanes)]), ...(c.map ? words(c.map.floatPos) : [])];
}

function withNans(base: Uint8Array, at: readonly number[], bits: readonly number[]): Uint8Array {
  const b = base.slice();
  at.forEach((p, i) => view(b).setUint32(p, bits[i % bits.length]!, true));
  return b;
}

const demo = buildLevel(demoLevel());
const files: [string, Uint8Array][] = [
  ['a whole WAD', minimalWad()],
  ['a chunk sequence (TRAK, WFPC, MAP)', Uint8Array.from([...demo.trakBytes, ...demo.mapBytes])],
];

describe('llama: the layout-keeping write keeps the bits of NaN floats', () => {
  for (const [what, base] of files) {
    it(`gives ${what} with signalling NaNs in the TRAK and MAP floats back byte for byte`, () => {
      const at = floatOffsets(base);
      const bytes = withNans(base, at, [SIGNALLING_NAN]);
      // The premise: a number cannot carry these bits (the plain float path quiets them).
      const probe = new DataView(new ArrayBuffer(4));
      probe.setFloat32(0, view(bytes).getFloat32(at[2]!, true), true);
      expect(probe.getUint32(0, true)).not.toBe(SIGNALLING_NAN);
      const kept = rewriteWorldFile(bytes, { keepLayout: true });
      expect(kept.kind).toBe('llama-wad');
      expect(kept.identical).toBe(true);
      expect(Array.from(kept.bytes)).toEqual(Array.from(bytes));
      // The canonical writer keeps them too: the model holds the file's bits, and the writer writes them.
      expect(kept.differences.some((d) => d.reason.includes('NaN'))).toBe(false);
      const read = llamaContents('llama-wad', bytes, undefined);
      const again = llamaContents('llama-wad', rewriteWorldFile(bytes).bytes, undefined);
      expect(floatWords(read).filter((w) => w === SIGNALLING_NAN)).toHaveLength(4);
      expect(floatWords(again)).toEqual(floatWords(read));
    });
  }

  it('keeps them after the reader and the writers have run thousands of times (optimised code included)', () => {
    // Through JS numbers, the bits came out right at first and changed once V8 had optimised the loops.
    const base = files[0]![1];
    const at = floatOffsets(base);
    const bytes = withNans(base, at, [SIGNALLING_NAN, 0x7f800001, 0xffbfffff, 0x7fc00001]);
    let wrong = 0;
    for (let i = 0; i < 4000; i++) {
      const c = llamaContents('llama-wad', bytes, undefined);
      const again = llamaContents('llama-wad', rewriteWorldFile(bytes).bytes, undefined);
      const words = (m: typeof c) => [...new Uint32Array(m.trak!.models[0]!.bbox.buffer, 0, 1), ...new Uint32Array(m.trak!.models[0]!.vertices.buffer, 0, 1), ...new Uint32Array(m.map!.floatPos.buffer, 0, 3)];
      const w0 = words(c), w1 = words(again);
      if (w0[0] !== SIGNALLING_NAN || w0[1] !== 0x7f800001 || w0[2] !== 0xffbfffff || w0[4] !== 0x7fc00001 || w1.join() !== w0.join()) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('keeps any NaN payload, at any of the float fields (property)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.array(nanBits, { minLength: 1, maxLength: 4 }), fc.subarray([0, 1, 2, 3], { minLength: 1 }), ([, base], bits, which) => {
        const at = floatOffsets(base).filter((_, i) => which.includes(i));
        const bytes = withNans(base, at, bits);
        expect(Array.from(rewriteWorldFile(bytes, { keepLayout: true }).bytes)).toEqual(Array.from(bytes));
        ran++;
      }),
      { numRuns: 200, seed: 31 },
    );
    expect(ran).toBe(200);
  });

  it('writes a changed value as the model holds it: a NaN over a number, a number over a NaN', () => {
    const base = minimalWad();
    const [, , x, z] = floatOffsets(base);
    const bytes = withNans(base, [x!], [SIGNALLING_NAN]);
    const contents = llamaContents('llama-wad', bytes, undefined);
    contents.map!.floatPos[0] = 1.25; // was the NaN at x
    contents.map!.floatPos[2] = NaN; // was −0.5 at z
    const out = writeLlamaFileKeepingLayout(contents, bytes);
    expect(out.length).toBe(bytes.length);
    expect(view(out).getFloat32(x!, true)).toBe(1.25);
    expect(Number.isNaN(view(out).getFloat32(z!, true))).toBe(true);
    // Everything else is the input's.
    for (let i = 0; i < out.length; i++) if (i < x! || i >= z! + 4 || (i >= x! + 4 && i < z!)) expect(out[i], `byte ${i}`).toBe(bytes[i]);
    // An unchanged file lists no NaN difference when its NaNs are ones a number carries (quiet, no payload change).
    const quiet = withNans(base, [x!], [0x7fc00000]);
    expect(llamaFileDifferences(llamaContents('llama-wad', quiet, undefined), quiet).some((d) => d.reason.includes('NaN'))).toBe(false);
  });
});
