/**
 * Piney field generator speed: a whole field (type 10, the shipped synthetic tables), the hills alone, and
 * GetHeight / CollisionWorld queries on the default field.
 */
import { consume, medianMs, opsPerSecond, type Bench } from './harness.js';
import { generateField } from '../src/worlds/piney/generate.js';
import { getHeight, HeightQuery } from '../src/worlds/piney/get-height.js';
import { HeightCache } from '../src/worlds/piney/height-cache.js';
import { loadPineyWorld } from '../src/worlds/piney/collision-world.js';
import { newMoveResult } from '../src/worlds/world.js';
import { defaultPineyTables } from '../src/node/assets.js';
import { eeFromNumber } from '../src/numeric/ee-float.js';

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
      const cache = new HeightCache(f.map, f.check3).prepareAll();
      const ghFast = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += cache.getHeight(xs[i & 4095]!, ys[i & 4095]!);
        consume(s);
      });
      const world = loadPineyWorld({ format: 'retrosim-piney-field', seed: 1420855, type: 10, weather: 0, ground: 1, object: 1, event: 14 }, 'bench', defaultPineyTables());
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
      const heightAt = opsPerSecond((n) => {
        let s = 0;
        for (let i = 0; i < n; i++) {
          const k = i & 4095;
          s += world.heightAt(((k * 7919) % 48000) + 0.25, ((k * 104729) % 48000) + 0.5);
        }
        consume(s);
      });
      const walkers = walkersCpuNsPerMove(world);
      return [
        { name: 'piney whole field (type 10, synthetic tables)', value: whole, unit: 'ms', goal: 15, better: 'lower', note: 'median of 31, random seeds' },
        { name: 'piney story area 14 whole field', value: story, unit: 'ms', better: 'lower' },
        { name: 'piney MakeField + hills', value: hills, unit: 'ms', better: 'lower' },
        { name: 'piney GetHeight (EE ray cast)', value: gh, unit: 'ops/s', better: 'higher' },
        { name: 'piney HeightQuery.getHeight (cached cell constants)', value: ghCached, unit: 'ops/s', better: 'higher' },
        { name: 'piney HeightCache.getHeight (fast path)', value: ghFast, unit: 'ops/s', better: 'higher' },
        { name: 'piney world.heightAt', value: heightAt, unit: 'ops/s', better: 'higher' },
        { name: 'piney world.move (radius 30)', value: mv, unit: 'moves/s', better: 'higher' },
        { name: 'piney world.move, 10k walkers (CPU time)', value: walkers, unit: 'ns/move', goal: 350, better: 'lower', note: 'the movement system\'s pattern: 2.5 units a frame, random headings, contacts emptied before each move; median of 5 × 20 frames' },
        { name: 'piney segmentFraction (~11-cell segments)', value: seg, unit: 'segments/s', better: 'higher' },
      ];
    },
  },
];

/**
 * CPU nanoseconds per move for 10,000 bodies walking the default field the way the movement system moves
 * them (2.5 units a frame on random headings, the same result object, its contacts emptied before each move).
 * CPU time, because the machine may be shared.
 */
function walkersCpuNsPerMove(world: ReturnType<typeof loadPineyWorld>): number {
  const n = 10_000;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const vx = new Float64Array(n);
  const vy = new Float64Array(n);
  let seed = 1;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296;
  for (let i = 0; i < n; i++) {
    xs[i] = next() * 48000;
    ys[i] = next() * 48000;
    // A unit heading from the circle's rational parametrisation ((1 − t², 2t) / (1 + t²)), times 2.5.
    const t = next() * 2 - 1;
    const sign = next() < 0.5 ? -1 : 1;
    vx[i] = (sign * 2.5 * (1 - t * t)) / (1 + t * t);
    vy[i] = (sign * 2.5 * 2 * t) / (1 + t * t);
  }
  const body = { radius: 30, height: 180, stepHeight: 0 };
  const from: [number, number, number] = [0, 0, 0];
  const delta: [number, number, number] = [0, 0, 0];
  const out = newMoveResult();
  let sum = 0;
  const frame = () => {
    for (let i = 0; i < n; i++) {
      from[0] = xs[i]!;
      from[1] = ys[i]!;
      delta[0] = vx[i]!;
      delta[1] = vy[i]!;
      out.contacts.length = 0;
      const r = world.move(body, from, delta, out);
      xs[i] = r.position[0];
      ys[i] = r.position[1];
      sum += r.position[2];
    }
  };
  for (let f = 0; f < 20; f++) frame();
  const samples: number[] = [];
  for (let k = 0; k < 5; k++) {
    const c0 = process.cpuUsage();
    for (let f = 0; f < 20; f++) frame();
    const c = process.cpuUsage(c0);
    samples.push(((c.user + c.system) * 1000) / (20 * n));
  }
  consume(sum);
  samples.sort((a, b) => a - b);
  return samples[2]!;
}
