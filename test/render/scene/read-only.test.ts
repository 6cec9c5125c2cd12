/**
 * The renderer reads and never writes: a simulation whose state the view reads every frame (entities,
 * the weather's operation list, sight rays through the LOS batch, the ground raster and the overlay) hashes
 * the same on every frame as one nobody looks at.
 */
import { expect, test } from 'vitest';
import { ambientOpsSource, decodeAmbient } from '../../../src/render/scene/ambient-ops.js';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { rasterizeGround } from '../../../src/render/scene/ground-raster.js';
import { overlayFor } from '../../../src/render/scene/overlays.js';
import { mapPlaneOf } from '../../../src/render/scene/projection.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { losBatch, newLosOutput } from '../../../src/systems/los/los-batch.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

test.each(['piney-storm', 'llama-demo', 'rugrats-demo', 'gta-town'])('%s: reading for the view changes no hash', async (id) => {
  const watched = await SandboxSession.create(opener(id), { agents: 25 });
  const alone = await SandboxSession.create(opener(id), { agents: 25 });
  const sim = watched.sim;
  const plane = mapPlaneOf(sim.world);
  const frame = newEntityFrame(sim.ecs.components.capacity);
  const scratch = { ids: new Uint32Array(8) };
  const ambient = ambientOpsSource(sim);
  expect(ambient !== null).toBe(id.startsWith('piney'));
  rasterizeGround(sim.world, { maxSize: 48 });
  overlayFor(sim.world);
  const rays = new Float64Array(6 * 32);
  const out = newLosOutput(32);
  let items = 0;
  for (let f = 0; f < 240; f++) {
    const b = f % 60 < 40 ? Buttons.Up : Buttons.Left;
    watched.stepLive(b);
    alone.stepLive(b);
    const e = readEntities(sim, plane, frame, scratch);
    expect(e.count).toBe(sim.ecs.aliveCount);
    const P = sim.ecs.components.Position;
    const m = Math.min(32, e.count);
    for (let i = 0; i < m; i++) {
      const id2 = e.ids[i]!;
      rays.set([P.x[id2]!, P.y[id2]!, P.z[id2]!, P.x[id2]! + 7, P.y[id2]!, P.z[id2]! + 7], i * 6);
      if (sim.world.integer) for (let k = 0; k < 6; k++) rays[i * 6 + k] = Math.round(rays[i * 6 + k]!);
    }
    losBatch(sim.world, rays, out, 0, m);
    const ops = ambient?.read();
    if (ops) items += decodeAmbient(ops.words, ops.length).items.length;
    expect(watched.hash, `frame ${f + 1}`).toBe(alone.hash);
  }
  if (id === 'piney-storm') expect(items).toBeGreaterThan(0);
});
