import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Camera } from '../../../src/render/scene/camera.js';
import { MIN_PINCH_SPAN, pinchOf, TAP_SLOP, TouchGesture, type GestureStep } from '../../../src/render/sandbox/touch-gesture.js';

/** Applies a step to a camera as the page does: the pan, then the zoom about the pinch centre. */
function apply(cam: Camera, s: GestureStep | null): void {
  if (!s) return;
  cam.panPixels(s.dx, s.dy);
  if (s.scale !== 1) cam.zoomAt(s.scale, s.cx, s.cy);
}

const coord = fc.double({ min: -2000, max: 2000, noNaN: true });
const point = fc.tuple(coord, coord);
const close = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

describe('one finger', () => {
  test('a finger that never leaves the slop is a tap at the point it went down, and moves nothing', () => {
    fc.assert(
      fc.property(point, fc.array(fc.tuple(fc.double({ min: 0, max: TAP_SLOP * 0.999, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true })), { maxLength: 20 }), ([x0, y0], wiggles) => {
        const g = new TouchGesture();
        g.down(7, x0, y0);
        let last: [number, number] = [x0, y0];
        for (const [r, a] of wiggles) {
          last = [x0 + r * Math.cos(a), y0 + r * Math.sin(a)];
          expect(g.move(7, ...last)).toBeNull();
        }
        expect(g.up(7, ...last)).toEqual([x0, y0]);
        expect(g.active).toBe(false);
      }),
    );
  });

  test('a drag past the slop pans by exactly the finger’s travel, and is not a tap', () => {
    fc.assert(
      fc.property(point, fc.array(point, { minLength: 1, maxLength: 30 }), ([x0, y0], path) => {
        const g = new TouchGesture();
        g.down(1, x0, y0);
        let sx = 0;
        let sy = 0;
        let left = false;
        for (const [x, y] of path) {
          left ||= Math.hypot(x - x0, y - y0) >= TAP_SLOP;
          const s = g.move(1, x, y);
          if (s) {
            expect(s.scale).toBe(1);
            sx += s.dx;
            sy += s.dy;
          }
        }
        const [xn, yn] = path[path.length - 1]!;
        if (left) {
          expect(close(sx, xn - x0, 1e-9)).toBe(true);
          expect(close(sy, yn - y0, 1e-9)).toBe(true);
          expect(g.up(1, xn, yn)).toBeNull();
        } else {
          expect([sx, sy]).toEqual([0, 0]);
          expect(g.up(1, xn, yn)).toEqual([x0, y0]);
        }
      }),
    );
  });

  test('the map point under the finger stays under it through a drag', () => {
    const cam = new Camera(800, 600);
    cam.setView(100, 50, 2);
    const g = new TouchGesture();
    g.down(1, 200, 300);
    const under = cam.toMap(200, 300);
    for (const [x, y] of [
      [205, 300],
      [230, 280],
      [400, 100],
    ] as const)
      apply(cam, g.move(1, x, y));
    expect(cam.toScreen(...under)).toEqual([400, 100]);
  });
});

describe('two fingers', () => {
  const farApart = fc.tuple(point, point).filter(([a, b]) => Math.hypot(a[0] - b[0], a[1] - b[1]) >= MIN_PINCH_SPAN);

  test('a pinch zooms by the ratio of the fingers’ spans and keeps the map point under their centre under it', () => {
    fc.assert(
      fc.property(farApart, fc.array(fc.tuple(fc.boolean(), point), { minLength: 1, maxLength: 20 }), ([a, b], moves) => {
        const cam = new Camera(1000, 700);
        cam.setView(0, 0, 1);
        const g = new TouchGesture();
        g.down(10, ...a);
        g.down(11, ...b);
        const fingers = { 10: a, 11: b };
        const c0 = pinchOf({ x: a[0], y: a[1] }, { x: b[0], y: b[1] });
        const under = cam.toMap(c0.cx, c0.cy);
        for (const [first, p] of moves) {
          const id = first ? 10 : 11;
          const other = fingers[first ? 11 : 10];
          // Fingers closer than the measurable span are a separate rule (tested below).
          fc.pre(Math.hypot(p[0] - other[0], p[1] - other[1]) >= MIN_PINCH_SPAN);
          fingers[id] = p;
          apply(cam, g.move(id, ...p));
        }
        const c = pinchOf({ x: fingers[10][0], y: fingers[10][1] }, { x: fingers[11][0], y: fingers[11][1] });
        expect(close(cam.zoom, c.span / c0.span)).toBe(true);
        const [sx, sy] = cam.toScreen(...under);
        expect(Math.abs(sx - c.cx)).toBeLessThan(1e-6 * Math.max(1, cam.zoom) * 4000);
        expect(Math.abs(sy - c.cy)).toBeLessThan(1e-6 * Math.max(1, cam.zoom) * 4000);
        // Two fingers are never a tap.
        expect(g.up(10, ...fingers[10])).toBeNull();
        expect(g.up(11, ...fingers[11])).toBeNull();
      }),
    );
  });

  test('fingers spread to twice their span without turning: both map points stay under the fingers', () => {
    const cam = new Camera(800, 600);
    cam.setView(0, 0, 1);
    const g = new TouchGesture();
    g.down(1, 350, 300);
    g.down(2, 450, 300);
    const ua = cam.toMap(350, 300);
    const ub = cam.toMap(450, 300);
    apply(cam, g.move(1, 300, 320));
    apply(cam, g.move(2, 500, 320));
    expect(cam.zoom).toBeCloseTo(2, 12);
    const [ax, ay] = cam.toScreen(...ua);
    const [bx, by] = cam.toScreen(...ub);
    expect(ax).toBeCloseTo(300, 9);
    expect(ay).toBeCloseTo(320, 9);
    expect(bx).toBeCloseTo(500, 9);
    expect(by).toBeCloseTo(320, 9);
  });

  test('fingers too close to measure only pan', () => {
    const g = new TouchGesture();
    g.down(1, 100, 100);
    g.down(2, 101, 100);
    const s = g.move(2, 140, 100)!;
    expect(s.scale).toBe(1);
    expect(s.dx).toBeCloseTo(19.5, 12);
    const t = g.move(1, 140, 100)!;
    expect(t.scale).toBe(1);
  });

  test('a pinch that loses a finger drags on with the other from where it is, and a third finger is ignored', () => {
    const g = new TouchGesture();
    g.down(1, 100, 100);
    g.down(2, 200, 100);
    g.down(3, 500, 500);
    expect(g.count).toBe(3);
    expect(g.move(3, 600, 600)).toBeNull();
    g.move(2, 220, 100);
    expect(g.up(1, 100, 100)).toBeNull();
    // Finger 2 and 3 are the pair now: a pinch from where they are (no jump to where they went down).
    const s = g.move(2, 230, 100)!;
    expect(s.dx).toBeCloseTo(5, 12);
    expect(g.up(3, 600, 600)).toBeNull();
    // Finger 2 alone: a drag at once (it is no tap), by its own travel.
    expect(g.move(2, 231, 102)).toEqual({ dx: 1, dy: 2, scale: 1, cx: 231, cy: 102 });
    expect(g.up(2, 231, 102)).toBeNull();
    expect(g.active).toBe(false);
    // The next gesture starts afresh: a tap again.
    g.down(4, 10, 10);
    expect(g.up(4, 12, 11)).toEqual([10, 10]);
  });
});

describe('hostile or odd input', () => {
  test('unknown fingers, repeated downs, non-finite points and cancels change nothing they should not', () => {
    const g = new TouchGesture();
    expect(g.move(9, 1, 1)).toBeNull();
    expect(g.up(9, 1, 1)).toBeNull();
    g.cancel(9);
    g.down(1, NaN, 0);
    expect(g.active).toBe(false);
    g.down(1, 10, 10);
    g.down(1, 500, 500);
    expect(g.move(1, Infinity, 0)).toBeNull();
    expect(g.move(1, 15, 10)).toBeNull();
    expect(g.up(1, 15, 10)).toEqual([10, 10]);
    // A cancelled touch is never a tap.
    g.down(2, 10, 10);
    g.cancel(2);
    expect(g.active).toBe(false);
    g.down(3, 10, 10);
    g.down(4, 50, 10);
    g.cancel(4);
    expect(g.up(3, 10, 10)).toBeNull();
  });
});
