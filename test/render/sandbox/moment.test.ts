/**
 * Links that restore the moment, a COL without its placements, and the inspector's plain words, in Node: the
 * link's frame, hash, keys flag and file name round-trip; the view's link carries the live frame and hash (and
 * says when keys steered it); a file's link waits for that file; fast-forwarding reaches the frame with the
 * hash of a run stepped directly, in slices; what the page says of the hash it reaches; a GTA COL of several
 * models opened without placements is told apart, and adding the placements places the models; every world
 * kind's inspector answers lead with plain words (metres, materials by name, who sees whom).
 */
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { defaultPineyTables } from '../../../src/node/assets.js';
import { describeAt, describeEntity, probeAt } from '../../../src/render/scene/inspect.js';
import { entityPlain, gtaSurfaceName, hoverPlain, metresText, metresUp } from '../../../src/render/scene/plain-words.js';
import { mapPlaneOf, mapRectOf } from '../../../src/render/scene/projection.js';
import { formatViewLink, linkBounds, parseViewLink, type ViewLink } from '../../../src/render/scene/view-link.js';
import { fastForward, fileWaitText, momentOutcome, SLICE_MS } from '../../../src/render/sandbox/link-moment.js';
import { LinkState, type ViewSnapshot } from '../../../src/render/sandbox/link-state.js';
import { placementsMissing, placementsMissingText } from '../../../src/render/sandbox/placements-offer.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { ShownWorld } from '../../../src/render/sandbox/shown-world.js';
import { openWorldBytes } from '../../../src/render/sandbox/world-catalog.js';
import type { WorldSource } from '../../../src/render/sandbox/world-sources.js';
import { Buttons } from '../../../src/systems/input.js';
import type { GtaWorld } from '../../../src/worlds/gta/collision-world.js';
import { opener, read } from '../helpers.js';

const bounds = linkBounds();
const rules = { worlds: ['piney-default', 'gta-town'], bounds };
const snapshot: ViewSnapshot = {
  world: 'piney-default',
  agents: null,
  camera: null,
  selectedEntity: null,
  replay: null,
  speed: 1,
  heat: false,
  rays: 'off',
  overlay: true,
  sight: true,
  legend: true,
  muted: false,
};
const hex16 = fc.stringMatching(/^[0-9a-f]{16}$/).map((h) => `0x${h}`);
const fileName = fc.stringMatching(/^[A-Za-z0-9 ._()-]{1,40}$/);

describe('the link carries the moment', () => {
  test('frame, hash, keys and file round-trip through the query string', () => {
    fc.assert(
      fc.property(
        fc.record({ frame: fc.integer({ min: 0, max: bounds.frame.max }), hash: hex16, keys: fc.boolean(), file: fc.option(fileName, { nil: undefined }), replay: fc.option(fileName, { nil: undefined }) }),
        (r) => {
          const l: ViewLink = { params: {}, frame: r.frame, hash: r.hash, ...(r.keys ? { keys: true } : {}), ...(r.file !== undefined ? { file: r.file } : {}), ...(r.replay !== undefined ? { replay: r.replay } : {}) };
          const back = parseViewLink(formatViewLink(l), rules);
          expect(back.errors).toEqual([]);
          expect(back.link).toEqual(l);
        },
      ),
    );
  });

  test('a bad frame, hash or file is named and dropped', () => {
    const p = parseViewLink(`?frame=${bounds.frame.max + 1}&hash=0xABC&file=a/b.col&keys=2`, rules);
    expect(p.link).toEqual({ params: {} });
    expect(p.errors).toHaveLength(4);
    expect(p.errors[0]).toContain(`from 0 to ${bounds.frame.max} (limits.replay.frames)`);
    expect(p.errors[1]).toContain('bad link parameter hash="0xABC"');
    expect(p.errors[2]).toContain('bad link parameter file="a/b.col"');
  });

  test("a live view's link carries its frame and hash, and says when keys steered it; frame 0 needs neither", () => {
    const ls = new LinkState({ params: {} });
    const h = '0x0123456789abcdef';
    expect(formatViewLink(ls.linkOf({ ...snapshot, live: { frame: 0, hash: h, steered: false } }))).toBe('?world=piney-default');
    expect(formatViewLink(ls.linkOf({ ...snapshot, live: { frame: 120, hash: h, steered: false } }))).toBe(`?world=piney-default&frame=120&hash=${h}`);
    expect(formatViewLink(ls.linkOf({ ...snapshot, live: { frame: 120, hash: h, steered: true } }))).toBe(`?world=piney-default&frame=120&hash=${h}&keys=1`);
    // A world from a file: the link names the file.
    expect(formatViewLink(ls.linkOf({ ...snapshot, world: undefined, file: 'town.col', live: { frame: 9, hash: h, steered: false } }))).toBe(`?file=town.col&frame=9&hash=${h}`);
  });

  test("a file's link keeps its view and frame for that file: catalog worlds and other files do not take them", () => {
    const ls = new LinkState(parseViewLink('?file=town.col&zoom=3&frame=50&hash=0x00000000000000aa', rules).link);
    expect(ls.file).toBe('town.col');
    expect(ls.takeView(null)).toBeNull();
    expect(ls.takeMoment(null)).toBeNull();
    expect(ls.takeView('other.col')).toBeNull();
    expect(ls.waitingMoment).toEqual({ frame: 50, hash: '0x00000000000000aa', keys: false });
    expect(fileWaitText('town.col', ls.waitingMoment)).toBe('This view was of your file town.col: drop it here to open it at frame 50.');
    expect(ls.takeView('town.col')?.zoom).toBe(3);
    expect(ls.takeMoment('town.col')).toEqual({ frame: 50, hash: '0x00000000000000aa', keys: false });
    expect(ls.takeMoment('town.col')).toBeNull();
  });
});

describe('fast-forwarding to the link frame', () => {
  test('reaches the frame with the hash of a run stepped directly, in slices that report progress', async () => {
    const direct = await SandboxSession.create(opener('colbin-demo'), { agents: 12 });
    for (let i = 0; i < 90; i++) direct.stepLive(0);
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 12 });
    // A clock that moves a slice's length each reading: one step per slice, so progress is reported.
    let t = 0;
    const progress: [number, number][] = [];
    let pauses = 0;
    const reached = await fastForward(s, 90, { now: () => (t += SLICE_MS), pause: async () => void pauses++, progress: (d, n) => progress.push([d, n]), stopped: () => false });
    expect(reached).toBe(90);
    expect(s.hash).toBe(direct.hash);
    expect(s.steered).toBe(false);
    expect(pauses).toBe(89);
    expect(progress[0]).toEqual([1, 90]);
    expect(progress.at(-1)).toEqual([89, 90]);
    // Stopped (another world opened): it ends where it stands.
    const s2 = await SandboxSession.create(opener('colbin-demo'), { agents: 12 });
    let n = 0;
    expect(await fastForward(s2, 90, { now: () => (t += SLICE_MS), pause: async () => undefined, progress: () => undefined, stopped: () => ++n > 5 })).toBe(5);
  });

  test('what the page says of the hash it reaches: the link is never shown as matching when it does not', () => {
    const h = '0x1111111111111111';
    const o = '0x2222222222222222';
    expect(momentOutcome({ frame: 40, hash: h, keys: false }, 40, h)).toMatchObject({ matches: true, isError: false });
    expect(momentOutcome({ frame: 40, hash: h, keys: false }, 40, h).note).toContain(`hash ${h} is the link's`);
    const steered = momentOutcome({ frame: 40, hash: h, keys: true }, 40, o);
    expect(steered).toMatchObject({ matches: false, isError: false, hash: o, linkHash: h });
    expect(steered.note).toContain('steered with the keys');
    expect(steered.note).toContain(`hash ${o} here, ${h} in the view copied`);
    const wrong = momentOutcome({ frame: 40, hash: h, keys: false }, 40, o);
    expect(wrong).toMatchObject({ matches: false, isError: true });
    expect(momentOutcome({ frame: 40, hash: undefined, keys: false }, 40, o).matches).toBeNull();
    expect(momentOutcome({ frame: 40, hash: h, keys: false }, 12, h).matches).toBeNull();
  });

  test('a session knows when keys steered it: a key held, or a replay with inputs left for live', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    s.stepLive(0);
    expect(s.steered).toBe(false);
    await s.restart(true);
    s.stepLive(Buttons.Up);
    s.stepLive(0);
    expect(s.steered).toBe(true);
    const bytes = s.finishRecording();
    await s.restart(false);
    expect(s.steered).toBe(false);
    await s.loadReplay(bytes);
    s.seek(0);
    s.goLive();
    expect(s.steered).toBe(false);
    await s.loadReplay(bytes);
    s.seek(2);
    s.goLive();
    expect(s.steered).toBe(true);
  });
});

describe('a GTA COL without its placements', () => {
  test('several models without placements is told apart; with them, or in another kind of world, it is not', async () => {
    const col = read('assets/worlds/gta/town.col');
    const pl = read('assets/worlds/gta/town.placements.json');
    const bare = (await openWorldBytes(col, 'town.col', 'file:town.col')).world;
    const placed = (await openWorldBytes(col, 'town.col', 'file:town.col', { placements: pl })).world;
    expect((bare as GtaWorld).scene.models.length).toBeGreaterThan(1);
    expect(placementsMissing(bare, false)).toBe(true);
    expect(placementsMissing(placed, true)).toBe(false);
    expect(placementsMissing((await opener('colbin-demo')()).world, false)).toBe(false);
    expect(placementsMissingText('town.col', 4)).toContain('Add town.placements.json');
  });

  test('the COL alone opens with the offer; its placements dropped after it place the models; placements alone with no COL are refused', async () => {
    const told = { missing: [] as boolean[], errors: [] as string[] };
    const shown: ShownWorld = new ShownWorld(async (p) => read(`assets/${p}`), {
      settingsFor: () => ({ agents: 5 }),
      install: () => undefined,
      showWorld: (_src: WorldSource | null) => undefined,
      replayLoaded: () => undefined,
      setError: (m) => told.errors.push(m),
      placementsMissing: (m) => told.missing.push(m),
    });
    shown.tables = defaultPineyTables();
    const file = (path: string) => new File([read(path) as BlobPart], basename(path));
    await shown.openCatalog('piney-default');
    await shown.openFiles([file('assets/worlds/gta/town.placements.json')]);
    expect(told.errors.filter(Boolean).at(-1)).toMatch(/^cannot use town\.placements\.json: placements go with a GTA \.col file/);
    await shown.openFiles([file('assets/worlds/gta/town.col')]);
    expect(told.missing.at(-1)).toBe(true);
    const scene = (shown.session!.opened.world as GtaWorld).scene;
    const spread = (sc: typeof scene) => new Set(Array.from({ length: sc.instModel.length }, (_, i) => `${sc.instPos[i * 3]},${sc.instPos[i * 3 + 1]}`)).size;
    expect(spread(scene)).toBe(1);
    await shown.openFiles([file('assets/worlds/gta/town.placements.json')]);
    expect(told.missing.at(-1)).toBe(false);
    const placed = (shown.session!.opened.world as GtaWorld).scene;
    expect(spread(placed)).toBeGreaterThan(1);
    // The same world as the COL and its placements dropped together.
    const both = (await openWorldBytes(read('assets/worlds/gta/town.col'), 'town.col', 'file:town.col', { placements: read('assets/worlds/gta/town.placements.json') })).identity;
    expect(shown.session!.opened.identity).toEqual(both);
  });
});

describe('the inspector in plain words', () => {
  test('metres along up, whatever the axis and sign', () => {
    expect(metresUp({ up: { axis: 1, sign: -1 }, scale: 1024 }, -2048)).toBe(2);
    expect(metresUp({ up: { axis: 2, sign: 1 }, scale: 100 }, 250)).toBe(2.5);
    expect(metresText(2)).toBe('2 m');
    expect(metresText(-1.234)).toBe('−1.23 m');
    expect(gtaSurfaceName(1)).toBe('tarmac');
    expect(gtaSurfaceName(250)).toBe('surface 250');
  });

  test.each([
    ['piney-default', /^(Field ground|A hill|Open ground|A \w+ on the field).* m/],
    ['rugrats-demo', /(floor tile of the level at -?[\d.−]+ m|Outside the level|A gap)/],
    ['llama-demo', /(Track floor at [\d.−]+ m|No floor here|Outside the track)/],
    ['colbin-demo', /(Floor of the yard at [\d.−]+ m|No floor here)/],
    ['gta-town', /( of the model .+, at [\d.−]+ m|Nothing to stand on)/],
  ] as const)('%s: tiles and hover lead with plain words, heights in metres, no format ids', async (id, tileWords) => {
    const { world } = await opener(id)();
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    let floors = 0;
    for (const [u, v] of [[0.5, 0.5], [0.3, 0.6], [0.7, 0.4], [0.55, 0.55], [0.45, 0.35]] as const) {
      const mx = r.x + r.width * u;
      const my = r.y + r.height * v;
      const t = describeAt(world, mx, my);
      expect(t.plain).toMatch(tileWords);
      const p = probeAt(world, mx, my, plane);
      const words = hoverPlain(world, p);
      if (p.ground.hasFloor) {
        floors++;
        expect(words).toContain(metresText(metresUp(world, p.ground.floor!)));
        if (p.materialName && id === 'llama-demo') expect(words).toContain(p.materialName);
      }
      // The format's detail is not in the plain line.
      for (const w of [t.plain, words]) expect(w).not.toMatch(/status|file offset|× 80|\bid \d/);
    }
    expect(floors).toBeGreaterThan(0);
  });

  test('an entity: who it is, what it does, who it sees', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 6 });
    const e = describeEntity(s.sim, 3, null)!;
    const words = entityPlain({ ...e, behaviour: 'wander' }, s.sim.player, { sees: [s.sim.player, 4], blocked: [5] });
    expect(words).toMatch(/^Agent 3, wandering\. Sees the player and agent 4\. 1 more in range is hidden behind walls\./);
    expect(entityPlain(describeEntity(s.sim, s.sim.player, null)!, s.sim.player, null)).toMatch(/^The player\./);
  });
});
