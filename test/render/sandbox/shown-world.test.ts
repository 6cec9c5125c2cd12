/**
 * The world the page shows, opened in Node as the page opens it: a catalog world from the public folder is the
 * world Node opens (same source and content), a variant field offers its spec; files become the same worlds
 * (a TRAK with its MAP, a COL with its placements); a file over the limit or a file no parser takes is one
 * line in the banner and leaves the page as it was; a replay opens on its own catalog world, and a replay of a
 * world from files asks for that world first.
 */
import { basename } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/limits.js';
import { defaultPineyTables } from '../../../src/node/assets.js';
import { tooBigMessage } from '../../../src/render/sandbox/file-plan.js';
import type { SandboxSession } from '../../../src/render/sandbox/session.js';
import { ShownWorld } from '../../../src/render/sandbox/shown-world.js';
import type { WorldSource } from '../../../src/render/sandbox/world-sources.js';
import { opener, read } from '../helpers.js';

/** A ShownWorld over assets/ (the page's public folder), with a host that notes what it is told. */
function page() {
  const told = { installed: 0, errors: [] as string[], menu: [] as (string | undefined)[], replays: [] as [number, string][] };
  const shown: ShownWorld = new ShownWorld(async (p) => read(`assets/${p}`), {
    settingsFor: () => ({ agents: 5 }),
    install: (s: SandboxSession) => {
      expect(shown.session).toBe(s);
      told.installed++;
    },
    showWorld: (src: WorldSource | null) => told.menu.push(src?.catalogId ?? src?.label),
    replayLoaded: (length, name) => told.replays.push([length, name]),
    setError: (m) => told.errors.push(m),
  });
  shown.tables = defaultPineyTables();
  return { shown, told };
}

const file = (path: string, name = basename(path)): File => new File([read(path) as BlobPart], name);
const lastError = (t: { errors: string[] }) => t.errors.filter(Boolean).at(-1);

describe('the world shown', () => {
  test.each(['piney-storm', 'llama-demo', 'gta-town'])('%s from the catalog is the world Node opens', async (id) => {
    const { shown, told } = page();
    await shown.openCatalog(id);
    const node = await opener(id)();
    expect(shown.session!.opened.identity).toEqual(node.identity);
    expect(shown.session!.settings.agents).toBe(5);
    expect(told).toMatchObject({ installed: 1, menu: [id] });
    expect(lastError(told)).toBeUndefined();
    // Only a variant field has a spec to offer.
    expect(!!shown.source!.spec).toBe(id === 'piney-storm');
  });

  test('files: a TRAK with its MAP, a COL with its placements, each the same world as the catalog one', async () => {
    const { shown, told } = page();
    await shown.openFiles([file('assets/worlds/llama/demo.map'), file('assets/worlds/llama/demo.trak')]);
    expect(shown.source!.source).toBe('file:demo.trak;map:demo.map');
    expect(shown.session!.opened.identity.contentHash).toBe((await opener('llama-demo')()).identity.contentHash);
    await shown.openFiles([file('assets/worlds/gta/town.placements.json'), file('assets/worlds/gta/town.col')]);
    expect(shown.source!.source).toBe('file:town.col');
    expect(shown.session!.opened.identity.contentHash).toBe((await opener('gta-town')()).identity.contentHash);
    expect(shown.fileSource).toBe(shown.source);
    expect(told.menu).toEqual(['demo.trak', 'town.col']);
    // The menu's "your file" entry again: nothing to do while it is shown; reopened once another world is.
    await shown.openFileWorld();
    expect(told.installed).toBe(2);
    await shown.openCatalog('rugrats-demo');
    await shown.openFileWorld();
    expect(told.installed).toBe(4);
    expect(shown.source!.source).toBe('file:town.col');
  });

  test('a file over the limit, or one no parser takes: one line in the banner, the world shown stays', async () => {
    const { shown, told } = page();
    await shown.openCatalog('rugrats-demo');
    const before = shown.session;
    const huge = { name: 'huge.col', size: DEFAULT_LIMITS.fileBytes + 1 } as File;
    await shown.openFiles([huge]);
    expect(lastError(told)).toBe(tooBigMessage(huge, DEFAULT_LIMITS.fileBytes));
    await expect(shown.openFiles([new File([new Uint8Array([1, 2, 3])], 'junk.bin')])).rejects.toThrow();
    expect(lastError(told)).toMatch(/^cannot open junk\.bin: .+/);
    expect(lastError(told)).not.toContain('\n');
    expect(shown.session).toBe(before);
    expect(told.menu.at(-1)).toBe('rugrats-demo');
  });

  test('a replay opens on its catalog world; a replay of a world from files asks for that world', async () => {
    const { shown, told } = page();
    await shown.openCatalog('piney-default');
    await shown.session!.restart(true);
    for (let f = 0; f < 30; f++) shown.session!.stepLive(0);
    const bytes = shown.finishRecording();
    expect(shown.lastReplay).toBe(bytes);
    await shown.openCatalog('llama-demo');
    await shown.openFiles([new File([bytes as BlobPart], 'walk.rsr')]);
    expect(shown.source!.catalogId).toBe('piney-default');
    expect(shown.session!.mode).toBe('replay');
    expect(shown.replayName).toBe('walk.rsr');
    expect(told.replays).toEqual([[30, 'walk.rsr']]);
    shown.goLive();
    expect([shown.session!.mode, shown.replayName]).toEqual(['live', null]);

    // Recorded on a world from files: a page showing another world cannot replay it.
    await shown.openFiles([file('assets/worlds/rugrats/demo.col', 'mine.col')]);
    await shown.session!.restart(true);
    for (let f = 0; f < 10; f++) shown.session!.stepLive(0);
    const mine = shown.finishRecording();
    await shown.openCatalog('colbin-demo');
    await expect(shown.loadReplay(mine, 'mine.rsr')).rejects.toThrow();
    expect(lastError(told)).toBe('cannot load the replay: the replay ran on file:mine.col: open that world (drop its file) first');
    // With that world shown again, it plays.
    await shown.openFiles([file('assets/worlds/rugrats/demo.col', 'mine.col')]);
    await shown.loadReplay(mine, 'mine.rsr');
    expect(told.replays.at(-1)).toEqual([10, 'mine.rsr']);
  });
});
