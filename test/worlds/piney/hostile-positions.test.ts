import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadPineyWorld, wrapField } from '../../../src/worlds/piney/index.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const spec = new Uint8Array(readFileSync(new URL('../../../assets/worlds/piney/default.field.json', import.meta.url)));

describe('Piney world at hostile positions (found by the fuzzer)', () => {
  const w = loadPineyWorld(spec, 'default', defaultPineyTables());

  it('blocked() at a huge coordinate returns (it used to loop forever: x + chip == x)', () => {
    expect(typeof w.blocked(1e308, -1e308, 30)).toBe('boolean');
    expect(w.blocked(1e308, -1e308, 30)).toBe(w.blocked(wrapField(1e308), wrapField(-1e308), 30));
  });

  it('a move by a huge delta and a segment to a huge point end with a defined answer', () => {
    const s = w.spawnPoint();
    const m = w.move({ radius: 30, height: 170 }, s, [1e308, -1e308, 1e308]);
    expect(m.position.every((v) => Number.isFinite(v))).toBe(true);
    const r = w.segment([1e308, -1e308, 1e308], s);
    expect(r.fraction).toBeGreaterThanOrEqual(0);
    expect(r.fraction).toBeLessThanOrEqual(1);
  });

  it('blocking is the same for a point and the same point one field away', () => {
    for (let x = 0; x < 48000; x += 997) {
      for (let y = 0; y < 48000; y += 1499) {
        expect(w.blocked(x + 48000 * 5, y - 48000 * 3, 40)).toBe(w.blocked(x, y, 40));
      }
    }
  });
});
