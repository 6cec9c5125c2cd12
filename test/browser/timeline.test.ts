/**
 * The live run is a timeline, in Chromium and in Firefox: the page records from the first frame without being
 * asked, the timeline shows it, and step back, the scrubber and Go live work on it as on a replay; Save
 * downloads what already happened (from frame 0, verified in Node); a steered moment's link carries its keys
 * and reopens at the same frame with the same hash; a run with too many keys for a link says so.
 */
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { openRecordedWorld } from '../../src/node/open-world.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { liveSpan } from '../../src/render/scene/timeline.js';
import { readFileSync } from 'node:fs';
import { openSandbox, openSandboxInFirefox, setFirefoxViewport, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

type AnyPage = Page | FirefoxPage;
const evaluate = <R, A>(page: AnyPage, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
  (page as unknown as { evaluate(f: (arg: A) => R | Promise<R>, a: A): Promise<R> }).evaluate(fn, arg);
const state = (page: AnyPage): Promise<Record<string, any>> => evaluate(page, () => window.retrosim.state(), undefined);
const read = (p: string) => new Uint8Array(readFileSync(p));

let h: Harness;
let ff: FirefoxHarness;
const BROWSERS = ['Chromium', 'Firefox'] as const;
type BrowserName = (typeof BROWSERS)[number];
const opened: AnyPage[] = [];

async function openPage(b: BrowserName, query: Record<string, string>): Promise<AnyPage> {
  const page = b === 'Chromium' ? await openSandbox(h, query) : await openSandboxInFirefox(ff, h.url, query);
  opened.push(page);
  await evaluate(page, () => window.retrosim.ticker(false), undefined);
  return page;
}

/** A page at a link exactly as the address bar holds it (query and fragment). */
async function openLink(b: BrowserName, link: string): Promise<AnyPage> {
  const page = b === 'Chromium' ? await h.browser.newPage() : await ff.context.newPage();
  opened.push(page);
  if (b === 'Chromium') await (page as Page).setViewportSize({ width: 1024, height: 720 });
  else await setFirefoxViewport(page as FirefoxPage, { width: 1024, height: 720 });
  const errors: string[] = [];
  (page as Page).on('pageerror', (e: unknown) => errors.push(String(e)));
  await (page as Page).goto(`${h.url}${link}`, { timeout: 300_000 });
  await (page as Page).waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, undefined, { timeout: 300_000 });
  await evaluate(page, () => window.retrosim.ready, undefined);
  expect(errors).toEqual([]);
  return page;
}

/** Holds `key` (a KeyboardEvent code) for `frames` frames, stepped by the page's own loop. */
const hold = (page: AnyPage, code: string, frames: number): Promise<void> =>
  evaluate(page, ([c, n]: [string, number]) => {
    window.dispatchEvent(new KeyboardEvent('keydown', { code: c, key: c, bubbles: true }));
    window.retrosim.advance(n);
    window.dispatchEvent(new KeyboardEvent('keyup', { code: c, key: c, bubbles: true }));
  }, [code, frames] as [string, number]);

/** Catches the page's next download (the anchor it clicks) and gives its name and bytes. */
async function catchDownload(page: AnyPage, click: string): Promise<{ name: string; bytes: Uint8Array }> {
  const got = await evaluate(page, async (sel: string) => {
    const proto = HTMLAnchorElement.prototype;
    const real = proto.click;
    let caught: { name: string; href: string } | null = null;
    proto.click = function (this: HTMLAnchorElement) {
      caught = { name: this.download, href: this.href };
    };
    try {
      (document.querySelector(sel) as HTMLElement).click();
    } finally {
      proto.click = real;
    }
    if (!caught) return null;
    const c = caught as { name: string; href: string };
    const buf = new Uint8Array(await (await fetch(c.href)).arrayBuffer());
    let s = '';
    for (const x of buf) s += String.fromCharCode(x);
    return { name: c.name, b64: btoa(s) };
  }, click);
  if (!got) throw new Error(`clicking ${click} downloaded nothing`);
  return { name: got.name, bytes: new Uint8Array(Buffer.from(got.b64, 'base64')) };
}

const scrubTo = (page: AnyPage, frame: number): Promise<void> =>
  evaluate(page, (f: number) => {
    const s = document.getElementById('scrub') as HTMLInputElement;
    s.value = String(f);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, frame);

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
  test('the live run is a timeline from its first frame: step back, scrub, play on, Go live; Save downloads it from frame 0', async () => {
    const p = await openPage(b, { world: 'rugrats-demo', agents: '8' });
    await evaluate(p, () => window.retrosim.pause(), undefined);
    const f0 = (await state(p))['frame'] as number;
    await hold(p, 'ArrowUp', 120);
    await evaluate(p, () => window.retrosim.advance(100), undefined);
    const s = await state(p);
    const end = s['frame'] as number;
    expect(end).toBe(f0 + 220);
    // Recorded from the first frame, unasked; the timeline shows it.
    expect(s['record']).toMatchObject({ start: 0, head: end, complete: true });
    expect(s['timeline']).toEqual({ start: 0, end });
    const hashes = (await evaluate(p, () => window.retrosim.recordedHashes(), undefined)) as string[];
    expect(hashes.length).toBe(end);
    const bar = await evaluate(p, () => {
      const scrub = document.getElementById('scrub') as HTMLInputElement;
      return { hidden: document.getElementById('replay-bar')!.hidden, disabled: scrub.disabled, max: scrub.max, back: (document.getElementById('step-back') as HTMLButtonElement).disabled, label: document.getElementById('frame-label')!.textContent };
    }, undefined);
    // The bar spans a round length past the last frame.
    expect(bar).toEqual({ hidden: false, disabled: false, max: String(liveSpan(end)), back: false, label: `${end} / ${end}` });
    const marks = (await evaluate(p, () => window.retrosim.timeline(), undefined)) as { dom: { cls: string }[] };
    expect(marks.dom.some((d) => d.cls === 'label')).toBe(true);
    // One frame back, by the button.
    await evaluate(p, () => (document.getElementById('step-back') as HTMLElement).click(), undefined);
    expect([(await state(p))['frame'], (await state(p))['hash']]).toEqual([end - 1, hashes[end - 2]]);
    // The scrubber: back to a frame while the key was held.
    await scrubTo(p, f0 + 60);
    let t = await state(p);
    expect([t['frame'], t['hash'], t['paused'], t['mode']]).toEqual([f0 + 60, hashes[f0 + 59], true, 'live']);
    // Playing on from there follows the recorded keys, frame by frame.
    await evaluate(p, () => window.retrosim.advance(30), undefined);
    t = await state(p);
    expect([t['frame'], t['hash']]).toEqual([f0 + 90, hashes[f0 + 89]]);
    // Go live: the last frame again, running.
    await evaluate(p, () => (document.getElementById('live') as HTMLElement).click(), undefined);
    t = await state(p);
    expect([t['frame'], t['hash'], t['paused']]).toEqual([end, hashes[end - 1], false]);
    await evaluate(p, () => window.retrosim.pause(), undefined);
    // Save: what already happened, from frame 0, a replay that verifies in Node.
    const d = await catchDownload(p, '#record');
    expect(d.name).toMatch(/^rugrats-[0-9a-f]{8}\.rsr$/);
    const rp = readReplay(d.bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(end);
    expect(rp.keyframes[0]!.frame).toBe(0);
    expect(rp.frames.hashHi.length).toBe(end);
    expect(`0x${rp.final.hashHi.toString(16).padStart(8, '0')}${rp.final.hashLo.toString(16).padStart(8, '0')}`).toBe(hashes[end - 1]);
    const world = await openRecordedWorld(rp.header.world, [process.cwd()], read);
    expect(verifyReplay(rp, simulationFromSettings(world.world, rp.header.settings)).ok).toBe(true);
    // The page goes on recording after a save.
    expect((await state(p))['recording']).toBe(true);
  }, 600_000);

  test("a steered moment's link carries its keys and reopens at the same frame with the same hash", async () => {
    const a = await openPage(b, { world: 'rugrats-demo', agents: '8' });
    await evaluate(a, () => window.retrosim.pause(), undefined);
    await hold(a, 'ArrowUp', 60);
    await hold(a, 'ArrowLeft', 25);
    await evaluate(a, () => window.retrosim.advance(40), undefined);
    // A moment scrubbed back to, while a key was held.
    const back = ((await state(a))['frame'] as number) - 70;
    await scrubTo(a, back);
    const want = await state(a);
    expect(want['frame']).toBe(back);
    const link = (await evaluate(a, () => window.retrosim.link(), undefined)) as string;
    expect(link).toContain(`frame=${back}&hash=${want['hash']}&keys=1`);
    expect(link).toMatch(/#in=[A-Za-z0-9_-]+$/);
    expect((await state(a))['fragment']).toBe(link.slice(link.indexOf('#')));
    const q = await openLink(b, link);
    const got = await state(q);
    expect([got['frame'], got['hash'], got['paused']]).toEqual([back, want['hash'], true]);
    expect(got['moment']).toMatchObject({ matches: true, linkHash: want['hash'] });
    expect(got['info']).toContain('the keys held in that run came with the link');
    expect(got['error']).toBe('');
    // The reopened page writes the same link, keys and all.
    expect(await evaluate(q, () => window.retrosim.link(), undefined)).toBe(link);
  }, 600_000);

  test('a run with too many keys for a link: the page says so and offers the replay file', async () => {
    const p = await openPage(b, { world: 'rugrats-demo', agents: '2' });
    await evaluate(p, () => window.retrosim.pause(), undefined);
    // A different key every frame: about two bytes a frame, past the most a link carries.
    await evaluate(p, () => {
      const codes = ['ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight', 'KeyJ'];
      for (let i = 0; i < 2600; i++) {
        const c = codes[i % codes.length]!;
        window.dispatchEvent(new KeyboardEvent('keydown', { code: c, key: c, bubbles: true }));
        window.retrosim.advance(1);
        window.dispatchEvent(new KeyboardEvent('keyup', { code: c, key: c, bubbles: true }));
      }
    }, undefined);
    const link = (await evaluate(p, () => window.retrosim.link(), undefined)) as string;
    expect(link).toContain('keys=1');
    expect(link).not.toContain('#in=');
    const note = await evaluate(p, () => {
      const n = document.getElementById('link-note')!;
      return { hidden: n.hidden, text: n.textContent };
    }, undefined);
    expect(note.hidden).toBe(false);
    expect(note.text).toContain('too many for a link');
    expect(note.text).toContain('Save the replay');
    expect(await evaluate(p, () => (document.getElementById('record') as HTMLButtonElement).disabled, undefined)).toBe(false);
  }, 600_000);
});
