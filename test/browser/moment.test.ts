/**
 * Links that restore the moment, files, and the inspector's plain words, in Chromium and in Firefox: a paused
 * view's link reopens at the same frame with the same state hash; a live view's link too, and one steered with
 * the keys says that it restores the run without keys (never showing the other hash as matching); a dropped
 * file's link names the file and asks for it, and the file dropped on that page opens at the frame; a GTA
 * `.col` without its placements shows the offer, and adding the placements file places the models; the
 * inspector's first line is plain words for every kind of world, the format's detail folded under it.
 * Frames are driven by the tests; waits are on the page's state, never on time alone.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSandbox, openSandboxInFirefox, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

type AnyPage = Page | FirefoxPage;
const evaluate = <R, A>(page: AnyPage, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
  (page as unknown as { evaluate(f: (arg: A) => R | Promise<R>, a: A): Promise<R> }).evaluate(fn, arg);
const state = (page: AnyPage): Promise<Record<string, any>> => evaluate(page, () => window.retrosim.state(), undefined);

const COL = 'assets/worlds/gta/town.col';
const PLACEMENTS = 'assets/worlds/gta/town.placements.json';

let h: Harness;
let ff: FirefoxHarness;
const BROWSERS = ['Chromium', 'Firefox'] as const;
type BrowserName = (typeof BROWSERS)[number];
const opened: AnyPage[] = [];

/** A new page at `query` (a link's query string, or parameters), ready, its own animation frames stopped. */
async function openPage(b: BrowserName, query: string | Record<string, string>): Promise<AnyPage> {
  const q = typeof query === 'string' ? Object.fromEntries(new URLSearchParams(query)) : query;
  const page = b === 'Chromium' ? await openSandbox(h, q) : await openSandboxInFirefox(ff, h.url, q);
  opened.push(page);
  await evaluate(page, () => window.retrosim.ticker(false), undefined);
  return page;
}

/** Waits until `pred` holds of the page's state (polled; a generous limit for a loaded machine). */
async function until(page: AnyPage, what: string, pred: (s: Record<string, any>) => boolean, ms = 120_000): Promise<Record<string, any>> {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state(page);
    if (pred(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify({ frame: s['frame'], kind: s['kind'], error: s['error'], info: s['info'], url: s['url'] })}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Drops files on the page as a user does (a drop event carrying them). */
async function drop(page: AnyPage, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({ name: basename(p), b64: readFileSync(p).toString('base64') }));
  await evaluate(
    page,
    (fs: { name: string; b64: string }[]) => {
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true, bubbles: true }));
    },
    files,
  );
}

const text = (page: AnyPage, sel: string, how: 'innerText' | 'textContent' = 'innerText'): Promise<string> =>
  evaluate(page, ([s, k]: [string, string]) => {
    const e = document.querySelector(s) as HTMLElement | null;
    return e ? ((k === 'innerText' ? e.innerText : e.textContent) ?? '') : '';
  }, [sel, how] as [string, string]);

beforeAll(async () => {
  h = await startHarness();
  ff = await startFirefox();
});

afterAll(async () => {
  for (const p of opened) await p.close().catch(() => undefined);
  await ff?.close();
  await h?.close();
});

describe.each(BROWSERS)('%s', (b) => {
  test("a paused view's link reopens at the same frame with the same hash", async () => {
    const a = await openPage(b, { world: 'colbin-demo', agents: '12' });
    await evaluate(a, () => {
      window.retrosim.pause();
      window.retrosim.advance(150);
    }, undefined);
    const link = await evaluate(a, () => window.retrosim.link(), undefined);
    const want = await state(a);
    // The page ran a few frames of its own before the test paused it.
    const f = want['frame'] as number;
    expect(f).toBeGreaterThanOrEqual(150);
    expect(link).toContain(`frame=${f}&`);
    expect(link).toContain(`hash=${want['hash']}`);
    const p = await openPage(b, link);
    const got = await state(p);
    expect(got['frame']).toBe(f);
    expect(got['hash']).toBe(want['hash']);
    expect(got['paused']).toBe(true);
    expect(got['error']).toBe('');
    expect(got['moment']).toMatchObject({ frame: f, matches: true, linkHash: want['hash'] });
    expect(got['info']).toContain(`the state hash ${want['hash']} is the link's`);
    // The reopened page writes the link it was given.
    expect(got['url']).toBe(link);
  });

  test("a live view's link too; a steered view's link without its keys restores the run without keys and says so", async () => {
    const a = await openPage(b, { world: 'rugrats-demo', agents: '8' });
    // Live: frames run by the page's own loop (driven here with a frame's elapsed time).
    await evaluate(a, () => {
      window.retrosim.resume();
      for (let i = 0; i < 40; i++) window.retrosim.tick(1000 / 60);
    }, undefined);
    const live = await state(a);
    expect(live['paused']).toBe(false);
    expect(live['frame']).toBeGreaterThan(20);
    const link = await evaluate(a, () => window.retrosim.link(), undefined);
    expect(link).toContain(`frame=${live['frame']}`);
    const p = await openPage(b, link);
    const got = await state(p);
    expect([got['frame'], got['hash'], got['moment']?.matches]).toEqual([live['frame'], live['hash'], true]);
    // Steered: a key held for some frames.
    await evaluate(a, () => window.retrosim.pause(), undefined);
    await a.keyboard.down('ArrowUp');
    await evaluate(a, () => window.retrosim.advance(30), undefined);
    await a.keyboard.up('ArrowUp');
    const steered = await state(a);
    const full = await evaluate(a, () => window.retrosim.link(), undefined);
    expect(full).toContain('keys=1');
    expect(full).toMatch(/#in=[A-Za-z0-9_-]+$/);
    // The link's keys dropped (as a run with too many keys for a link goes without them).
    const link2 = full.slice(0, full.indexOf('#'));
    const q = await openPage(b, link2);
    const s = await state(q);
    expect(s['frame']).toBe(steered['frame']);
    expect(s['hash']).not.toBe(steered['hash']);
    expect(s['moment']).toMatchObject({ matches: false, linkHash: steered['hash'], hash: s['hash'] });
    expect(s['info']).toContain('steered with the keys');
    expect(s['info']).not.toContain("is the link's");
    expect(s['error']).toBe('');
  });

  test("a dropped file's link names the file and asks for it; dropped there, it opens at the frame", async () => {
    const a = await openPage(b, { agents: '6' });
    await evaluate(a, () => window.retrosim.pause(), undefined);
    await drop(a, [COL, PLACEMENTS]);
    await until(a, 'the town from files', (s) => s['kind'] === 'gta' && String(s['source']).startsWith('file:town.col'));
    await evaluate(a, () => window.retrosim.advance(40), undefined);
    const link = await evaluate(a, () => window.retrosim.link(), undefined);
    const want = await state(a);
    // The address names what is shown: the file, not the default world.
    expect(link).toContain('file=town.col');
    expect(link).not.toContain('world=');
    expect(want['url']).toBe(link);
    const p = await openPage(b, link);
    const waiting = await state(p);
    expect(waiting['kind']).toBe('rugrats');
    expect(waiting['info']).toBe(`This view was of your file town.col: drop it here to open it at frame ${want['frame']}.`);
    expect(await text(p, '#banner-text')).toContain('drop it here');
    await drop(p, [COL, PLACEMENTS]);
    const got = await until(p, 'the file at the frame', (s) => s['kind'] === 'gta' && s['frame'] === want['frame'] && s['moment'] !== null);
    expect(got['hash']).toBe(want['hash']);
    expect(got['moment'].matches).toBe(true);
  });

  test('a .col without its placements shows the offer; adding the placements file places the models', async () => {
    const a = await openPage(b, { agents: '6' });
    await evaluate(a, () => window.retrosim.pause(), undefined);
    await drop(a, [COL]);
    const bare = await until(a, 'the bare COL', (s) => s['kind'] === 'gta');
    expect(bare['placementsMissing']).toBe(true);
    expect(await text(a, '#placements-banner')).toContain('town.col holds');
    expect(await text(a, '#placements-banner')).toContain('without its placements');
    expect(bare['url']).toContain('file=town.col');
    if (b === 'Chromium') {
      // The offer's button opens the file picker for the placements.
      const page = a as Page;
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#add-placements')]);
      await chooser.setFiles(PLACEMENTS);
    } else await drop(a, [PLACEMENTS]);
    const placed = await until(a, 'the placed town', (s) => s['kind'] === 'gta' && s['placementsMissing'] === false);
    expect(await evaluate(a, () => document.getElementById('placements-banner')!.hidden, undefined)).toBe(true);
    expect(placed['url']).toContain('file=town.col');
    // The models in their places: the same world, at frame 0 the same state, as the catalog's town (the COL
    // opened with its placements), and not the pile's.
    expect([bare['frame'], placed['frame']]).toEqual([0, 0]);
    expect(placed['hash']).not.toBe(bare['hash']);
    await evaluate(a, () => window.retrosim.open('gta-town', 6), undefined);
    const town = await state(a);
    expect(town['placementsMissing']).toBe(false);
    expect(placed['hash']).toBe(town['hash']);
  });

  test('the inspector leads with plain words for every kind of world, the format detail folded', async () => {
    const a = await openPage(b, { world: 'rugrats-demo', agents: '6' });
    await evaluate(a, () => window.retrosim.pause(), undefined);
    const words: Record<string, RegExp> = {
      'piney-default': /(field|hill).* m\b/,
      'rugrats-demo': /(of the level at .* m|Outside the level|A gap)/,
      'llama-demo': /(Track floor at .* m|No floor|Outside the track)/,
      'colbin-demo': /(Floor of the yard at .* m|No floor)/,
      'gta-town': /(of the model .*, at .* m|Nothing to stand on)/,
    };
    for (const [id, re] of Object.entries(words)) {
      await evaluate(a, (w: string) => window.retrosim.open(w, 6), id);
      const s0 = await state(a);
      const r = s0['worldRect'];
      await evaluate(a, ([x, y]: [number, number]) => {
        window.retrosim.selectTile(x, y);
        window.retrosim.render();
      }, [r.x + r.width * 0.5, r.y + r.height * 0.5] as [number, number]);
      const s = await state(a);
      const first = await text(a, '#inspector .tile .plain');
      expect(first, id).toBe(s['tile'].plain);
      expect(first, id).toMatch(re);
      // The format's rows are there, folded: not shown until the fold is opened.
      expect(await evaluate(a, () => (document.querySelector('#inspector .tile details') as HTMLDetailsElement).open, undefined)).toBe(false);
      const [k, v] = (s['tile'].rows as [string, string][])[0]!;
      expect(await text(a, '#inspector .tile details', 'textContent')).toContain(v);
      expect(await text(a, '#inspector .tile')).not.toContain(v);
      expect(await text(a, '#inspector .tile details summary')).toBe('format detail');
      void k;
    }
    // Hover and an entity: plain first lines too.
    const s = await state(a);
    const r = s['worldRect'];
    const at = (await evaluate(a, ([x, y]: [number, number]) => window.retrosim.screenOf(x, y), [r.x + r.width / 2, r.y + r.height / 2] as [number, number]))!;
    await evaluate(a, ([x, y]: [number, number]) => {
      window.retrosim.hover(x, y);
      window.retrosim.select(3);
      window.retrosim.render();
    }, [at[0]!, at[1]!] as [number, number]);
    expect(await text(a, '#inspector .hover .plain')).toMatch(/^(Ground of the town at .* m|No floor here)/);
    expect(await text(a, '#inspector .entity .plain')).toMatch(/^Agent 3[.,]/);
    expect(await text(a, '#inspector .hover')).not.toContain('status');
  });
});
