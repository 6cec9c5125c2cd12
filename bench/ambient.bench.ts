/**
 * The Piney field's ambient tasks: heavy snow (field type 5, background row 5 → weather 5, 200 flakes), one
 * scheduler frame each (entry, effect, skill, field display with WORLD::Draw's snow, particles), headless.
 */
import { opsPerSecond, consume, type Bench } from './harness.js';
import { Scheduler } from '../src/ecs/scheduler.js';
import { FieldRand } from '../src/rng/fieldrand.js';
import { CcRand } from '../src/rng/ccrand.js';
import { RandomStreams } from '../src/rng/streams.js';
import { createEventBus } from '../src/ecs/events.js';
import { installAmbient } from '../src/systems/piney-ambient/install.js';
import { defaultPineyTables } from '../src/node/assets.js';

function heavySnow(row: number): { step: () => number; flakes: number } {
  const rng = { fieldrand: new FieldRand(), ccrand: new CcRand(), streams: new RandomStreams('bench') };
  const s = new Scheduler(rng, createEventBus());
  const inst = installAmbient(s, { seed: 987654321, type: 5, row, ccInit: 0, tables: defaultPineyTables() });
  // Past the first frames and the settling snow.
  for (let i = 0; i < 8; i++) s.step();
  return {
    step: () => {
      s.step();
      return inst.runtime.ops.length;
    },
    flakes: inst.state.snow?.count ?? 0,
  };
}

export const benches: Bench[] = [
  {
    name: 'ambient heavy snow',
    run() {
      const rate = (row: number): [number, number] => {
        const h = heavySnow(row);
        const fps = opsPerSecond((n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += h.step();
          consume(acc);
        });
        return [fps, h.flakes];
      };
      // Row 4 is heavy snow by day (the snow alone); row 5 is heavy snow at night, with the five fireflies.
      const [day, flakes] = rate(4);
      const [night] = rate(5);
      // The same frames per second of this process's CPU time: steadier than wall time on a busy machine.
      const cpu = (() => {
        const h = heavySnow(4);
        for (let i = 0; i < 2000; i++) h.step();
        const n = 20000;
        const c0 = process.cpuUsage();
        let acc = 0;
        for (let i = 0; i < n; i++) acc += h.step();
        consume(acc);
        const c = process.cpuUsage(c0);
        return n / ((c.user + c.system) / 1e6);
      })();
      return [
        {
          name: 'ambient heavy snow (type 5, row 4: weather 5, day)',
          value: day,
          unit: 'frames/s',
          goal: 20000,
          better: 'higher',
          note: `${flakes} flakes, one scheduler frame with all five field tasks`,
        },
        {
          name: 'ambient heavy snow, per CPU second (type 5, row 4)',
          value: cpu,
          unit: 'frames/s',
          note: 'frames per second of process CPU time (user + system), 20,000 frames',
        },
        {
          name: 'ambient heavy snow + fireflies (type 5, row 5: night)',
          value: night,
          unit: 'frames/s',
          note: `${flakes} flakes and 5 FIREFLYs`,
        },
      ];
    },
  },
];
