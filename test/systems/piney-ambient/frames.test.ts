import { describe, expect, it } from 'vitest';
import { field } from './harness.js';
import { initDraws, getWeather, getTime } from '../../../src/systems/piney-ambient/weather.js';
import { OP_SMOKE, OP_SPRITE, type OpList } from '../../../src/systems/piney-ambient/ops.js';
import { FIRE_SMOKE_T } from '../../../src/systems/piney-ambient/fires.js';
import { k, value, ONE, type V4 } from '../../../src/systems/piney-ambient/ee-vec.js';
import { pineySite } from '../../../src/systems/piney-ambient/site.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

function smokeCount(ops: OpList, t: number): number {
  let n = 0;
  for (let i = 0; i < ops.length; i++) if (ops.kind(i) === OP_SMOKE && ops.toJSON(i).op === 'smoke' && (ops.toJSON(i) as { t: number }).t === t) n++;
  return n;
}

function layerSprites(ops: OpList, layer: number): number {
  let n = 0;
  for (let i = 0; i < ops.length; i++) {
    if (ops.kind(i) !== OP_SPRITE) continue;
    const o = ops.toJSON(i);
    if (o.op === 'sprite' && o.layer === layer) n++;
  }
  return n;
}

/** Fires about the start, so some are within 6,500 of the eye while the walk is near. */
function firesAbout(start: V4): V4[] {
  const x = value(start[0]);
  const y = value(start[1]);
  return [[300, 0], [-2000, 1500], [4000, -3000], [9000, 9000]].map(([dx, dy]) => [k(x + dx!), k(y + dy!), 0, ONE] as V4);
}

const FRAMES = 1000;

describe('1,000 frames of every field type and background row, hacked and not', () => {
  for (let type = 0; type <= 10; type++) {
    it(`type ${type}`, () => {
      for (let row = 0; row <= 9; row++) {
        for (const hacked of [false, true]) {
          const seed = (0x9e3779b9 * (type * 20 + row * 2 + (hacked ? 1 : 0) + 1)) >>> 0;
          const entryDraws = row % 3 === 0 ? [16, 10, 10, 100] : [];
          const site = pineySite({ seed, type, row, ground: row % 3, object: type % 3 }, defaultPineyTables());
          const fires = type === 7 ? firesAbout(site.start) : [];
          const f = field({ seed, type, row, hacked, server: (type + row) % 6, entryDraws, fires, site });
          const { s, rng, inst } = f;
          const tag = `type ${type} row ${row} hacked ${hacked}`;
          expect(inst.afterInit, tag).toBe(initDraws(type, row));
          expect(rng.fieldrand.count, tag).toBe(inst.afterGenerate);
          // Generate's tail: the TOBJ gate 1 (+4), rain 100, FIREFLY 13 each, FIREFLY2 11 each.
          const server = (type + row) % 6;
          const st = inst.state;
          const tail = (server <= 4 ? 1 : 0) + (st.tobj ? 4 : 0) + (st.rain ? 100 : 0) + 13 * st.fireflies.length + 11 * st.roamers.length;
          expect(inst.afterGenerate - site.rngAfterLayout.count, tag).toBe(tail);
          expect(st.fireflies.length, tag).toBe((getTime(type, row) === 2 || hacked) && type !== 9 ? 5 : 0);
          expect(st.roamers.length, tag).toBe(type === 9 ? 15 : 0);
          expect(st.rain !== null, tag).toBe([2, 3].includes(getWeather(type, row)));
          expect(rng.ccrand.draws, tag).toBe(0);
          const weather = getWeather(type, row);
          let prevField = rng.fieldrand.count;
          let prevCc = 0;
          for (let frame = 1; frame <= FRAMES; frame++) {
            s.step();
            const out = inst.runtime.frameOutput(s.frame);
            expect(out.fresh).toBe(true);
            const df = rng.fieldrand.count - prevField;
            const dc = rng.ccrand.draws - prevCc;
            prevField = rng.fieldrand.count;
            prevCc = rng.ccrand.draws;
            if (frame === 1) {
              // Play(0): only the entry task's draws; the display task breathes.
              expect(df, tag).toBe(entryDraws.length);
              expect(dc, tag).toBe(0);
              expect(out.ops.length, tag).toBe(0);
            } else if (frame === 2) {
              // Play(1): nothing drawn.
              expect(df, tag).toBe(0);
              expect(dc, tag).toBe(0);
              expect(out.ops.length, tag).toBe(0);
            } else if (frame === 3 && (weather === 4 || weather === 5)) {
              // The first WORLD::Draw: ten settling passes of every flake on layer 0.
              expect(layerSprites(out.ops, 0), tag).toBe(10 * (inst.state.snow?.count ?? -1));
            }
            // ccRand is drawn only by type 7's fires: three words for each puff.
            expect(dc, tag).toBe(3 * smokeCount(out.ops, FIRE_SMOKE_T));
            if (frame >= 3 && (weather === 2 || weather === 3)) {
              // Every drop is placed again every frame: 100 draws at least.
              expect(df, tag).toBeGreaterThanOrEqual(100);
            }
            if (frame >= 3 && weather !== 2 && weather !== 3 && type !== 0 && type !== 7 && ![2, 3, 5, 6].includes(type) && getTime(type, row) !== 2 && !hacked && type !== 9) {
              // Nothing here draws except TOBJ's respawns (5 or 7 draws).
              expect([0, 5, 7]).toContain(df);
            }
          }
          if (type === 7) expect(rng.ccrand.draws, tag).toBeGreaterThan(0);
          else expect(rng.ccrand.draws, tag).toBe(0);
        }
      }
    });
  }
});
