/**
 * The first screen, in Chromium and Firefox at 1280 × 800: it says what this is in one line and invites a
 * drop (a cue shows while files are dragged over the window; a dropped world file opens), the "Open file…"
 * button is styled and the native file input hidden, the controls fit one row styled for the dark theme, the
 * determinism numbers are one click away in a panel of their own, falling behind is a quiet amber dot (forced
 * with animation frames too far apart, no clock), and Escape on a control gives the keys back to the map.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Buttons } from '../../src/systems/input.js';
import { openSandbox, openSandboxInFirefox, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

const SIZE = { width: 1280, height: 800 };
const QUERY = { world: 'rugrats-demo', agents: '0' };
const INTRO = 'retrosim — deterministic retro-game worlds: pick a world, or drop a collision file (.col, TRAK+MAP, .colbin, a field spec, a replay).';
const HAND_COL = 'assets/worlds/rugrats/hand.col';

/** What the tests use of either browser's page (playwright-core's and puppeteer-core's agree on these). */
interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  click(selector: string): Promise<void>;
  keyboard: { press(key: string): Promise<void>; down(key: string): Promise<void>; up(key: string): Promise<void> };
}

let h: Harness;
let ff: FirefoxHarness;
const pages = new Map<string, AnyPage>();

beforeAll(async () => {
  h = await startHarness();
  pages.set('Chromium', (await openSandbox(h, QUERY, SIZE)) as unknown as AnyPage);
  ff = await startFirefox();
  pages.set('Firefox', (await openSandboxInFirefox(ff, h.url, QUERY, SIZE)) as unknown as AnyPage);
  // The tests drive every frame themselves.
  for (const p of pages.values())
    await p.evaluate(() => {
      window.retrosim.ticker(false);
      window.retrosim.pause();
    }, undefined);
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

const state = (p: AnyPage) => p.evaluate(() => window.retrosim.state() as Record<string, any>, undefined);

/** Whether the element is drawn: in the page, with a box, not hidden (a closed <details> hides its body's content). */
const shown = (p: AnyPage, selector: string) =>
  p.evaluate((sel) => {
    const e = document.querySelector(sel) as HTMLElement | null;
    if (!e) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true });
  }, selector);

describe.each(['Chromium', 'Firefox'])('%s', (browser) => {
  const page = () => pages.get(browser)!;

  test('the first screen says what this is in one line and invites a file; the side panel does not open on numbers', async () => {
    const p = page();
    expect(await shown(p, '#intro')).toBe(true);
    expect(await p.evaluate(() => document.getElementById('intro')!.textContent!.replace(/\s+/g, ' ').trim(), undefined)).toBe(INTRO);
    // At the top of the side panel, within the window, with its drop hint and its own open button.
    const where = await p.evaluate(() => {
      const r = document.getElementById('welcome')!.getBoundingClientRect();
      const side = document.getElementById('side')!.getBoundingClientRect();
      return { top: r.top - side.top, bottom: r.bottom, height: innerHeight };
    }, undefined);
    expect(where.top).toBe(0);
    expect(where.bottom).toBeLessThan(where.height / 2);
    expect(await shown(p, '#drop-hint')).toBe(true);
    expect(await shown(p, '#welcome-open')).toBe(true);
    // The determinism numbers are folded away: no hash, no draw counts, no alarm on the first screen.
    const s = await state(p);
    expect(await shown(p, '#hud')).toBe(false);
    // What the panel shows before the fold: the world and what the session does, in words.
    const upFront = await p.evaluate(() => ['welcome', 'status'].map((id) => document.getElementById(id)!.innerText).join('\n'), undefined);
    expect(upFront).toMatch(/rugrats/);
    expect(upFront).toMatch(/live/);
    expect(upFront).not.toContain(s['hash']);
    expect(upFront).not.toMatch(/fieldrand|ccRand|BEHIND|fps/);
    expect(await shown(p, '#determinism summary')).toBe(true);
  });

  test('the controls fit one row at 1280 px, styled for the dark theme, in sans-serif with numbers in monospace', async () => {
    const p = page();
    const bar = await p.evaluate(() => {
      const header = document.querySelector('header')!;
      const controls = Array.from(header.querySelectorAll('select, button, .chip span, h1')).filter((e) => (e as HTMLElement).getBoundingClientRect().width > 0);
      // Rows: controls whose tops lie within 12 px of the row's first are on it.
      const tops = controls.map((e) => e.getBoundingClientRect().top).sort((a, b) => a - b);
      const rows = tops.filter((t, i) => i === 0 || t > tops[i - 1]! + 12);
      const cs = (sel: string) => getComputedStyle(document.querySelector(sel)!);
      const lum = (rgb: string) => {
        const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      };
      return {
        height: header.getBoundingClientRect().height,
        width: header.getBoundingClientRect().width,
        scrollWidth: header.scrollWidth,
        count: controls.length,
        rows: rows.length,
        bottoms: Math.max(...controls.map((e) => e.getBoundingClientRect().bottom)),
        // Styled, not the native light-grey widgets.
        selectAppearance: cs('#world').appearance,
        selectLum: lum(cs('#world').backgroundColor),
        buttonLum: lum(cs('#restart').backgroundColor),
        buttonBorder: cs('#restart').borderTopColor,
        openLum: lum(cs('#open-file').backgroundColor),
        bodyFont: cs('body').fontFamily,
        selectFont: cs('#world').fontFamily,
      };
    }, undefined);
    expect(bar.count).toBeGreaterThan(15);
    expect(bar.rows).toBe(1);
    expect(bar.height).toBeLessThan(48);
    expect(bar.scrollWidth).toBeLessThanOrEqual(bar.width);
    expect(bar.selectAppearance).toBe('none');
    expect(bar.selectLum).toBeLessThan(0.3);
    expect(bar.buttonLum).toBeLessThan(0.3);
    // The open button stands out (the one bright control).
    expect(bar.openLum).toBeGreaterThan(0.5);
    for (const f of [bar.bodyFont, bar.selectFont]) expect(f).not.toMatch(/mono/i);
    expect(await p.evaluate(() => getComputedStyle(document.querySelector('#hud')!).fontFamily, undefined)).not.toMatch(/mono/i);
  });

  test('the bar stays one row while recording, with a replay to download, in a replay, and behind', async () => {
    const p = page();
    const rows = () =>
      p.evaluate(() => {
        const header = document.querySelector('header')!;
        const controls = Array.from(header.querySelectorAll('select, button, .chip span, #pace-dot')).filter((e) => (e as HTMLElement).getBoundingClientRect().width > 0);
        const tops = controls.map((e) => e.getBoundingClientRect().top).sort((a, b) => a - b);
        return { rows: tops.filter((t, i) => i === 0 || t > tops[i - 1]! + 12).length, height: header.getBoundingClientRect().height };
      }, undefined);
    await p.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
    await p.evaluate(() => window.retrosim.startRecording(), undefined);
    // Long enough that the playback below does not reach its end (which pauses).
    await p.evaluate(() => window.retrosim.advance(300), undefined);
    expect(await p.evaluate(() => document.getElementById('record')!.textContent, undefined)).toBe('Save');
    expect(await rows()).toMatchObject({ rows: 1 });
    const bytes = await p.evaluate(() => window.retrosim.finishRecording(), undefined);
    await p.evaluate(() => window.retrosim.render(), undefined);
    expect(await shown(p, '#download-replay')).toBe(true);
    await p.evaluate((b) => window.retrosim.loadReplay(b, 'first.rsr'), bytes);
    await p.evaluate(() => {
      window.retrosim.resume();
      for (let i = 0; i < 8; i++) window.retrosim.tick(200);
    }, undefined);
    expect(await shown(p, '#pace-dot')).toBe(true);
    expect(await shown(p, '#live')).toBe(true);
    expect(await shown(p, '#scrub')).toBe(true);
    const r = await rows();
    expect(r.rows).toBe(1);
    expect(r.height).toBeLessThan(48);
    await p.evaluate(() => {
      window.retrosim.pause();
      window.retrosim.goLive();
      window.retrosim.render();
    }, undefined);
    // Live again: the live run's own timeline.
    expect(await shown(p, '#replay-bar')).toBe(true);
  });

  test('the determinism numbers are one click away: the hash there is the page state\'s, frame by frame', async () => {
    const p = page();
    await p.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
    expect(await p.evaluate(() => (document.getElementById('determinism') as HTMLDetailsElement).open, undefined)).toBe(false);
    await p.click('#determinism summary');
    expect(await p.evaluate(() => (document.getElementById('determinism') as HTMLDetailsElement).open, undefined)).toBe(true);
    expect(await shown(p, '#hud')).toBe(true);
    const rows = () =>
      p.evaluate(() => {
        window.retrosim.render();
        const out: Record<string, string> = {};
        for (const tr of Array.from(document.querySelectorAll('#hud tr'))) out[tr.children[0]!.textContent!] = tr.children[1]!.textContent!;
        return { out, font: getComputedStyle(document.querySelector('#hud tr td + td')!).fontFamily };
      }, undefined);
    let r = await rows();
    let s = await state(p);
    expect(r.out['hash']).toBe(s['hash']);
    expect(r.out['frame']).toBe(String(s['frame']));
    expect(r.out['fieldrand']).toBe(String(s['fieldrand']));
    expect(r.out['ccRand']).toBe(String(s['ccrand']));
    // Numbers in monospace.
    expect(r.font).toMatch(/mono/i);
    await p.evaluate(() => window.retrosim.advance(7), undefined);
    r = await rows();
    s = await state(p);
    expect(r.out['hash']).toBe(s['hash']);
    expect(r.out['frame']).toBe(String(s['frame']));
    // Folded again with one click.
    await p.click('#determinism summary');
    expect(await shown(p, '#hud')).toBe(false);
  });

  test('falling behind is a quiet amber dot with a tooltip, not a red alarm; it goes once the game keeps up', async () => {
    const p = page();
    await p.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
    await p.evaluate(() => {
      window.retrosim.setSpeed(1);
      window.retrosim.resume();
      // 200 ms between animation frames: 12 frames owed each, 4 run.
      for (let i = 0; i < 8; i++) window.retrosim.tick(200);
    }, undefined);
    const s = await state(p);
    expect(s['clock'].behind).toBe(true);
    expect(await shown(p, '#pace-dot')).toBe(true);
    const dot = await p.evaluate(() => {
      const e = document.getElementById('pace-dot')!;
      const r = e.getBoundingClientRect();
      const header = document.querySelector('header')!.getBoundingClientRect();
      return { title: e.title, bg: getComputedStyle(e).backgroundColor, w: r.width, inBar: r.top >= header.top && r.bottom <= header.bottom, body: document.body.innerText, headerHeight: header.height };
    }, undefined);
    // With its cause: the browser (frames come 200 ms apart), or the costliest part of the page's work.
    expect(dot.title).toMatch(/^running at 0\.\d+× — the machine cannot keep up: (the browser gives the page a frame only every 200\.0 ms \(|(the simulation|drawing the picture|rendering it) takes \d+\.\d ms of each 200\.0 ms frame)/);
    expect(Number(/running at ([\d.]+)×/.exec(dot.title)![1])).toBeCloseTo(s['clock'].ratio, 1);
    expect(dot.bg).toBe('rgb(255, 179, 0)');
    expect(dot.w).toBeLessThan(16);
    expect(dot.inBar).toBe(true);
    // The bar stays one row with the dot in it; nothing on the page shouts.
    expect(dot.headerHeight).toBeLessThan(48);
    expect(dot.body).not.toMatch(/BEHIND|cannot keep up/);
    // Sixty animation frames a second: it keeps up again once the window has passed.
    await p.evaluate(() => {
      for (let i = 0; i < 90; i++) window.retrosim.tick(1000 / 60);
      window.retrosim.pause();
    }, undefined);
    expect((await state(p))['clock'].behind).toBe(false);
    expect(await shown(p, '#pace-dot')).toBe(false);
  });

  test('a menu opened with the mouse and closed with Escape gives the keys back: the next ↓ walks, the menu keeps its value', async () => {
    const p = page();
    for (const id of ['world', 'agents', 'rays', 'speed']) {
      // From the world's start each time (a wall behind would stop the walk).
      await p.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
      const before = await p.evaluate((i) => (document.getElementById(i) as HTMLSelectElement).value, id);
      const s0 = await state(p);
      await p.click(`#${id}`);
      expect((await state(p))['focus'], `#${id} has the keyboard once clicked`).toBe(id);
      await p.keyboard.press('Escape');
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(r)), undefined);
      expect((await state(p))['focus'], `#${id}: Escape gives the keyboard to the map`).toBe('map');
      await p.keyboard.down('ArrowDown');
      expect((await state(p))['buttons'], `#${id}: ↓ is the simulation's Down`).toBe(Buttons.Down);
      await p.evaluate(() => window.retrosim.advance(20), undefined);
      await p.keyboard.up('ArrowDown');
      const s1 = await state(p);
      expect(await p.evaluate((i) => (document.getElementById(i) as HTMLSelectElement).value, id), `#${id} keeps its value`).toBe(before);
      expect(s1['kind']).toBe('rugrats');
      expect(Math.hypot(s1['player'][0] - s0['player'][0], s1['player'][2] - s0['player'][2]), `#${id}: the player walked`).toBeGreaterThan(0);
    }
  });

  test('every toggle and button in the bar gives the keys back once clicked', async () => {
    const p = page();
    for (const sel of ['label:has(#overlay) span', 'label:has(#overlay) span', 'label:has(#heat) span', 'label:has(#heat) span', '#overview', '#follow']) {
      await p.click(sel);
      expect((await state(p))['focus'], sel).toBe('map');
      await p.keyboard.down('ArrowDown');
      expect((await state(p))['buttons'], sel).toBe(Buttons.Down);
      await p.keyboard.up('ArrowDown');
    }
    expect((await state(p))['heatOn']).toBe(false);
  });

  test('the styled "Open file…" button opens the hidden native file input; no native "Choose Files" shows', async () => {
    const p = page();
    const ui = await p.evaluate(() => {
      const input = document.getElementById('files') as HTMLInputElement;
      const r = input.getBoundingClientRect();
      return { type: input.type, display: getComputedStyle(input).display, w: r.width, h: r.height, text: document.body.innerText, open: document.getElementById('open-file')!.textContent };
    }, undefined);
    expect(ui.type).toBe('file');
    expect(ui.display).toBe('none');
    expect(ui.w * ui.h).toBe(0);
    expect(ui.text).not.toMatch(/Choose Files|No file chosen|Browse…|No files selected/);
    expect(ui.open).toBe('Open file…');
    expect(await shown(p, '#open-file')).toBe(true);
    // The button's click is the input's: the browser's own picker would open (stopped here, nobody to answer it).
    await p.evaluate(() => {
      const w = window as unknown as { pickerClicks: number };
      w.pickerClicks = 0;
      document.getElementById('files')!.addEventListener('click', (e) => {
        e.preventDefault();
        w.pickerClicks++;
      });
    }, undefined);
    await p.click('#open-file');
    await p.click('#welcome-open');
    expect(await p.evaluate(() => (window as unknown as { pickerClicks: number }).pickerClicks, undefined)).toBe(2);
  });

  test('dragging files over the window shows the drop cue; a drag of text does not; dropping a world file opens it', async () => {
    const p = page();
    const b64 = Buffer.from(readFileSync(HAND_COL)).toString('base64');
    expect(await shown(p, '#drop-cue')).toBe(false);
    const drag = (type: string, withFile: boolean) =>
      p.evaluate(
        ([t, file, data]) => {
          const dt = new DataTransfer();
          if (file) dt.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], 'hand.col', { type: 'application/octet-stream' }));
          else dt.setData('text/plain', 'just text');
          // Over the map, as a user's drag would be.
          document.getElementById('map')!.dispatchEvent(new DragEvent(t, { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        [type, withFile, b64] as [string, boolean, string],
      );
    await drag('dragenter', false);
    expect(await shown(p, '#drop-cue')).toBe(false);
    await drag('dragleave', false);
    await drag('dragenter', true);
    expect(await shown(p, '#drop-cue')).toBe(true);
    const cue = await p.evaluate(() => {
      const r = document.getElementById('drop-box')!.getBoundingClientRect();
      return { w: r.width, h: r.height, text: document.getElementById('drop-cue')!.innerText, border: getComputedStyle(document.getElementById('drop-box')!).borderTopStyle };
    }, undefined);
    expect(cue.w).toBeGreaterThan(200);
    expect(cue.text).toMatch(/^Drop to open/);
    expect(cue.border).toBe('dashed');
    // Leaving the window hides it; coming back shows it again.
    await drag('dragleave', true);
    expect(await shown(p, '#drop-cue')).toBe(false);
    await drag('dragenter', true);
    expect(await shown(p, '#drop-cue')).toBe(true);
    await drag('drop', true);
    expect(await shown(p, '#drop-cue')).toBe(false);
    await p.evaluate(() => new Promise<void>((resolve) => {
      const wait = () => (window.retrosim.state()['menuLabel'] === 'your file: hand.col' ? resolve() : setTimeout(wait, 50));
      wait();
    }), undefined);
    const s = await state(p);
    expect(s['kind']).toBe('rugrats');
    expect(s['error']).toBe('');
    // The welcome did its job.
    expect(await shown(p, '#welcome')).toBe(false);
  });
});

describe('Chromium', () => {
  test('"Open file…" brings up the browser\'s picker; the file chosen opens', async () => {
    const p = (await openSandbox(h, QUERY, SIZE)) as Page;
    try {
      const [chooser] = await Promise.all([p.waitForEvent('filechooser'), p.click('#open-file')]);
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles(HAND_COL);
      await p.waitForFunction(() => window.retrosim.state()['menuLabel'] === 'your file: hand.col', null, { timeout: 60_000 });
      expect((await p.evaluate(() => window.retrosim.state()))['focus']).toBe('map');
    } finally {
      await p.close();
    }
  });

  test('the welcome hidden with × stays hidden on the next visit', async () => {
    const p = (await openSandbox(h, QUERY, SIZE)) as Page;
    try {
      expect(await p.locator('#welcome').isVisible()).toBe(true);
      await p.click('#welcome-close');
      expect(await p.locator('#welcome').isVisible()).toBe(false);
      expect((await p.evaluate(() => window.retrosim.state()))['focus']).toBe('map');
      await p.reload();
      await p.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, null, { timeout: 300_000 });
      await p.evaluate(() => window.retrosim.ready);
      expect(await p.locator('#welcome').isVisible()).toBe(false);
    } finally {
      await p.close();
    }
  });
});
