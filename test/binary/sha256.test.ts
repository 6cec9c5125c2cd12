/** The plain-JavaScript SHA-256 gives node:crypto's digest for any bytes (property), and the standard vectors. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/binary/sha256.js';

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 examples', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('agrees with node:crypto on any bytes, every length around the block edges included (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(sha256Hex(b)).toBe(createHash('sha256').update(b).digest('hex'));
      }),
      { numRuns: 500 },
    );
    for (let n = 50; n < 140; n++) {
      const b = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      expect(sha256Hex(b)).toBe(createHash('sha256').update(b).digest('hex'));
    }
  });
});
