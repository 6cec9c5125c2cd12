/** The view's link: every setting round-trips through the query string; a bad parameter is named and dropped. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatViewLink, parseViewLink, RAY_DENSITIES, LINK_SPEEDS, type ViewLink } from '../../../src/render/scene/view-link.js';

const rules = { worlds: ['piney-default', 'rugrats-demo', 'gta-town'], maxAgents: 100_000 };

const linkArb: fc.Arbitrary<ViewLink> = fc.record(
  {
    world: fc.constantFrom(...rules.worlds),
    agents: fc.integer({ min: 0, max: 100_000 }),
    streamSeed: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/),
    ccRandInit: fc.integer({ min: 0, max: 0xffffffff }),
    fieldSeed: fc.integer({ min: 0, max: 0xffffffff }),
    params: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
    at: fc.tuple(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true })).map(([a, b]) => [a + 0, b + 0] as [number, number]),
    zoom: fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    sel: fc.integer({ min: 0, max: 1 << 20 }),
    follow: fc.constant(true),
    replay: fc.stringMatching(/^[A-Za-z0-9 _.-]{1,30}$/),
    frame: fc.integer({ min: 0, max: 1e9 }),
    speed: fc.constantFrom(...LINK_SPEEDS.filter((s) => s !== 1)),
    heat: fc.constant(true),
    rays: fc.constantFrom(...RAY_DENSITIES),
    overlay: fc.constant(false),
    sight: fc.constant(false),
    legend: fc.constant(false),
    renderer: fc.constantFrom('webgl' as const, 'webgpu' as const, 'canvas' as const),
    mute: fc.constant(true),
    aa: fc.constant(true),
  },
  { requiredKeys: ['params'] },
);

describe('view link', () => {
  test('format then parse gives the same view, with no errors', () => {
    fc.assert(
      fc.property(linkArb, (l) => {
        const q = formatViewLink(l);
        const p = parseViewLink(q, rules);
        expect(p.errors).toEqual([]);
        // The camera's numbers to 10 (centre) and 8 (zoom) significant digits; everything else exactly.
        const { at, zoom, ...rest } = p.link;
        const { at: at0, zoom: zoom0, ...rest0 } = l;
        expect(rest).toEqual(rest0);
        if (at0) for (let i = 0; i < 2; i++) expect(Math.abs(at![i]! - at0[i]!)).toBeLessThanOrEqual(1e-9 * Math.abs(at0[i]!) + 1e-12);
        else expect(at).toBeUndefined();
        if (zoom0 !== undefined) expect(Math.abs(zoom! - zoom0)).toBeLessThanOrEqual(1e-7 * zoom0);
        else expect(zoom).toBeUndefined();
        // And the text is stable.
        expect(formatViewLink(p.link)).toBe(q);
      }),
    );
  });

  test('each bad parameter is named in one message and dropped; the rest are kept', () => {
    const p = parseViewLink('?world=nope&agents=-3&zoom=abc&at=1,2,3&rays=lots&speed=3&sel=x&frame=1.5&heat=maybe&seed=a%20b&bogus=1&p.ok=2&p.1bad=3&mute=1&world=gta-town', rules);
    expect(p.link.world).toBeUndefined();
    expect(p.link.mute).toBe(true);
    expect(p.link.params).toEqual({ ok: '2' });
    const names = ['world', 'agents', 'zoom', 'at', 'rays', 'speed', 'sel', 'frame', 'heat', 'seed', 'bogus', 'p.1bad'];
    for (const n of names) expect(p.errors.some((e) => e.includes(n)), n).toBe(true);
    expect(p.errors.find((e) => e.includes('world="nope"'))).toMatch(/default world/);
    expect(p.errors.some((e) => e.includes('more than once'))).toBe(true);
    expect(p.errors.length).toBe(names.length + 1);
  });

  test('an empty link is an empty view; defaults are left out of the text', () => {
    expect(parseViewLink('', rules)).toEqual({ link: { params: {} }, errors: [] });
    expect(formatViewLink({ params: {}, speed: 1, overlay: true, sight: true })).toBe('');
  });
});
