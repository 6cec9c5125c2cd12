import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Camera, FRAME_MARGIN } from '../../../src/render/scene/camera.js';
import { heightOf, mapPlaneOf, mapRectOf, mapX, mapY, worldAt } from '../../../src/render/scene/projection.js';

const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true });

describe('map plane', () => {
  test('the two horizontal axes are the ones that are not up; z-up maps are not mirrored', () => {
    expect(mapPlaneOf({ up: { axis: 1, sign: -1 } })).toMatchObject({ ax: 0, ay: 2, ySign: 1, up: 1, upSign: -1 });
    expect(mapPlaneOf({ up: { axis: 2, sign: 1 } })).toMatchObject({ ax: 0, ay: 1, ySign: -1, up: 2 });
    expect(mapPlaneOf({ up: { axis: 0, sign: 1 } })).toMatchObject({ ax: 1, ay: 2, up: 0 });
  });

  test('worldAt puts a map point back where mapX/mapY read it, at the height given', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 1, 2), fc.constantFrom(1, -1), coord, coord, coord, (axis, sign, x, y, h) => {
        const p = mapPlaneOf({ up: { axis: axis as 0 | 1 | 2, sign: sign as 1 | -1 } });
        const v = worldAt(p, x, y, h);
        // == rather than Object.is: the sign of a zero does not matter on the map.
        expect(mapX(p, v) === x).toBe(true);
        expect(mapY(p, v) === y).toBe(true);
        expect(v[p.up] === h).toBe(true);
        expect(heightOf(p, v) === sign * h).toBe(true);
      }),
    );
  });

  test('bounds map to a rectangle with non-negative sides, or null when not finite', () => {
    const p = mapPlaneOf({ up: { axis: 2, sign: 1 } });
    expect(mapRectOf(p, { min: [0, 0, 0], max: [10, 20, 5] })).toEqual({ x: 0, y: -20, width: 10, height: 20 });
    expect(mapRectOf(p, { min: [0, 0, 0], max: [Infinity, 1, 1] })).toBeNull();
  });
});

describe('camera', () => {
  test('toMap undoes toScreen', () => {
    fc.assert(
      fc.property(coord, coord, coord, coord, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (cx, cy, x, y, zoom) => {
        const c = new Camera(800, 600);
        c.cx = cx;
        c.cy = cy;
        c.zoom = zoom;
        const [sx, sy] = c.toScreen(x, y);
        const [mx, my] = c.toMap(sx, sy);
        expect(Math.abs(mx - x)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(x) + Math.abs(cx)));
        expect(Math.abs(my - y)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(y) + Math.abs(cy)));
      }),
    );
  });

  test('fit shows the whole rectangle, centred', () => {
    const c = new Camera(800, 600);
    c.fit(100, 200, 1000, 500, 0);
    const [x0, y0] = c.toScreen(100, 200);
    const [x1, y1] = c.toScreen(1100, 700);
    expect(x0).toBeGreaterThanOrEqual(-1e-9);
    expect(y0).toBeGreaterThanOrEqual(-1e-9);
    expect(x1).toBeLessThanOrEqual(800 + 1e-9);
    expect(y1).toBeLessThanOrEqual(600 + 1e-9);
    expect(c.cx).toBe(600);
    expect(c.cy).toBe(450);
  });

  test('panning stops following; zooming about a point keeps that point under the cursor', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 800, noNaN: true }), fc.double({ min: 0, max: 600, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }), (sx, sy, f) => {
        const c = new Camera(800, 600);
        c.zoom = 2;
        // A new camera frames, it does not follow: tracking does nothing until follow().
        c.track(10, 20);
        expect([c.cx, c.cy]).toEqual([0, 0]);
        c.follow();
        c.track(10, 20);
        expect([c.cx, c.cy]).toEqual([10, 20]);
        c.panPixels(5, -5);
        expect(c.following).toBe(false);
        c.track(999, 999);
        expect(c.cx).not.toBe(999);
        const before = c.toMap(sx, sy);
        c.zoomAt(f, sx, sy);
        const after = c.toMap(sx, sy);
        expect(Math.abs(after[0] - before[0])).toBeLessThan(1e-6);
        expect(Math.abs(after[1] - before[1])).toBeLessThan(1e-6);
        c.follow();
        c.track(1, 2);
        expect([c.cx, c.cy]).toEqual([1, 2]);
      }),
    );
  });

  test('fit keeps the margin on the binding side and centres the other; a resize frames again until the user moves', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 120, max: 3000 }),
        fc.integer({ min: 120, max: 3000 }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        (sw, sh, w, h, x) => {
          const c = new Camera(sw, sh);
          c.fit(x, -x, w, h, FRAME_MARGIN);
          const [x0, y0] = c.toScreen(x, -x);
          const [x1, y1] = c.toScreen(x + w, -x + h);
          const tol = 1e-6 * Math.max(sw, sh);
          // Inside the margins, centred, and touching them on one axis.
          expect(x0).toBeGreaterThanOrEqual(FRAME_MARGIN - tol);
          expect(y0).toBeGreaterThanOrEqual(FRAME_MARGIN - tol);
          expect(x1).toBeLessThanOrEqual(sw - FRAME_MARGIN + tol);
          expect(y1).toBeLessThanOrEqual(sh - FRAME_MARGIN + tol);
          expect(Math.abs(x0 - (sw - x1))).toBeLessThan(tol + 1e-6);
          expect(Math.abs(y0 - (sh - y1))).toBeLessThan(tol + 1e-6);
          expect(Math.min(Math.abs(x0 - FRAME_MARGIN), Math.abs(y0 - FRAME_MARGIN))).toBeLessThan(tol + 1e-6);
          // Zooming out beyond the framed view is allowed, down to its limit.
          expect(c.minZoom).toBeLessThan(c.zoom);
          c.resize(sh, sw);
          expect(c.framed).toBe(true);
          const [a0] = c.toScreen(x, -x);
          expect(a0).toBeGreaterThanOrEqual(FRAME_MARGIN - tol);
          c.panPixels(3, 4);
          expect(c.framed).toBe(false);
          const before = [c.cx, c.cy, c.zoom];
          c.resize(sw, sh);
          expect([c.cx, c.cy, c.zoom]).toEqual(before);
        },
      ),
    );
  });

  test('every change of centre, zoom or size bumps the revision', () => {
    const c = new Camera(100, 100);
    let r = c.revision;
    c.fit(0, 0, 10, 10);
    expect(c.revision).toBeGreaterThan(r);
    r = c.revision;
    c.track(5, 5);
    expect(c.revision).toBe(r);
    c.panPixels(1, 0);
    expect(c.revision).toBeGreaterThan(r);
    r = c.revision;
    c.zoomAt(1.5);
    expect(c.revision).toBeGreaterThan(r);
    r = c.revision;
    c.resize(100, 100);
    expect(c.revision).toBe(r);
    c.resize(101, 100);
    expect(c.revision).toBeGreaterThan(r);
  });

  test('zoom stays within its limits and ignores non-finite targets', () => {
    const c = new Camera(100, 100);
    c.fit(0, 0, 10, 10);
    for (let i = 0; i < 100; i++) c.zoomAt(2);
    expect(c.zoom).toBe(c.maxZoom);
    for (let i = 0; i < 100; i++) c.zoomAt(0.5);
    expect(c.zoom).toBe(c.minZoom);
    c.track(NaN, 3);
    expect(Number.isFinite(c.cx)).toBe(true);
  });
});
