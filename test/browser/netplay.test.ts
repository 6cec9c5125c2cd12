/**
 * "Play together" for real: `retrosim relay` impairing every forward (80 ± 30 ms, 5 % lost), a Chromium page
 * that creates a room through the panel (real clicks) and a Firefox page that joins it through the link the
 * panel shows, each walked with real key presses (different keys on each, changing every 300 frames), until
 * both stop at confirmed frame 1800 (the link's `frames=`): every confirmed frame's hash is the same in both
 * pages, rollbacks happened, no desync; the session replay downloaded through Chromium's button verifies in
 * Node, and Firefox's (read through `window.retrosim.roomReplay()`) is byte-identical.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cli, killAll, runCliAsync, waitFor, type Proc } from '../batch/helpers.js';
import { readReplay } from '../../src/replay/format.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { openBuiltinWorld, openWorldFile } from '../../src/node/open-world.js';
import { openSandbox, openSandboxInFirefox, type FirefoxHarness, type Harness, startBothBrowsers } from './harness.js';

const FRAMES = 1800;
const WORLD = { world: 'rugrats-demo', agents: '10' };
/** The keys each page holds, one set per 300 frames of its own. */
const CHROMIUM_KEYS = [['KeyW'], ['KeyW', 'KeyD'], ['ArrowLeft'], ['KeyS'], ['KeyW', 'KeyA'], ['ArrowRight', 'ArrowUp'], []];
const FIREFOX_KEYS = [['ArrowUp'], ['ArrowRight'], ['KeyS', 'KeyA'], ['ArrowUp', 'ArrowLeft'], ['KeyD'], ['ArrowDown'], []];

interface Keys {
  down(key: string): Promise<void>;
  up(key: string): Promise<void>;
}
interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  keyboard: Keys;
}

let relay: Proc;
let h: Harness;
let ff: FirefoxHarness;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-netplay-'));
  relay = cli(['relay', '--json', '--delay', '80', '--jitter', '30', '--loss', '0.05']);
  // Both browsers start at once (each takes seconds on a loaded machine).
  ({ h, ff } = await startBothBrowsers());
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const room = (p: AnyPage) => p.evaluate(() => window.retrosim.room() as Record<string, any> | null, undefined);

/** Holds the keys of step `i` (releasing the others): real key events through the browser's input API. */
async function hold(p: AnyPage, held: Set<string>, keys: string[]): Promise<void> {
  for (const k of [...held]) if (!keys.includes(k)) (await p.keyboard.up(k), held.delete(k));
  for (const k of keys) if (!held.has(k)) (await p.keyboard.down(k), held.add(k));
}

test('a Chromium and a Firefox page play one room through an impaired relay: the same hash on every confirmed frame, and the replay verifies', async () => {
  const first = await waitFor('the relay URL', () => {
    if (relay.child.exitCode !== null) throw new Error(`relay exited: ${relay.stderr()}`);
    const nl = relay.stdout().indexOf('\n');
    return nl >= 0 ? relay.stdout().slice(0, nl) : null;
  });
  const url = (JSON.parse(first) as { url: string }).url;

  // Chromium opens the page with the relay and the stop frame in its link, and creates the room with the panel.
  const chromium: Page = await openSandbox(h, { ...WORLD, relay: url, frames: String(FRAMES) });
  await chromium.click('#play-together > summary');
  expect(await chromium.inputValue('#play-relay')).toBe(url);
  await chromium.click('#play-create');
  const link = await waitFor('the room link', async () => ((await room(chromium as unknown as AnyPage))?.['link'] as string) || null);
  expect(await chromium.inputValue('#play-link')).toBe(link);
  const q = new URL(link).searchParams;
  expect(q.get('relay')).toBe(url);
  expect(q.get('room')).toMatch(/^room-[a-z2-9]{10}$/);
  expect(q.get('frames')).toBe(String(FRAMES));

  // Firefox opens that link (its query and nothing else) and joins.
  const firefox: FirefoxPage = await openSandboxInFirefox(ff, h.url, Object.fromEntries(q));
  const pages: [string, AnyPage, string[][]][] = [
    ['Chromium', chromium as unknown as AnyPage, CHROMIUM_KEYS],
    ['Firefox', firefox as unknown as AnyPage, FIREFOX_KEYS],
  ];
  for (const [name, p] of pages) await waitFor(`${name} playing`, async () => (await room(p))?.['stats'].state === 'running', 300_000, 100);
  const seats = await Promise.all(pages.map(async ([, p]) => (await room(p))!));
  expect(seats.map((r) => r['stats'].player).sort()).toEqual([0, 1]);
  // Each camera follows its own seat's entity.
  for (const r of seats) expect(typeof r['you']).toBe('number');
  expect(seats[0]!['you']).not.toBe(seats[1]!['you']);

  // Real key presses on both, changing every 300 frames, until both stop at the last frame.
  // The panel shows the room on both pages: open, with its status, the world's and the replay's controls put away.
  const panel = (p: AnyPage) => p.evaluate(() => ({ open: (document.getElementById('play-together') as HTMLDetailsElement).open, status: document.getElementById('play-status')!.innerText, world: document.querySelector<HTMLElement>('header [aria-label="world"]')!.offsetWidth }), undefined);
  for (const [name, p] of pages) expect(await panel(p), name).toMatchObject({ open: true, status: expect.stringMatching(/^room\s+playing/), world: 0 });
  const held = pages.map(() => new Set<string>());
  await waitFor(
    `both pages at confirmed frame ${FRAMES}`,
    async () => {
      let done = 0;
      for (let i = 0; i < pages.length; i++) {
        const [, p, keys] = pages[i]!;
        const s = (await room(p))!['stats'];
        if (s.state === 'closed') throw new Error(`${pages[i]![0]}'s session closed: ${s.closeReason}`);
        await hold(p, held[i]!, keys[Math.min(keys.length - 1, Math.floor(s.frame / 300))]!);
        if (s.confirmedFrame >= FRAMES) done++;
      }
      return done === pages.length;
    },
    600_000,
    200,
  );
  for (let i = 0; i < pages.length; i++) await hold(pages[i]![1], held[i]!, []);

  const after = await Promise.all(pages.map(async ([, p]) => (await room(p))!));
  for (const r of after) {
    expect(r['stats'].confirmedFrame).toBe(FRAMES);
    expect(r['stats'].desyncs).toBe(0);
    expect(r['desyncs']).toEqual([]);
  }
  expect(Math.max(...after.map((r) => r['stats'].rollbacks))).toBeGreaterThan(0);

  // The same hash on every confirmed frame 1..1800 in both pages.
  const hashes = await Promise.all(pages.map(([, p]) => p.evaluate((n) => window.retrosim.roomHashes(1, n), FRAMES)));
  expect(hashes[0]!.every((x) => typeof x === 'string' && /^0x[0-9a-f]{16}$/.test(x))).toBe(true);
  expect(hashes[1]).toEqual(hashes[0]);
  for (const [name, p] of pages) expect((await panel(p)).status, name).toMatch(/room\s+finished at frame 1800[\s\S]*rollbacks\s+\d+[\s\S]*desyncs\s+0/);

  // The session replay: Chromium's through its button (a real download), Firefox's through the scripting API.
  const [download] = await Promise.all([chromium.waitForEvent('download'), chromium.click('#play-replay')]);
  const file = join(dir, 'session.rsr');
  await download.saveAs(file);
  const bytes = new Uint8Array(readFileSync(file));
  const theirs = Buffer.from((await firefox.evaluate(() => window.retrosim.roomReplay()))!, 'base64');
  expect(Buffer.from(bytes).equals(theirs)).toBe(true);

  const rp = readReplay(bytes);
  expect(rp.header.formatVersion).toBe(4);
  expect(rp.frames.players).toBe(2);
  expect(rp.frames.count).toBe(FRAMES);
  // Both players' keys are in it.
  for (let p = 0; p < 2; p++) expect(rp.frames.inputs.some((b, i) => i % 2 === p && b !== 0)).toBe(true);
  const read = (path: string) => new Uint8Array(readFileSync(path));
  const src = rp.header.world.source;
  const opened = src.startsWith('builtin:') ? await openBuiltinWorld(src.slice(8), read) : await openWorldFile(src.slice(5).split(';map:')[0]!, read, src.split(';map:')[1]);
  const v = verifyReplay(rp, { world: opened });
  expect(v.divergence).toBeUndefined();
  expect(v.ok).toBe(true);
  expect(v.frames).toBe(FRAMES);
  // The recorded hashes are the ones both pages confirmed.
  for (let f = 1; f <= FRAMES; f += 97) expect(`0x${rp.frames.hashHi[f - 1]!.toString(16).padStart(8, '0')}${rp.frames.hashLo[f - 1]!.toString(16).padStart(8, '0')}`).toBe(hashes[0]![f - 1]);
  // And the command line agrees.
  const cmd = await runCliAsync(['replay', 'verify', file]);
  expect(cmd.stderr).toBe('');
  expect(cmd.code).toBe(0);
});
