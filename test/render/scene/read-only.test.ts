/**
 * The renderer reads and never writes: a simulation whose state the view reads every frame (entities,
 * the weather's operation list, sight rays through the LOS batch, the ground raster and the overlay, and the
 * inspector's queries: hover, tile, entity with its behaviour, the selected agent's rays, the heat map)
 * hashes the same on every frame as one nobody looks at.
 */
import { expect, test } from 'vitest';
import { ambientOpsSource, decodeAmbient } from '../../../src/render/scene/ambient-ops.js';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { rasterizeGround } from '../../../src/render/scene/ground-raster.js';
import { overlayFor } from '../../../src/render/scene/overlays.js';
import { mapPlaneOf, mapRectOf } from '../../../src/render/scene/projection.js';
import { behaviours, describeAt, describeEntity, probeAt } from '../../../src/render/scene/inspect.js';
import { VisibilityHeatMap } from '../../../src/render/scene/heat-map.js';
import { SightProbe } from '../../../src/render/scene/sight-probe.js';
import { legendFor } from '../../../src/render/scene/legend.js';
import { fieldAmbience } from '../../../src/render/scene/weather-look.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { losBatch, newLosOutput } from '../../../src/systems/los/los-batch.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

test.each(['piney-storm', 'llama-demo', 'rugrats-demo', 'gta-town', 'colbin-demo'])('%s: reading for the view changes no hash', async (id) => {
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
  const heat = new VisibilityHeatMap(sim.world, { cells: 16, budget: 50, interval: 8 });
  const probe = new SightProbe(24);
  const rect = mapRectOf(plane, sim.world.bounds)!;
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
    // The inspector, as a user would drive it: hover and click points, the selected agent, the heat map.
    const u = ((f * 7919) % 1000) / 1000;
    const v = ((f * 104729) % 1000) / 1000;
    probeAt(sim.world, rect.x + u * rect.width, rect.y + v * rect.height, plane);
    describeAt(sim.world, rect.x + v * rect.width, rect.y + u * rect.height);
    const sel = e.ids[f % e.count]!;
    describeEntity(sim, sel, f % 30 === 0 ? behaviours(sim) : null);
    probe.probe(sim, plane, sel, e.ids, e.count);
    heat.update(sim);
    legendFor(sim.world, { overlay: true, sight: true, selectedAgent: true, selectedTile: false, ambience: fieldAmbience(sim), weatherKinds: [], heatMax: heat.grid?.max ?? 0 });
    const ops = ambient?.read();
    if (ops) items += decodeAmbient(ops.words, ops.length).items.length;
    expect(watched.hash, `frame ${f + 1}`).toBe(alone.hash);
  }
  if (id === 'piney-storm') expect(items).toBeGreaterThan(0);
  expect(heat.grid).not.toBeNull();
});
