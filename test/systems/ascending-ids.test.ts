import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AscendingIds } from '../../src/systems/ascending-ids.js';
import { EcsWorld, newEcsCopy } from '../../src/ecs/ecs-world.js';

describe('AscendingIds', () => {
  it('gives every id once, ascending, and its buffer only grows', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 100_000 }), { maxLength: 300 }), { maxLength: 6 }), (lists) => {
        const ascending = new AscendingIds();
        let capacity = ascending.capacity;
        for (const list of lists) {
          const ids = ascending.of(list);
          expect(Array.from(ids)).toEqual([...list].sort((a, b) => a - b));
          expect(ascending.capacity).toBeGreaterThanOrEqual(Math.max(capacity, list.length));
          capacity = ascending.capacity;
        }
      }),
    );
  });

  it('sorts a list that is ascending but for one id moved (the copy that checks the order sees it)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 1 << 20 }), { minLength: 2, maxLength: 400 }), fc.nat(), fc.nat(), (set, from, to) => {
        const sorted = [...set].sort((a, b) => a - b);
        const list = sorted.slice();
        const [moved] = list.splice(from % list.length, 1);
        list.splice(to % (list.length + 1), 0, moved!);
        fc.pre(list.some((e, i) => i > 0 && e < list[i - 1]!));
        ran++;
        const ascending = new AscendingIds();
        expect(Array.from(ascending.of(sorted))).toEqual(sorted);
        expect(Array.from(ascending.of(list))).toEqual(sorted);
      }),
    );
    expect(ran).toBeGreaterThan(50);
  });

  it('does not touch the list it is given', () => {
    const list = [5, 1, 3];
    new AscendingIds().of(list);
    expect(list).toEqual([5, 1, 3]);
  });

  it("with the entity world's structureId: a query's ascending ids after any spawns, despawns, component changes and rollbacks", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('spawn', 'despawn', 'remove', 'add', 'save', 'restore', 'none', 'none'), fc.nat()), { maxLength: 60 }), (ops) => {
        const ecs = new EcsWorld(64);
        const { Position, Velocity } = ecs.components;
        const q = ecs.defineQuery('moving', [Position, Velocity]);
        const ascending = new AscendingIds();
        const copy = newEcsCopy();
        let saved = false;
        for (let i = 0; i < 5; i++) ecs.spawn([Position, Velocity]);
        for (const [op, k] of ops) {
          const live = Array.from({ length: ecs.maxId }, (_, i) => i + 1).filter((e) => ecs.isAlive(e));
          const e = live.length ? live[k % live.length]! : 0;
          if (op === 'spawn' && ecs.aliveCount < 60) ecs.spawn(k % 2 ? [Position, Velocity] : [Position]);
          else if (op === 'despawn' && e) ecs.despawn(e);
          else if (op === 'remove' && e) ecs.remove(e, Velocity);
          else if (op === 'add' && e) ecs.add(e, Velocity);
          else if (op === 'save') (ecs.saveInto(copy), (saved = true));
          else if (op === 'restore' && saved) ecs.restoreFrom(copy);
          // Asked now and then, so that several changes (a despawn and a spawn: the same count) come between.
          if (op !== 'none') continue;
          const expected = [...ecs.entities(q)].sort((a, b) => a - b);
          expect(Array.from(ascending.of(ecs.entities(q), ecs.structureId))).toEqual(expected);
          // Asked again with nothing changed: the same answer (the kept one).
          expect(Array.from(ascending.of(ecs.entities(q), ecs.structureId))).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
