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
 * Floats whose bits a JS number does not carry: a signalling NaN (quiet bit clear) read into a number comes
 * back quieted, so a writer that stores the number gives other bits. The layout-keeping write must keep them.
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
      // The canonical writer does not keep them, and the differences say where.
      const diff = kept.differences.filter((d) => d.reason.includes('NaN'));
      expect(diff.map((d) => d.offset)).toEqual([at[0], at[2]]);
      expect(diff[0]!.reason).toContain('chunk "TRAK": 2 NaN float(s)');
      expect(diff[1]!.reason).toContain('chunk "MAP ": 2 NaN float(s)');
    });
  }

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
