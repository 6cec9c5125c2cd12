import { expect, test } from 'vitest';
import { decodeAmbient } from '../../../src/render/scene/ambient-ops.js';
import { OpList, nameId } from '../../../src/systems/piney-ambient/ops.js';
import { eeFromNumber } from '../../../src/numeric/ee-float.js';

const F = (x: number): number => eeFromNumber(x);

test('operations decode to items at their positions, with the flash, the hum and the sounds', () => {
  const ops = new OpList(4);
  ops.sprite(3, nameId('eff'), nameId('EFF_sfp8rai6'), F(1200.5), F(-300), F(40), F(1), 0, F(2), F(3), F(0.5), false, true);
  ops.smoke([F(10), F(20), F(30), F(1)], [0, 0, 0, 0], F(64), 30, 0, F(1), F(1));
  ops.sound(236);
  ops.sound3d(43, [F(5), F(6), F(7), F(1)]);
  ops.hum([F(100), F(200), F(0), F(1)], F(0.25));
  ops.flash(4, 0x80ffffff, 0, 0, F(640), F(448));
  const a = decodeAmbient(ops.words, ops.length);
  expect(a.items.map((i) => i.kind)).toEqual(['sprite', 'smoke', 'sound3d', 'hum']);
  const s = a.items[0]!;
  expect([s.name, s.x, s.y, s.z, s.size, s.alpha]).toEqual(['EFF_sfp8rai6', 1200.5, -300, 40, 3, 0.5]);
  expect(a.items[1]).toMatchObject({ x: 10, y: 20, z: 30, size: 64 });
  expect(a.items[2]).toMatchObject({ name: 'se43', x: 5, y: 6, z: 7 });
  expect(a.items[3]).toMatchObject({ x: 100, y: 200, alpha: 0.25 });
  expect(a.sounds).toEqual([236, 43]);
  expect(a.flash).toBe(1);
  expect(a.counts).toEqual({ EFF_sfp8rai6: 1, smoke: 1, hum: 1 });
});

test('an empty list has nothing, and a list decodes only up to its length', () => {
  const ops = new OpList(2);
  ops.sound(1);
  expect(decodeAmbient(ops.words, 0)).toEqual({ items: [], flash: 0, mask: 0, sounds: [], counts: {} });
  expect(decodeAmbient(ops.words, 1).sounds).toEqual([1]);
});
