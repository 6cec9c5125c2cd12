/**
 * The fast line-of-sight walk (SegmentStopWalker, behind RugratsWorld.segmentFraction) against the rule-exact
 * vectorwalk (segmentCol): the same result and the same stop point on random dense levels (slopes, stacks,
 * halves, missing cells, odd bounds) and random segments, degenerate ones included.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  buildColIndex,
  buildLevel,
  loadRugratsWorld,
  RugratsWorld,
  segmentCol,
  SEGMENT_OUT_LENGTH,
  SegmentStopWalker,
  S_POINT,
  tileOpenSpan,
  type ColIndex,
} from '../../../src/worlds/rugrats/index.js';
import { DENSE_SIZE as SIZE, coord, denseCell as cell, denseLevelArb as levelArb, endFrom } from './dense-levels.js';

const ref = new Int32Array(SEGMENT_OUT_LENGTH);

/** Compares the walker with segmentCol on one segment; returns the result, or −1 on a disagreement. */
function agree(ix: ColIndex, walker: SegmentStopWalker, f: number[], t: number[]): number {
  const r = segmentCol(ix, f[0]!, f[1]!, f[2]!, t[0]!, t[1]!, t[2]!, ref);
  const w = walker.walk(f[0]!, f[1]!, f[2]!, t[0]!, t[1]!, t[2]!);
  if (w !== r) return -1;
  if (r === 1 && (walker.stop[0] !== ref[S_POINT] || walker.stop[1] !== ref[S_POINT + 1] || walker.stop[2] !== ref[S_POINT + 2])) return -1;
  return r;
}

describe('the fast line-of-sight walk equals vectorwalk', () => {
  it('on random dense levels and random segments, watchers casting several rays from one start', () => {
    const counts = [0, 0, 0];
    let levels = 0;
    fc.assert(
      fc.property(
        levelArb,
        fc.array(
          fc
            .tuple(coord(0, (SIZE + 2) * 1024), fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -2500, max: -1 }) }, { weight: 1, arbitrary: coord(-45000, 1000) }), coord(0, (SIZE + 2) * 1024))
            .chain((f) => fc.tuple(fc.constant(f), fc.array(endFrom(f), { minLength: 1, maxLength: 6 }))),
          { minLength: 4, maxLength: 12 },
        ),
        (level, watchers) => {
          const ix = buildColIndex(level.data);
          const walker = new SegmentStopWalker(ix);
          levels++;
          for (const [f, ends] of watchers) {
            // The y of a start on the level's own scale when max y moved (so starts are open now and then).
            const from = [f[0], Number.isInteger(f[1]) && Math.abs(f[1]) < 45000 ? f[1] + level.maxY : f[1], f[2]];
            for (const t of ends) {
              const to = [t[0], Number.isInteger(t[1]) && Math.abs(t[1]) < 1e6 ? t[1] - f[1] + from[1]! : t[1], t[2]];
              const r = agree(ix, walker, from, to);
              if (r < 0) return false;
              counts[r]!++;
            }
          }
          return true;
        },
      ),
      { numRuns: 400 },
    );
    // The cases that ran: every kind of answer, many times.
    expect(levels).toBe(400);
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[1]).toBeGreaterThan(500);
    expect(counts[2]).toBeGreaterThan(500);
  });

  it('on open starts only (fc.pre), where the walk goes cell by cell', () => {
    let ran = 0;
    let stopped = 0;
    let through = 0;
    fc.assert(
      fc.property(
        levelArb,
        fc.tuple(fc.integer({ min: 1024, max: (SIZE + 1) * 1024 - 1 }), fc.integer({ min: -6000, max: -1 }), fc.integer({ min: 1024, max: (SIZE + 1) * 1024 - 1 })),
        fc.array(
          fc.oneof(
            fc.tuple(fc.integer({ min: -7000, max: 7000 }), fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -7000, max: 7000 })),
            fc.tuple(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -200, max: 200 }), fc.integer({ min: -3000, max: 3000 })),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (level, f, ds) => {
          const ix = buildColIndex(level.data);
          const from = [f[0] + level.shiftX, f[1] + level.maxY, f[2] + level.shiftZ];
          fc.pre(segmentCol(ix, from[0]!, from[1]!, from[2]!, from[0]!, from[1]!, from[2]!, ref) !== 2);
          const walker = new SegmentStopWalker(ix);
          for (const d of ds) {
            const r = agree(ix, walker, from, [from[0]! + d[0], from[1]! + d[1], from[2]! + d[2]]);
            if (r < 0) return false;
            if (r === 1) stopped++;
            if (r === 0) through++;
          }
          ran++;
          return true;
        },
      ),
      { numRuns: 600 },
    );
    expect(ran).toBeGreaterThan(150);
    expect(stopped).toBeGreaterThan(100);
    expect(through).toBeGreaterThan(100);
  });

  it('gives segmentFraction exactly what vectorwalk gives, on the demo level, rays fanning out from watchers', () => {
    const path = new URL('../../../assets/worlds/rugrats/demo.col', import.meta.url);
    const world = loadRugratsWorld(new Uint8Array(readFileSync(path)), 'demo.col');
    const b = world.bounds;
    let cases = 0;
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: b.min[0] - 500, max: b.max[0] + 500 }), fc.integer({ min: -6000, max: 200 }), fc.integer({ min: b.min[2] - 500, max: b.max[2] + 500 })),
        fc.array(fc.tuple(fc.integer({ min: b.min[0] - 500, max: b.max[0] + 500 }), fc.integer({ min: -6000, max: 200 }), fc.integer({ min: b.min[2] - 500, max: b.max[2] + 500 })), { minLength: 1, maxLength: 10 }),
        (f, targets) => {
          for (const t of targets) {
            cases++;
            const a = world.segmentFraction(f[0], f[1], f[2], t[0], t[1], t[2]);
            const r = world.segmentFractionReference(f[0], f[1], f[2], t[0], t[1], t[2]);
            if (!Object.is(a, r)) return false;
          }
          return true;
        },
      ),
      { numRuns: 3000 },
    );
    expect(cases).toBeGreaterThan(10000);
  });

  it('lets through every segment inside one cell with both ends in its tile open span (slopes and halves included)', () => {
    const span = new Int32Array(2);
    let spans = 0;
    let sloped = 0;
    fc.assert(
      fc.property(
        cell.filter((c) => c !== null),
        fc.integer({ min: -3000, max: 3000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 0, max: 1023 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 10 }),
        (c, maxY, parts) => {
          const ix = buildColIndex(buildLevel({ min: [0, maxY - 40000, 0], max: [1023, maxY, 1023], cells: [{ x: 0, z: 0, ...c! }] }));
          const a = ix.cellStackA[0]!;
          fc.pre(tileOpenSpan(ix, a, span));
          let low = span[0]!, high = span[1]!;
          if (ix.cellStackB[0]! >= 0) {
            fc.pre(tileOpenSpan(ix, ix.cellStackB[0]!, span));
            low = Math.max(low, span[0]!);
            high = Math.min(high, span[1]!);
          }
          fc.pre(high - low >= 2);
          spans++;
          if (ix.tileFloorSloped[a] || ix.tileCeilingSloped[a]) sloped++;
          for (const [x0, z0, x1, z1, u, v] of parts) {
            const y0 = low + 1 + (u % (high - low - 1));
            const y1 = low + 1 + (v % (high - low - 1));
            if (segmentCol(ix, x0, y0, z0, x1, y1, z1, ref) !== 0) return false;
          }
          return true;
        },
      ),
      { numRuns: 1500 },
    );
    expect(spans).toBeGreaterThan(300);
    expect(sloped).toBeGreaterThan(30);
  });

  it('keeps no state between worlds: each world has its own walker and start memory', () => {
    const a = new RugratsWorld(buildColIndex(buildLevel({ min: [0, -8192, 0], max: [2047, 0, 1023], cells: [{ x: 0, z: 0, rooms: [{ floor: 0, ceiling: 32 }] }, { x: 1, z: 0, rooms: [{ floor: 0, ceiling: 32 }] }] })), 'a');
    const b = new RugratsWorld(buildColIndex(buildLevel({ min: [0, -8192, 0], max: [2047, 0, 1023], cells: [{ x: 0, z: 0, rooms: [{ floor: 0, ceiling: 32 }] }, { x: 1, z: 0, rooms: [{ floor: 0, ceiling: 0 }] }] })), 'b');
    // The same start in both: open in both, but the second cell is closed in b only.
    expect(a.segmentFraction(500, -900, 500, 1600, -900, 500)).toBe(-1);
    expect(b.segmentFraction(500, -900, 500, 1600, -900, 500)).toBeCloseTo((1024 - 500) / 1100, 12);
    expect(a.segmentFraction(500, -900, 500, 1600, -900, 500)).toBe(-1);
    // A start that is not open answers 0, and the memory of it does not leak into an open one.
    expect(a.segmentFraction(500, 100, 500, 600, -900, 500)).toBe(0);
    expect(a.segmentFraction(500, -100, 500, 600, -900, 500)).toBe(-1);
  });
});
