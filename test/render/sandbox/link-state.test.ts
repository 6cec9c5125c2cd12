/**
 * The link's part of the page's state: the view's link carries the camera back exactly (through the world's
 * scale and the plane's sign of y), leaves the defaults out, keeps what the link gave that still holds; the
 * link's settings reach the scenario with the sandbox's agent count, and a refused parameter is named once
 * and dropped; the link's view and replay frame are taken once.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_RAYS, formatViewLink, linkBounds, parseViewLink, RAY_DENSITIES } from '../../../src/render/scene/view-link.js';
import { linkCamera, LinkState, linkScale, type ViewSnapshot } from '../../../src/render/sandbox/link-state.js';
import { autoAgents } from '../../../src/render/sandbox/world-catalog.js';
import { opener } from '../helpers.js';

const rules = { worlds: ['piney-default', 'rugrats-demo', 'gta-town'], bounds: linkBounds() };

/** A snapshot of the page as it opens with no link: every setting at its default. */
const defaults: ViewSnapshot = {
  world: 'rugrats-demo',
  agents: null,
  camera: { cx: 10, cy: 20, zoom: 1, framed: true, following: false, scale: 1, ySign: 1 },
  selectedEntity: null,
  replay: null,
  speed: 1,
  heat: false,
  rays: DEFAULT_RAYS,
  overlay: true,
  sight: true,
  legend: true,
  muted: false,
};

describe('the link of the view', () => {
  test('the defaults are left out: a fresh page links to its world only', () => {
    const link = new LinkState(parseViewLink('', rules).link);
    expect(formatViewLink(link.linkOf(defaults))).toBe('?world=rugrats-demo');
    // No lines by default: the rays' default is off, and a link of a few rays says so.
    expect(DEFAULT_RAYS).toBe('off');
    expect(formatViewLink(link.linkOf({ ...defaults, rays: 'few' }))).toBe('?world=rugrats-demo&rays=few');
    // A world from files has no catalog id: the link cannot name it.
    expect(formatViewLink(link.linkOf({ ...defaults, world: undefined }))).toBe('');
  });

  test('a moved camera comes back from its link as it was (any scale, either sign of y)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-4, max: 1e4, noNaN: true }),
        fc.constantFrom(1, 16, 4096, 0.01),
        fc.constantFrom(1, -1),
        (cx, cy, zoom, scale, ySign) => {
          const link = new LinkState(parseViewLink('', rules).link);
          const snap: ViewSnapshot = { ...defaults, camera: { cx, cy, zoom, framed: false, following: false, scale, ySign } };
          const l = link.linkOf(snap);
          // Through the address bar and back, as a reader of the link gets it.
          const back = parseViewLink(formatViewLink(l), rules);
          expect(back.errors).toEqual([]);
          const cam = linkCamera(back.link, { cx: NaN, cy: NaN, zoom: NaN }, { ySign }, scale)!;
          expect(cam.cx).toBeCloseTo(cx, 3);
          expect(cam.cy).toBeCloseTo(cy, 3);
          expect(cam.zoom / zoom).toBeCloseTo(1, 6);
        },
      ),
    );
  });

  test('a followed camera keeps its zoom and the follow, not its centre; a framed one keeps neither', () => {
    const link = new LinkState(parseViewLink('', rules).link);
    const l = link.linkOf({ ...defaults, camera: { cx: 5, cy: 6, zoom: 2, framed: false, following: true, scale: 16, ySign: -1 } });
    expect(l.at).toBeUndefined();
    expect(l.zoom).toBe(32);
    expect(l.follow).toBe(true);
    const f = link.linkOf(defaults);
    expect([f.at, f.zoom, f.follow]).toEqual([undefined, undefined, undefined]);
  });

  test('every setting the page shows reaches the link and comes back', () => {
    fc.assert(
      fc.property(
        fc.record({
          agents: fc.option(fc.integer({ min: 0, max: rules.bounds.agents.max }), { nil: null }),
          selectedEntity: fc.option(fc.integer({ min: 0, max: rules.bounds.sel.max }), { nil: null }),
          replay: fc.option(fc.record({ name: fc.option(fc.stringMatching(/^[a-z0-9_.-]{1,12}$/), { nil: null }), frame: fc.integer({ min: 0, max: rules.bounds.frame.max }) }), { nil: null }),
          speed: fc.constantFrom(0.25, 0.5, 1, 2, 4, 8),
          heat: fc.boolean(),
          rays: fc.constantFrom(...RAY_DENSITIES),
          overlay: fc.boolean(),
          sight: fc.boolean(),
          legend: fc.boolean(),
          muted: fc.boolean(),
        }),
        (part) => {
          const link = new LinkState(parseViewLink('?renderer=canvas&aa=1&seed=abc&ccinit=7', rules).link);
          const back = parseViewLink(formatViewLink(link.linkOf({ ...defaults, ...part })), rules).link;
          expect(back.agents ?? null).toBe(part.agents);
          expect(back.sel ?? null).toBe(part.selectedEntity);
          expect(back.frame ?? null).toBe(part.replay?.frame ?? null);
          expect(back.replay ?? null).toBe(part.replay?.name ?? null);
          expect(back.speed ?? 1).toBe(part.speed);
          expect(back.heat ?? false).toBe(part.heat);
          expect(back.rays ?? DEFAULT_RAYS).toBe(part.rays);
          expect([back.overlay ?? true, back.sight ?? true, back.legend ?? true, back.mute ?? false]).toEqual([part.overlay, part.sight, part.legend, part.muted]);
          // Carried from the link the page was opened with.
          expect([back.renderer, back.aa, back.streamSeed, back.ccRandInit]).toEqual(['canvas', true, 'abc', 7]);
        },
      ),
    );
  });
});

describe("the link's settings and its one-time parts", () => {
  test('scenario=navigate runs every world in the "navigate" scenario, kept when the settings are dropped and carried in the link', async () => {
    const { world } = await opener('rugrats-demo')();
    const link = new LinkState(parseViewLink('?scenario=navigate&seed=abc', rules).link);
    expect(link.settingsFor(world, () => undefined).scenario).toBe('navigate');
    expect(formatViewLink(link.linkOf(defaults))).toBe('?world=rugrats-demo&scenario=navigate&seed=abc');
    link.dropSettings();
    expect(link.settingsFor(world, () => undefined).scenario).toBe('navigate');
    expect(new LinkState(parseViewLink('', rules).link).settingsFor(world, () => undefined).scenario).toBeUndefined();
  });

  test("the scenario gets the link's settings and the sandbox's agent count; a refused parameter is named once and dropped", async () => {
    const { world } = await opener('piney-default')();
    const link = new LinkState(parseViewLink('?fieldseed=5&p.nosuch=3', rules).link);
    const lines: string[] = [];
    const first = link.settingsFor(world, (l) => lines.push(l));
    expect(first.agents).toBe(autoAgents(world));
    expect(first.fieldSeed).toBe(5);
    expect(first.params).toEqual({});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^bad link parameter p\.nosuch: .*; ignored$/);
    // Dropped for good: the next world opened is not told again, and the link no longer carries it.
    link.agents = 30;
    const second = link.settingsFor(world, (l) => lines.push(l));
    expect(second.agents).toBe(30);
    expect(second.params).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(link.linkOf(defaults).params).toEqual({});
    expect(link.dropSettings()).toBe(true);
    expect(link.settingsFor(world, (l) => lines.push(l)).fieldSeed).toBeUndefined();
    expect(link.dropSettings()).toBe(false);
  });

  test("the link's view is taken once; its frame waits for the replay it names", () => {
    const link = new LinkState(parseViewLink('?zoom=2&replay=a.rsr&frame=40', rules).link);
    expect(link.takeView()?.zoom).toBe(2);
    expect(link.takeView()).toBeNull();
    expect(link.waitingFrame).toEqual({ replay: 'a.rsr', frame: 40 });
    expect(link.takeFrame('b.rsr')).toBeNull();
    expect(link.takeFrame('a.rsr')).toBe(40);
    expect(link.takeFrame('a.rsr')).toBeNull();
    expect(link.waitingFrame).toBeNull();
    // A frame without a replay's name is the live run's frame (the page fast-forwards there), not a replay's.
    const live = new LinkState(parseViewLink('?frame=7&hash=0x00000000000000ff', rules).link);
    expect(live.takeFrame('any.rsr')).toBeNull();
    expect(live.takeMoment()).toEqual({ frame: 7, hash: '0x00000000000000ff', keys: false });
    expect(live.takeMoment()).toBeNull();
  });

  test('linkCamera keeps what the link leaves out; a world without a scale counts as 1', () => {
    expect(linkCamera({}, { cx: 1, cy: 2, zoom: 3 }, { ySign: -1 }, 4)).toBeNull();
    expect(linkCamera({ zoom: 8 }, { cx: 1, cy: 2, zoom: 3 }, { ySign: -1 }, 4)).toEqual({ cx: 1, cy: 2, zoom: 2 });
    expect(linkCamera({ at: [5, 6] }, { cx: 1, cy: 2, zoom: 3 }, { ySign: -1 }, 4)).toEqual({ cx: 5, cy: -6, zoom: 3 });
    expect([linkScale({ scale: 16 }), linkScale({ scale: 0 }), linkScale({ scale: NaN }), linkScale({ scale: Infinity })]).toEqual([16, 1, 1, 1]);
  });
});
