/**
 * The graph built a slice at a time (`NavGraphBuilder`, how the sandbox builds a large world's graph while the
 * page goes on drawing) is the graph built at once, to the bit, whatever the slices; its progress only grows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { buildNavGraph, NavGraphBuilder, type NavGraph } from '../../src/nav/graph.js';
import { writeNavGraph } from '../../src/nav/graph-file.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import { walkSourceOf } from '../../src/nav/walk-source.js';
import type { CollisionWorld } from '../../src/worlds/world.js';

const WORLDS = ['rugrats-hand', 'llama-demo', 'colbin-demo'] as const;

describe.each(WORLDS)('%s', (name) => {
  it('slices of any size give the graph built at once, byte for byte', async () => {
    const world: CollisionWorld = (await openBuiltinWorld(name)).world;
    const body = defaultNavBody(world);
    const whole = writeNavGraph(buildNavGraph(world, body));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }), async (slices) => {
        const b = new NavGraphBuilder(walkSourceOf(world, body), world.name);
        let g: NavGraph | null = null;
        let last = 0;
        let calls = 0;
        for (let k = 0; g === null; k++) {
          g = b.advance(slices[k % slices.length]!);
          calls++;
          expect(b.progress).toBeGreaterThanOrEqual(last);
          last = b.progress;
        }
        expect(b.progress).toBe(1);
        expect(calls).toBeGreaterThan(1);
        expect(writeNavGraph(g)).toEqual(whole);
        // asked again, the same graph object
        expect(b.advance(1)).toBe(g);
      }),
      { numRuns: 4 },
    );
  }, 300_000);
});
