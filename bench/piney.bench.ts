/**
 * Piney field generator speed: a whole field (type 10, the shipped synthetic tables), the hills alone, and
 * GetHeight / CollisionWorld queries on the default field.
 */
import { consume, medianMs, opsPerSecond, type Bench } from './harness.js';
import { generateField } from '../src/worlds/piney/generate.js';
import { getHeight, HeightQuery } from '../src/worlds/piney/get-height.js';
import { loadPineyWorld } from '../src/worlds/piney/collision-world.js';
import { defaultPineyTables } from '../src/worlds/piney/tables.js';
import { eeFromNumber } from '../src/worlds/numeric/ee-float.js';

const TYPE10 = { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 0, protect: false };

export const benches: Bench[] = [
  {
    name: 'piney field',
    run() {
      const tables = defaultPineyTables();
      let seed = 1;
      const whole = medianMs(() => consume(generateField({ ...TYPE10, seed: seed++ }, tables).rng.count), 31);
      const story = medianMs(() => consume(generateField({ ...TYPE10, event: 14 }, tables).rng.count), 31);
      const hills = medianMs(() => consume(generateField({ ...TYPE10, seed: seed++ }, tables, 'hills').rng.count), 31);
      const f = generateField({ ...TYPE10, event: 14 }, tables);
      const xs = new Uint32Array(4096);
      const ys = new Uint32Array(4096);
      for (let i = 0; i < xs.length; i++) {
        xs[i] = eeFromNumber(((i * 7919) % 48000) + 0.25);
        ys[i] = eeFromNumber(((i * 104729) % 48000) + 0.5);
      }
      const gh = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += getHeight(f.map, f.check3, xs[i & 4095]!, ys[i & 4095]!);
        consume(s);
      });
      const hq = new HeightQuery(f.map, f.check3);
      const ghCached = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += hq.getHeight(xs[i & 4095]!, ys[i & 4095]!);
        consume(s);
      });
      const world = loadPineyWorld({ format: 'retrosim-piney-field', seed: 1420855, type: 10, weather: 0, ground: 1, object: 1, event: 14 }, 'bench');
      const seg = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) {
          const k = i & 4095;
          const x = (k * 7919) % 48000;
          const y = (k * 104729) % 48000;
          s += world.segmentFraction(x, y, 300, x + 6000, y + 3000, 50);
        }
        consume(s * 1000);
      });
      const body = { radius: 30, height: 180 };
      const out = { position: [0, 0, 0] as [number, number, number], grounded: false, contacts: [] };
      const from: [number, number, number] = [0, 0, 0];
      const delta: [number, number, number] = [3, 2, 0];
      const mv = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) {
          const k = i & 4095;
          from[0] = (k * 7919) % 48000;
          from[1] = (k * 104729) % 48000;
          s += world.move(body, from, delta, out).position[2];
        }
        consume(s);
      });
      return [
        { name: 'piney whole field (type 10, synthetic tables)', value: whole, unit: 'ms', goal: 15, better: 'lower', note: 'median of 31, random seeds' },
        { name: 'piney story area 14 whole field', value: story, unit: 'ms', better: 'lower' },
        { name: 'piney MakeField + hills', value: hills, unit: 'ms', better: 'lower' },
        { name: 'piney GetHeight (EE ray cast)', value: gh, unit: 'ops/s', better: 'higher' },
        { name: 'piney HeightQuery.getHeight (cached cell constants)', value: ghCached, unit: 'ops/s', better: 'higher' },
        { name: 'piney world.move (radius 30)', value: mv, unit: 'moves/s', better: 'higher' },
        { name: 'piney segmentFraction (~11-cell segments)', value: seg, unit: 'segments/s', better: 'higher' },
      ];
    },
  },
];
