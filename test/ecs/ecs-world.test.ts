import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CapacityError, EcsWorld } from '../../src/ecs/ecs-world.js';

/** An operation on the world: spawn with a component set, despawn the k-th live entity, add/remove a component. */
type Op = { kind: 'spawn'; set: number } | { kind: 'despawn'; k: number } | { kind: 'toggle'; k: number; c: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('spawn' as const), set: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('despawn' as const), k: fc.nat(1000) }),
  fc.record({ kind: fc.constant('toggle' as const), k: fc.nat(1000), c: fc.integer({ min: 0, max: 2 }) }),
);

function makeWorld(): EcsWorld {
  const w = new EcsWorld(512);
  const c = w.components;
  w.defineQuery('moving', [c.Position, c.Velocity]);
  w.defineQuery('agents', [c.Agent]);
  return w;
}

/** Applies an op; returns what it observed (the id spawned or touched), so two runs can be compared. */
function apply(w: EcsWorld, op: Op, step: number): number {
  const c = w.components;
  // Read the queries as systems do every frame: this commits pending removals, which reorders the lists.
  if (step % 3 === 0) observe(w);
  const sets = [c.Position, c.Velocity, c.Agent];
  const live: number[] = [];
  for (let id = 1; id <= w.maxId; id++) if (w.isAlive(id)) live.push(id);
  if (op.kind === 'spawn') {
    if (w.aliveCount >= 500) return -1;
    const id = w.spawn(sets.filter((_, i) => op.set & (1 << i)));
    c.Position.x[id] = step * 1.5;
    c.Agent.timer[id] = step;
    return id;
  }
  if (!live.length) return 0;
  const id = live[op.k % live.length]!;
  if (op.kind === 'despawn') w.despawn(id);
  else {
    const comp = sets[op.c]!;
    if (w.has(id, comp)) w.remove(id, comp);
    else w.add(id, comp);
  }
  return id;
}

function observe(w: EcsWorld): unknown {
  const [moving, agents] = [w.entities((w as any).queryList[0]), w.entities((w as any).queryList[1])];
  return { max: w.maxId, alive: w.aliveCount, moving: [...moving], agents: [...agents], x: Array.from(w.components.Position.x.subarray(0, w.maxId + 1)) };
}

describe('EcsWorld', () => {
  it('hands out ids from 1 and recycles the most recently removed id first', () => {
    const w = makeWorld();
    const c = w.components;
    const ids = [w.spawn([c.Position]), w.spawn([c.Position]), w.spawn([c.Position]), w.spawn([c.Position])];
    expect(ids).toEqual([1, 2, 3, 4]);
    w.despawn(3);
    w.despawn(1);
    expect(w.spawn([])).toBe(1);
    expect(w.spawn([])).toBe(3);
    expect(w.spawn([])).toBe(5);
  });

  it('zeroes the fields of a recycled id', () => {
    const w = makeWorld();
    const c = w.components;
    const a = w.spawn([c.Position, c.Agent]);
    c.Position.y[a] = 7;
    c.Agent.speed[a] = 3;
    w.despawn(a);
    const b = w.spawn([c.Position]);
    expect(b).toBe(a);
    expect(c.Position.y[b]).toBe(0);
    expect(c.Agent.speed[b]).toBe(0);
    expect(w.has(b, c.Agent)).toBe(false);
  });

  it('throws CapacityError when the fixed capacity is used up, and recycles after a removal', () => {
    const w = new EcsWorld(4);
    for (let i = 0; i < 3; i++) w.spawn([]);
    expect(() => w.spawn([])).toThrow(CapacityError);
    w.despawn(2);
    expect(w.spawn([])).toBe(2);
  });

  it('the same operations give the same ids and query orders (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        const a = makeWorld();
        const b = makeWorld();
        const ra = ops.map((op, i) => apply(a, op, i));
        const rb = ops.map((op, i) => apply(b, op, i));
        expect(ra).toEqual(rb);
        expect(observe(a)).toEqual(observe(b));
      }),
      { numRuns: 60 },
    );
  });

  it('restore reproduces ids, recycle order, query orders and fields exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 100 }), fc.array(opArb, { maxLength: 100 }), (before, after) => {
        const a = makeWorld();
        before.forEach((op, i) => apply(a, op, i));
        const saved = a.save();
        const b = makeWorld();
        b.spawn([b.components.Agent]); // some unrelated history, wiped by the restore
        b.restore(saved);
        expect(observe(b)).toEqual(observe(a));
        const ra = after.map((op, i) => apply(a, op, 1000 + i));
        const rb = after.map((op, i) => apply(b, op, 1000 + i));
        expect(rb).toEqual(ra);
        expect(observe(b)).toEqual(observe(a));
      }),
      { numRuns: 60 },
    );
  });

  it('rejects a corrupt state and leaves the world unchanged', () => {
    const a = makeWorld();
    const c = a.components;
    for (let i = 0; i < 5; i++) a.spawn([c.Position]);
    a.despawn(2);
    const good = a.save();
    const b = makeWorld();
    b.spawn([c.Agent]);
    const before = observe(b);
    const dup = { ...good, dense: good.dense.slice() };
    dup.dense[1] = dup.dense[0]!;
    expect(() => b.restore(dup)).toThrow(/permutation/);
    expect(() => b.restore({ ...good, maxId: 10_000 })).toThrow(/maxId/);
    expect(() => b.restore({ ...good, fields: good.fields.slice(1) })).toThrow(/field/);
    const wrongType = { ...good, fields: good.fields.map((f, i) => (i === 0 ? { ...f, values: new Float32Array(f.values.length) } : f)) };
    expect(() => b.restore(wrongType as never)).toThrow(/Position\.x\)\.values: expected a Float64Array/);
    expect(() => b.restore({ ...good, capacity: 99 })).toThrow(/capacity/);
    expect(observe(b)).toEqual(before);
  });

  it('lists live ids in ascending order whatever the history', () => {
    const w = makeWorld();
    for (let i = 0; i < 10; i++) w.spawn([]);
    for (const id of [7, 2, 9]) w.despawn(id);
    const out = { ids: new Uint32Array(1) };
    const n = w.aliveIdsAscending(out);
    expect(Array.from(out.ids.subarray(0, n))).toEqual([1, 3, 4, 5, 6, 8, 10]);
  });
});
