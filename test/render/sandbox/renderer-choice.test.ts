/** The renderer as the link asks, else WebGL on a real GPU and the canvas on a CPU emulation; the canvas on whole device pixels. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chooseRenderer, fitToDevicePixels } from '../../../src/render/sandbox/renderer-choice.js';

describe('renderer choice', () => {
  test("the link's renderer is used without asking the GPU; otherwise the GPU's name decides", () => {
    const never = () => {
      throw new Error('the GPU was asked');
    };
    for (const r of ['webgl', 'webgpu', 'canvas'] as const) expect(chooseRenderer(r, never)).toBe(r);
    expect(chooseRenderer(undefined, () => '')).toBe('canvas');
    expect(chooseRenderer('bogus', () => 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))')).toBe('canvas');
    expect(chooseRenderer(undefined, () => 'llvmpipe (LLVM 15.0.6, 256 bits)')).toBe('canvas');
    expect(chooseRenderer(undefined, () => 'ANGLE (NVIDIA GeForce RTX 3060)')).toBe('webgl');
  });

  test('the canvas starts on a device pixel and fits inside its box', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 500, noNaN: true }), fc.double({ min: 0, max: 500, noNaN: true }), fc.double({ min: 0, max: 3000, noNaN: true }), fc.double({ min: 0, max: 3000, noNaN: true }), fc.constantFrom(1, 1.25, 1.5, 2, 3), (left, top, width, height, dpr) => {
        const f = fitToDevicePixels({ left, top, width, height }, dpr);
        expect(Math.abs((left + f.dx) * dpr - Math.round((left + f.dx) * dpr))).toBeLessThan(1e-6);
        expect(Math.abs((top + f.dy) * dpr - Math.round((top + f.dy) * dpr))).toBeLessThan(1e-6);
        expect(Math.abs(f.dx)).toBeLessThanOrEqual(0.5 / dpr + 1e-9);
        // Down, never up into the bar above (but for a rounding error the ceiling forgives).
        expect(f.dy).toBeGreaterThanOrEqual(-1e-6);
        expect(Number.isInteger(f.width) && Number.isInteger(f.height)).toBe(true);
        expect(f.width).toBeGreaterThanOrEqual(1);
        if (width - f.dx >= 1) expect(f.dx + f.width).toBeLessThanOrEqual(width + 1e-9);
        if (height - f.dy >= 1) expect(f.dy + f.height).toBeLessThanOrEqual(height + 1e-9);
      }),
    );
  });
});
