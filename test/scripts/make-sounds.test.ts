import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SAMPLE_RATE, encodeWav, hum, polyExp, polySin, soundFiles } from '../../scripts/make-sounds.js';

describe('sound synthesis', () => {
  test('the files in assets/sounds are what the script makes, byte for byte', () => {
    for (const [name, bytes] of Object.entries(soundFiles())) {
      const disk = new Uint8Array(readFileSync(`assets/sounds/${name}`));
      expect(disk.length, name).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(disk), Buffer.from(bytes)), name).toBe(0);
    }
  });

  test('WAV headers: 16-bit mono PCM at the sample rate, sizes matching', () => {
    const w = encodeWav(Float64Array.from([0, 0.5, -0.5, 2, -2]));
    const v = new DataView(w.buffer);
    expect(new TextDecoder().decode(w.subarray(0, 4))).toBe('RIFF');
    expect(v.getUint32(4, true)).toBe(w.length - 8);
    expect(v.getUint16(20, true)).toBe(1);
    expect(v.getUint16(22, true)).toBe(1);
    expect(v.getUint32(24, true)).toBe(SAMPLE_RATE);
    expect(v.getUint16(34, true)).toBe(16);
    expect(v.getUint32(40, true)).toBe(10);
    // Rounded to nearest (ties toward +∞, as Math.round), clipped to ±1.
    expect([0, 1, 2, 3, 4].map((i) => v.getInt16(44 + 2 * i, true))).toEqual([0, 16384, -16383, 32767, -32767]);
  });

  test('the polynomial sine and exponential are close to the library ones', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e4, max: 1e4, noNaN: true }), (x) => {
        expect(Math.abs(polySin(x) - Math.sin(x))).toBeLessThan(1e-5);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: -60, max: 0, noNaN: true }), fc.double({ min: -0.5, max: 0, noNaN: true })), (x) => {
        expect(Math.abs(polyExp(x) - Math.exp(x))).toBeLessThanOrEqual(1e-11 * Math.exp(x) + Number.MIN_VALUE);
      }),
    );
  });

  test('the hum loops without a click: the step from its last sample to its first is an ordinary step', () => {
    const h = hum();
    let biggest = 0;
    for (let i = 1; i < h.length; i++) biggest = Math.max(biggest, Math.abs(h[i]! - h[i - 1]!));
    expect(Math.abs(h[0]! - h[h.length - 1]!)).toBeLessThanOrEqual(biggest);
  });
});
