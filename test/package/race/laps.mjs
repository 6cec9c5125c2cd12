// Lap times, kept in a component: scalar fields only (a component field holds one number per entity), so
// the best and last lap are two fields, not an array.
import { defineComponent, defineSystem, Position, horizontalAxes } from 'retrosim';
import { CHECKPOINTS, REACH, checkpointsOf } from './checkpoints.mjs';

export const Lap = defineComponent('Lap', { next: 'u8', laps: 'u32', started: 'u32', last: 'u32', best: 'u32' });

/** Moves each racer's next checkpoint on when it is reached, and times each lap (a "lap" signal). */
export const lapTimer = defineSystem({
  name: 'lap-timer',
  priority: 70,
  create(host) {
    const { ecs, world } = host;
    const lap = ecs.store(Lap);
    const pos = ecs.store(Position);
    const racers = ecs.defineQuery('racers', [lap, pos]);
    const axes = horizontalAxes(world);
    const points = checkpointsOf(world, axes);
    const reach = REACH * world.scale;
    const p = [pos.x, pos.y, pos.z];
    return (ctx) => {
      for (const e of [...ecs.entities(racers)].sort((x, y) => x - y)) {
        const [c0, c1] = points[lap.next[e]];
        const d0 = p[axes[0]][e] - c0;
        const d1 = p[axes[1]][e] - c1;
        if (d0 * d0 + d1 * d1 > reach * reach) continue;
        lap.next[e] = (lap.next[e] + 1) % CHECKPOINTS;
        if (lap.next[e] !== 0) continue;
        const time = ctx.frame - lap.started[e];
        lap.laps[e]++;
        lap.last[e] = time;
        if (lap.best[e] === 0 || time < lap.best[e]) lap.best[e] = time;
        lap.started[e] = ctx.frame;
        ctx.events.emit('signal', { frame: ctx.frame, name: 'lap', entity: e, data: time });
      }
    };
  },
});
