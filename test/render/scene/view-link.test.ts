/** The view's link: every setting round-trips through the query string; a bad parameter is named and dropped. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatViewLink, linkBounds, parseViewLink, RAY_DENSITIES, LINK_SPEEDS, type ViewLink } from '../../../src/render/scene/view-link.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { checkReplaySettings } from '../../../src/replay/rebuild.js';
import type { ReplayHeader } from '../../../src/replay/format.js';
import { defaultSettingsFor } from '../../../src/scenarios/builtin.js';
import { checkSettings, type ScenarioSettings } from '../../../src/sim/scenario.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

const bounds = linkBounds();
const rules = { worlds: ['piney-default', 'rugrats-demo', 'gta-town'], bounds };

const linkArb: fc.Arbitrary<ViewLink> = fc.record(
  {
    world: fc.constantFrom(...rules.worlds),
    agents: fc.integer({ min: 0, max: bounds.agents.max }),
    scenario: fc.constant('navigate' as const),
    streamSeed: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/),
    ccRandInit: fc.integer({ min: 0, max: bounds.ccRandInit.max }),
    fieldSeed: fc.integer({ min: 0, max: bounds.fieldSeed.max }),
    params: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
    at: fc.tuple(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true })).map(([a, b]) => [a + 0, b + 0] as [number, number]),
    zoom: fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    sel: fc.integer({ min: 0, max: bounds.sel.max }),
    follow: fc.constant(true),
    replay: fc.stringMatching(/^[A-Za-z0-9 _.-]{1,30}$/),
    frame: fc.integer({ min: 0, max: bounds.frame.max }),
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
    // The one scenario a link chooses is "navigate"; any other is named and each world runs its own.
    expect(parseViewLink('?scenario=navigate', rules)).toEqual({ link: { params: {}, scenario: 'navigate' }, errors: [] });
    expect(parseViewLink('?scenario=piney-field', rules)).toEqual({ link: { params: {} }, errors: ['bad link parameter scenario="piney-field": expected navigate; each world runs its own scenario'] });
    expect(formatViewLink({ params: {}, speed: 1, overlay: true, sight: true })).toBe('');
  });
});

/**
 * Whether the sandbox takes these settings: the simulation it builds (the world's defaults with the
 * settings on top, checked as `new Simulation` checks them) and a re-simulation of a replay recorded on it
 * (the page plays its own recordings back). Returns the refusal, or null.
 */
function sandboxRefuses(over: Partial<ScenarioSettings>): string | null {
  try {
    // Any non-Piney world gives the same defaults; the world object only names its kind here.
    const settings = checkSettings(defaultSettingsFor({ kind: 'rugrats' } as never, over));
    checkReplaySettings({ settings } as ReplayHeader);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whole numbers around every bound the link or the simulation has, and far beyond. */
const wholeArb = fc.oneof(
  fc.integer({ min: 0, max: 20_000 }),
  fc.constantFrom(...[bounds.agents.max, bounds.ccRandInit.max, bounds.fieldSeed.max, 100_000, 100_000_000, 4_294_967_296].flatMap((n) => [n - 1, n, n + 1])),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }),
);

describe('the link takes exactly what the simulation takes', () => {
  const fields = [
    ['agents', 'agents'],
    ['ccinit', 'ccRandInit'],
    ['fieldseed', 'fieldSeed'],
  ] as const;

  test.each(fields)('%s: accepted by the link if and only if the sandbox\'s simulation (and a replay of it) accepts it', (param, setting) => {
    fc.assert(
      fc.property(wholeArb, (n) => {
        const p = parseViewLink(`?${param}=${String(n)}`, rules);
        const linkTakes = p.errors.length === 0;
        const refusal = typeof n === 'number' ? sandboxRefuses({ [setting]: n }) : 'beyond any safe integer';
        expect(linkTakes, `${param}=${String(n)}: ${refusal ?? 'the simulation takes it'}`).toBe(refusal === null);
        if (linkTakes) expect(p.link[setting]).toBe(Number(n));
        else if (setting === 'agents' && BigInt(n) > BigInt(bounds.agents.max)) {
          // Too many agents: the most the page holds, which the simulation takes, said in the banner.
          expect(p.link.agents).toBe(bounds.agents.max);
          expect(sandboxRefuses({ agents: bounds.agents.max })).toBeNull();
          expect(p.errors[0]).toContain(`${param}="${String(n)}"`);
          expect(p.errors[0]).toContain(`the most the page holds, ${bounds.agents.max}, is used`);
        } else {
          expect(p.link[setting]).toBeUndefined();
          // The banner names the value and the highest one taken.
          expect(p.errors[0]).toContain(`${param}="${String(n)}"`);
          expect(p.errors[0]).toContain(`from 0 to ${bounds[setting].max}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('the issue\'s links: agents=100000 falls back to the most the page holds and ccinit=4294967295 is refused up front, naming the value and the limit', () => {
    const p = parseViewLink('?agents=100000&ccinit=4294967295&world=gta-town', rules);
    expect(p.link).toEqual({ world: 'gta-town', agents: 4094, params: {} });
    expect(p.errors).toHaveLength(2);
    expect(p.errors[0]).toMatch(/^bad link parameter agents="100000": expected a whole number from 0 to 4094 \(the sandbox's entity capacity of 4096[^)]*\); the most the page holds, 4094, is used$/);
    expect(p.errors[1]).toMatch(/^bad link parameter ccinit="4294967295": expected a whole number from 0 to 1000000 \(limits\.replay\.ccRandInit\); the default is used$/);
    // The simulation does refuse both, so the link must (and takes the maximum).
    expect(sandboxRefuses({ agents: 100_000 })).toMatch(/agents/);
    expect(sandboxRefuses({ agents: 4094 })).toBeNull();
    expect(parseViewLink('?agents=10000', rules).link.agents).toBe(4094);
    expect(sandboxRefuses({ ccRandInit: 4_294_967_295 })).toMatch(/ccRandInit/);
  });

  test('any seed the link takes, the simulation takes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.stringMatching(/^[A-Za-z0-9_.:-]{1,300}$/)), (seed) => {
        const p = parseViewLink(`?seed=${encodeURIComponent(seed)}`, rules);
        if (p.errors.length === 0) expect(sandboxRefuses({ streamSeed: p.link.streamSeed! })).toBeNull();
      }),
    );
  });

  test('a selection and a replay frame beyond what the page can hold are refused with their limits', () => {
    const p = parseViewLink(`?sel=${bounds.sel.max + 1}&frame=${bounds.frame.max + 1}`, rules);
    expect(p.link.sel).toBeUndefined();
    expect(p.link.frame).toBeUndefined();
    expect(p.errors[0]).toContain(`from 0 to 4095 (the sandbox's entity capacity of 4096)`);
    expect(p.errors[1]).toContain(`from 0 to ${bounds.frame.max} (limits.replay.frames)`);
    expect(parseViewLink(`?sel=${bounds.sel.max}&frame=${bounds.frame.max}`, rules).errors).toEqual([]);
  });

  test('a real session at every bound the link takes opens, records, and plays its recording back', async () => {
    const at = { agents: bounds.agents.max, ccRandInit: bounds.ccRandInit.max, fieldSeed: bounds.fieldSeed.max };
    const link = parseViewLink(`?agents=${at.agents}&ccinit=${at.ccRandInit}&fieldseed=${at.fieldSeed}`, rules);
    expect(link.errors).toEqual([]);
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: link.link.agents!, ccRandInit: link.link.ccRandInit!, fieldSeed: link.link.fieldSeed! });
    expect(s.settings).toMatchObject(at);
    await s.restart(true);
    for (let f = 0; f < 3; f++) s.stepLive(Buttons.Up);
    const bytes = s.finishRecording();
    const rp = await s.loadReplay(bytes);
    expect(rp.header.settings).toMatchObject(at);
    expect(s.stepReplay()!.matches).toBe(true);
    // One more than the link takes: refused when the session is built or when its recording is played back.
    for (const over of [{ agents: at.agents + 1 }, { ccRandInit: at.ccRandInit + 1 }]) {
      const refused = await (async () => {
        const t = await SandboxSession.create(opener('rugrats-demo'), over);
        await t.restart(true);
        t.stepLive(0);
        await t.loadReplay(t.finishRecording());
      })().then(() => null, (e: Error) => e.message);
      expect(refused, JSON.stringify(over)).not.toBeNull();
    }
  }, 120_000);
});
