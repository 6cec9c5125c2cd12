/**
 * Parallel line of sight equals serial line of sight. test/systems/los/parallel.test.ts checks the pool on
 * random segments inside each world's bounds; this adds what it does not cover:
 *  - a property over arbitrary batches: segment ends anywhere (outside the bounds, huge, NaN, infinite,
 *    zero-length), any batch size (including ones smaller than the thread count), for every demo world;
 *  - the workload the simulation really casts: eye-to-eye segments between the agents of a running default
 *    scenario, frame after frame, answered by the pool and by one thread.
 * Answers must be identical: the same `visible` bytes and bit-identical fractions.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../src/systems/los/los-batch.js';
import { LosPool } from '../../src/node/los-pool.js';
import { DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { DEMO_KINDS, demoSource, openDemo, type DemoKind } from '../systems/demo-worlds.js';

const THREADS = 3;

/** Bit patterns of the fractions, so that NaN, −0 and 0 would be told apart. */
function bits(a: Float64Array): string[] {
  const u = new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) out.push(u[2 * i + 1]!.toString(16) + ':' + u[2 * i]!.toString(16));
  return out;
}

function expectSameAnswers(world: CollisionWorld, pool: LosPool, seg: Float64Array, label: string): Promise<void> {
  const n = seg.length / SEGMENT_STRIDE;
  const serial = newLosOutput(n);
  losBatch(world, seg, serial);
  const par = newLosOutput(n);
  return pool.run(seg, par, n).then(() => {
    expect(Array.from(par.visible), label).toEqual(Array.from(serial.visible));
    expect(bits(par.fraction as Float64Array), label).toEqual(bits(serial.fraction as Float64Array));
  });
}

/** One coordinate: mostly inside the bounds (so segments hit things), sometimes anything at all. */
function coordinate(world: CollisionWorld, axis: number): fc.Arbitrary<number> {
  const lo = world.bounds.min[axis]!;
  const hi = world.bounds.max[axis]!;
  const inside = fc.double({ min: lo, max: hi > lo ? hi : lo + 1, noNaN: true }).map((v) => (world.integer ? Math.round(v) : v));
  return fc.oneof(
    { weight: 6, arbitrary: inside },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 1e308, -1e308, 2 ** 31, -(2 ** 31), 0, -0) },
  );
}

function segmentsOf(world: CollisionWorld): fc.Arbitrary<Float64Array> {
  const point = fc.tuple(coordinate(world, 0), coordinate(world, 1), coordinate(world, 2));
  const segment = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(point, point) },
    // Zero length: from and to the same point.
    { weight: 1, arbitrary: point.map((p) => [p, p] as [typeof p, typeof p]) },
  );
  return fc.array(segment, { minLength: 0, maxLength: 200 }).map((list) => {
    const a = new Float64Array(list.length * SEGMENT_STRIDE);
    list.forEach(([p, q], i) => a.set([...p, ...q], i * SEGMENT_STRIDE));
    return a;
  });
}

describe('parallel LOS equals serial LOS', () => {
  const pools = new Map<DemoKind, { world: CollisionWorld; pool: LosPool }>();
  beforeAll(async () => {
    for (const kind of DEMO_KINDS) pools.set(kind, { world: openDemo(kind), pool: await LosPool.create(demoSource(kind), THREADS) });
  });
  afterAll(async () => {
    for (const { pool } of pools.values()) await pool.close();
  });

  for (const kind of DEMO_KINDS) {
    it(`${kind}: any batch, hostile ends included, gets the same answers from ${THREADS} threads as from one (property)`, async () => {
      const { world, pool } = pools.get(kind)!;
      await fc.assert(
        fc.asyncProperty(segmentsOf(world), async (seg) => {
          await expectSameAnswers(world, pool, seg, kind);
        }),
        { numRuns: 40, seed: 20261129 },
      );
    });
  }

  it('the default scenario: eye-to-eye segments between its agents, frame after frame, answer the same on the pool', async () => {
    const read = (p: string) => new Uint8Array(readFileSync(p));
    const opened = await openBuiltinWorld(DEFAULT_WORLD, read);
    const sim = simulationFromSettings(opened.world, defaultSettingsFor(opened.world, { agents: 48, capacity: 64 }));
    const pool = await LosPool.create({ bytes: opened.bytes, name: opened.world.name }, THREADS);
    try {
      const { Position, BodySize } = sim.ecs.components;
      const up = sim.world.up;
      const ids: number[] = [];
      for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.isAlive(e)) ids.push(e);
      let visibleSeen = 0;
      let blockedSeen = 0;
      for (let round = 0; round < 6; round++) {
        for (let f = 0; f < 40; f++) sim.step(demoButtons(sim.frame + 1));
        const eyes = ids.filter((e) => sim.ecs.has(e, Position) && sim.ecs.has(e, BodySize));
        const seg = new Float64Array(((eyes.length * (eyes.length - 1)) / 2) * SEGMENT_STRIDE);
        let k = 0;
        for (let i = 0; i < eyes.length; i++) {
          for (let j = i + 1; j < eyes.length; j++) {
            for (const [e, at] of [
              [eyes[i]!, k],
              [eyes[j]!, k + 3],
            ] as const) {
              const p = [Position.x[e]!, Position.y[e]!, Position.z[e]!];
              p[up.axis] += up.sign * 0.9 * BodySize.height[e]!;
              seg.set(p, at);
            }
            k += SEGMENT_STRIDE;
          }
        }
        const serial = newLosOutput(seg.length / SEGMENT_STRIDE);
        losBatch(sim.world, seg, serial);
        for (const v of serial.visible) v ? visibleSeen++ : blockedSeen++;
        await expectSameAnswers(pool.world, pool, seg, `frame ${sim.frame}`);
        // The pool's own world (loaded from the same bytes) answers as the simulation's world does.
        const mine = newLosOutput(seg.length / SEGMENT_STRIDE);
        losBatch(pool.world, seg, mine);
        expect(bits(mine.fraction as Float64Array)).toEqual(bits(serial.fraction as Float64Array));
      }
      // The workload exercised both answers, or the comparison would prove little.
      expect(visibleSeen).toBeGreaterThan(0);
      expect(blockedSeen).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });
});
