/**
 * Random dense Rugrats levels (slopes, stacks, halves, missing cells, bounds that cut cells, heights near the
 * s32 limits) and the coordinates and segment ends the line-of-sight walk's property tests draw on them
 * (segment-stop.test.ts: the fast walk against vectorwalk; segment-walk-wasm.test.ts: the WebAssembly kernel
 * against both).
 */
import fc from 'fast-check';
import { buildLevel, type ColData, type LevelDescription, type RoomDescription } from '../../../src/worlds/rugrats/index.js';

/** Cells a side of a dense level (inside a ring of missing cells). */
export const DENSE_SIZE = 6;
const SIZE = DENSE_SIZE;
const rise = fc.option(fc.tuple(fc.integer({ min: -1024, max: 1024 }), fc.integer({ min: -1024, max: 1024 })), { nil: undefined });
const room: fc.Arbitrary<RoomDescription> = fc
  .record({ floor: fc.integer({ min: 0, max: 30 }), height: fc.integer({ min: 0, max: 24 }), floorRise: rise, ceilingRise: rise })
  .map((r) => ({
    floor: r.floor,
    ceiling: r.floor + r.height,
    ...(r.floorRise ? { floorRise: r.floorRise } : {}),
    ...(r.ceilingRise ? { ceilingRise: r.ceilingRise } : {}),
  }));
/** Rooms of a stack, lowest first, at least one height step apart. */
const stack = fc.array(room, { minLength: 1, maxLength: 3 }).map((rs) => {
  let base = 0;
  return rs.map((r) => {
    const f = Math.min(255, r.floor + base);
    const c = Math.min(255, Math.max(f, r.ceiling + base));
    base = c + 1;
    return { ...r, floor: f, ceiling: c };
  });
});
/** A cell: missing, a stack (flat tiles twice as often as any other kind), or halved. */
export const denseCell = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 8, max: 40 })).map(([f, h]) => ({ rooms: [{ floor: f, ceiling: Math.min(255, f + h) }] })) },
  { weight: 2, arbitrary: stack.map((rooms) => ({ rooms })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom<'x=z' | 'x+z'>('x=z', 'x+z'), stack, stack, fc.boolean())
      .map(([diagonal, low, high, first]) => ({ halved: { diagonal, low, high, first: first ? ('high' as const) : ('low' as const) } })),
  },
);
/**
 * A dense SIZE × SIZE level; max y sometimes near the s32 limits (heights that wrap), and bounds that may cut
 * the outer cells (min x and min z need not be multiples of 1024 in a file).
 */
export const denseLevelArb: fc.Arbitrary<{ data: ColData; maxY: number; shiftX: number; shiftZ: number }> = fc
  .record({
    cells: fc.array(denseCell, { minLength: SIZE * SIZE, maxLength: SIZE * SIZE }),
    maxY: fc.oneof(fc.constant(0), fc.integer({ min: -20000, max: 20000 }), fc.constant(0x7fffffff), fc.constant(-0x80000000 + 40000)),
    shiftX: fc.oneof(fc.constant(0), fc.integer({ min: -1023, max: 1023 })),
    shiftZ: fc.oneof(fc.constant(0), fc.integer({ min: -1023, max: 1023 })),
    cutX: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 })),
    cutZ: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 })),
  })
  .map((l) => {
    const desc: LevelDescription = {
      min: [0, -40000, 0],
      max: [SIZE * 1024 - 1, 0, SIZE * 1024 - 1],
      cells: l.cells.flatMap((c, i) => (c ? [{ x: 1 + Math.floor(i / SIZE), z: 1 + (i % SIZE), ...c }] : [])),
    };
    desc.max = [(SIZE + 2) * 1024 - 1, 0, (SIZE + 2) * 1024 - 1];
    const data = buildLevel(desc);
    // Bounds moved in the data itself (as a file may have them); heights follow max y.
    data.min = [l.shiftX, l.maxY - 40000 < -0x80000000 ? -0x80000000 : l.maxY - 40000, l.shiftZ];
    data.max = [l.shiftX + (SIZE + 2) * 1024 - 1 - l.cutX, l.maxY, l.shiftZ + (SIZE + 2) * 1024 - 1 - l.cutZ];
    return { data, maxY: l.maxY, shiftX: l.shiftX, shiftZ: l.shiftZ };
  });

/** A coordinate near the level: anywhere, on a cell border (0, 1023, 1024 offsets), or hostile. */
export const coord = (lo: number, hi: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.integer({ min: Math.floor(lo / 1024), max: Math.floor(hi / 1024) }), fc.integer({ min: 0, max: 1023 })).map(([c, o]) => c * 1024 + o) },
    { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: Math.floor(lo / 1024), max: Math.floor(hi / 1024) }), fc.constantFrom(0, 1, 1023, 1024, -1)).map(([c, o]) => c * 1024 + o) },
    { weight: 1, arbitrary: fc.constantFrom(0x7fffffff, -0x80000000, 2 ** 40, -(2 ** 40), NaN, Infinity, -Infinity, 0.5, -0.5) },
    { weight: 1, arbitrary: fc.double({ min: lo, max: hi, noNaN: true }) },
  );
/** A segment's end from its start: anywhere, the same point, along one axis, straight up or down, far away. */
export const endFrom = (f: [number, number, number]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.integer({ min: -9000, max: 9000 }), fc.integer({ min: -1500, max: 1500 }), fc.integer({ min: -9000, max: 9000 })).map(([a, b, c]) => [f[0] + a, f[1] + b, f[2] + c] as [number, number, number]) },
    { weight: 1, arbitrary: fc.constant([f[0], f[1], f[2]] as [number, number, number]) },
    { weight: 1, arbitrary: fc.integer({ min: -9000, max: 9000 }).map((a) => [f[0] + a, f[1], f[2]] as [number, number, number]) },
    { weight: 1, arbitrary: fc.integer({ min: -9000, max: 9000 }).map((a) => [f[0], f[1], f[2] + a] as [number, number, number]) },
    { weight: 1, arbitrary: fc.integer({ min: -9000, max: 9000 }).map((a) => [f[0], f[1] + a, f[2]] as [number, number, number]) },
    { weight: 1, arbitrary: fc.tuple(coord(-3e9, 3e9), coord(-3e9, 3e9), coord(-3e9, 3e9)) },
  );
