/** Weather in words: the game's sprite names as kinds, travellers by server, and sky items pulled into view. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { clampToView, travellerName, weatherCounts, weatherKindOfName } from '../../../src/render/scene/weather-look.js';

describe('weather look', () => {
  test('sprite and model names become kinds with human names', () => {
    const cases: [string, string, string][] = [
      ['sprite', 'EFF_sfp8rai1', 'rain'],
      ['sprite', 'EFF_sfp8rai10', 'rain'],
      ['sprite', 'EFF_sfp8rai6', 'splash'],
      ['sprite', 'EFF_sfp8thu3', 'bolt'],
      ['sprite', 'EFF_sfg8sno2', 'snow'],
      ['sprite', 'EFF_sfh8sno4', 'snow'],
      ['sprite', 'EFF_sfa8fir1', 'ember'],
      ['sprite', 'EFF_sfpfir_1', 'firefly'],
      ['sprite', 'EFF_sfpfir_2', 'firefly-trail'],
      ['sprite', 'EFF_sfzdigi0', 'glyph'],
      ['sprite', 'EFF_sflenz_3', 'lens-flare'],
      ['model', 'tobj', 'traveller'],
      ['model', 'tobj-runner-0', 'traveller'],
      ['model', 'bird', 'bird'],
      ['smoke', 'smoke', 'smoke'],
      ['hum', 'hum', 'hum'],
    ];
    for (const [kind, name, want] of cases) expect(weatherKindOfName(kind as never, name), name).toBe(want);
    const c = weatherCounts({ EFF_sfp8rai7: 30, EFF_sfp8rai8: 20, EFF_sfp8rai6: 41, tobj: 1, hum: 1 });
    expect(c).toEqual([
      { kind: 'rain', label: 'rain drops', count: 50 },
      { kind: 'splash', label: 'splashes', count: 41 },
      { kind: 'traveller', label: 'the traveller', count: 1 },
      { kind: 'hum', label: "the traveller's hum (louder, larger)", count: 1 },
    ]);
    expect(travellerName(0)).toBe("Δ's airship");
    expect(travellerName(9)).toMatch(/server 9/);
  });

  test('clampToView: a point outside lands on the inset edge, on the line from the centre; a point inside stays', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: 200, max: 2000 }), fc.integer({ min: 200, max: 2000 }), (x, y, w, h) => {
        const inset = 20;
        const r = clampToView(x, y, w, h, inset);
        const inside = Math.abs(x - w / 2) <= w / 2 - inset && Math.abs(y - h / 2) <= h / 2 - inset;
        expect(r.clamped).toBe(!inside);
        if (inside) expect([r.x, r.y]).toEqual([x, y]);
        expect(r.x).toBeGreaterThanOrEqual(inset - 1e-9);
        expect(r.x).toBeLessThanOrEqual(w - inset + 1e-9);
        expect(r.y).toBeGreaterThanOrEqual(inset - 1e-9);
        expect(r.y).toBeLessThanOrEqual(h - inset + 1e-9);
        // Same direction from the centre.
        const cross = (x - w / 2) * (r.y - h / 2) - (y - h / 2) * (r.x - w / 2);
        expect(Math.abs(cross)).toBeLessThan(1e-6 * (1 + Math.abs(x) + Math.abs(y)) * (w + h));
      }),
    );
  });
});
