/**
 * The inspection on a real simulation: the hover answer is the world's own ground at the map point; a tile's
 * description is read when it is selected and drawn as its highlights; a selected entity is read each
 * refresh with its behaviour at most BEHAVIOUR_FRAMES old; a click picks the entity drawn there, else the tile;
 * a new world or selection forgets what was read of the last.
 */
import { describe, expect, test } from 'vitest';
import { BEHAVIOUR_FRAMES, Inspection, pickAt } from '../../../src/render/sandbox/inspection.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { behaviours, describeAt, describeEntity, probeAt } from '../../../src/render/scene/inspect.js';
import { mapPlaneOf, mapRectOf } from '../../../src/render/scene/projection.js';
import { opener } from '../helpers.js';

describe('inspection', () => {
  test('hover, tile and entity, and forgetting them', async () => {
    const s = await SandboxSession.create(opener('piney-default'), { agents: 20 });
    const sim = s.sim;
    const world = sim.world;
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    const mx = r.x + r.width * 0.4;
    const my = r.y + r.height * 0.6;
    const ins = new Inspection();

    expect(ins.hoverOver(world, plane, 11, 22, mx, my)).toEqual(probeAt(world, mx, my, plane));
    expect(ins.hoverAt).toEqual([11, 22]);
    ins.leave();
    expect([ins.hover, ins.hoverAt]).toEqual([null, null]);

    ins.select({ kind: 'tile', x: mx, y: my });
    expect(ins.tile).toBeNull();
    const tileMarks = ins.marks(world);
    expect(ins.tile).toEqual(describeAt(world, mx, my));
    expect(tileMarks).toEqual({ selected: -1, highlights: ins.tile!.highlights });
    ins.refresh(sim);
    expect(ins.entity).toBeNull();

    const e = readEntities(sim, plane, newEntityFrame(sim.ecs.components.capacity), { ids: new Uint32Array(8) });
    const i = e.count - 1;
    const id = e.ids[i]!;
    const picked = pickAt(e, e.x[i]!, e.y[i]!, 1);
    expect(picked).toEqual({ kind: 'entity', id: e.ids[i] });
    expect(pickAt(e, 1e9, 1e9, 1)).toEqual({ kind: 'tile', x: 1e9, y: 1e9 });

    ins.select(picked);
    expect(ins.tile).toBeNull();
    expect(ins.marks(world)).toEqual({ selected: id, highlights: [] });
    ins.refresh(sim);
    const b0 = behaviours(sim);
    expect(ins.entity).toEqual(describeEntity(sim, id, b0));
    // Within BEHAVIOUR_FRAMES the behaviour read at selection stands; after them it is read again.
    for (let f = 0; f < BEHAVIOUR_FRAMES - 1; f++) s.stepLive(0);
    ins.refresh(sim);
    expect(ins.entity?.behaviour).toEqual(describeEntity(sim, id, b0)?.behaviour);
    expect(ins.entity?.components).toEqual(describeEntity(sim, id, b0)?.components);
    s.stepLive(0);
    ins.refresh(sim);
    expect(ins.entity).toEqual(describeEntity(sim, id, behaviours(sim)));

    ins.hoverOver(world, plane, 1, 2, mx, my);
    ins.reset();
    expect([ins.hover, ins.hoverAt, ins.selection, ins.tile, ins.entity]).toEqual([null, null, null, null, null]);
    expect(ins.marks(world)).toEqual({ selected: -1, highlights: [] });
  });
});
