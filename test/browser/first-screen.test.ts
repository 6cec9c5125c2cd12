/**
 * A first screen for every window, and one meaning per colour, in Chromium and Firefox:
 * - with no link the page opens on the world that reads fastest, measured: of the catalog's worlds opened whole
 *   with no agents, the one whose opening view has the largest share covered by distinct structure
 *   (pixels.ts structureShare); no rays are drawn until asked, and sight and the legend are one click away;
 * - at 800 × 600 and on a 390 × 844 phone the first screen says what this is and what to do, over the map;
 *   a finger on the page brings the pad, whose arrows walk the player and whose buttons pause and step;
 * - the keyboard: ↓ on the world menu browses without loading, Enter opens; Tab reaches the map with a visible
 *   outline; N points at an entity and Enter inspects it; G walks relative to the screen;
 * - a link asking for more agents than the page holds gets the most it holds (4,094), said in the banner;
 * - no request of the page's load ends in a 404 (the favicon is in the page); the bar stays one row for every
 *   world name; the timing line has render time and names why the pace drops below 1×; the legend names GTA's
 *   surfaces in the inspector's words.
 */
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CATALOG, FIRST_WORLD } from '../../src/render/sandbox/world-catalog.js';
import { setFirefoxViewport, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';
import { decodePng, structureShare } from './pixels.js';

type Size = { width: number; height: number };

/** What the tests use of either browser's page. */
interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  press(key: string): Promise<void>;
  focus(selector: string): Promise<void>;
  /** A mouse press held on the element's centre while `during` runs. */
  holdOn(selector: string, during: () => Promise<void>): Promise<void>;
  click(selector: string): Promise<void>;
  /** One finger's tap (a trusted touch, not a made-up event). */
  tap(x: number, y: number): Promise<void>;
  /** URLs of the page's load that ended in 404. */
  notFound: string[];
  close(): Promise<void>;
}

let h: Harness;
let ff: FirefoxHarness;

beforeAll(async () => {
  h = await startHarness();
  ff = await startFirefox();
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

async function ready(p: { evaluate: AnyPage['evaluate'] }): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await p.evaluate(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, undefined)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await p.evaluate(() => window.retrosim.ready, undefined);
}

async function openChromium(query: Record<string, string>, size: Size): Promise<AnyPage> {
  const page: Page = await h.browser.newPage();
  await page.setViewportSize(size);
  const notFound: string[] = [];
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) notFound.push(r.url());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${h.url}?${new URLSearchParams({ mute: '1', ...query })}`);
  const cdp = await page.context().newCDPSession(page);
  const p: AnyPage = {
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    press: (k) => page.keyboard.press(k),
    focus: (s) => page.focus(s),
    async holdOn(sel, during) {
      const b = (await page.locator(sel).boundingBox())!;
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      await during();
      await page.mouse.up();
    },
    click: (s) => page.click(s),
    async tap(x, y) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    },
    notFound,
    close: () => page.close(),
  };
  await ready(p);
  expect(errors).toEqual([]);
  return p;
}

async function openFirefox(query: Record<string, string>, size: Size): Promise<AnyPage> {
  const page: FirefoxPage = await ff.context.newPage();
  await setFirefoxViewport(page, size);
  const notFound: string[] = [];
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) notFound.push(r.url());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${h.url}?${new URLSearchParams({ mute: '1', ...query })}`, { timeout: 300_000 });
  const p: AnyPage = {
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    press: (k) => page.keyboard.press(k as never),
    focus: (s) => page.focus(s),
    async holdOn(sel, during) {
      const b = (await (await page.$(sel))!.boundingBox())!;
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      await during();
      await page.mouse.up();
    },
    click: (s) => page.click(s),
    async tap(x, y) {
      await page.touchscreen.tap(x, y);
    },
    notFound,
    close: () => page.close(),
  };
  await ready(p);
  expect(errors).toEqual([]);
  return p;
}

const state = (p: AnyPage) => p.evaluate(() => window.retrosim.state() as Record<string, any>, undefined);
const still = (p: AnyPage) =>
  p.evaluate(() => {
    window.retrosim.ticker(false);
    window.retrosim.pause();
  }, undefined);

/** Whether the element is drawn within the window. */
const inWindow = (p: AnyPage, selector: string) =>
  p.evaluate((sel) => {
    const e = document.querySelector(sel) as HTMLElement | null;
    if (!e || !e.checkVisibility({ visibilityProperty: true })) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
  }, selector);

/** Distinct worlds of the catalog (the Piney variants share the default field). */
const MEASURED = CATALOG.filter((e) => !e.variant).map((e) => e.id);

describe.each(['Chromium', 'Firefox'])('%s', (browser) => {
  const open = (query: Record<string, string>, size: Size) => (browser === 'Chromium' ? openChromium(query, size) : openFirefox(query, size));
  let p: AnyPage;
  beforeAll(async () => {
    p = await open({}, { width: 1280, height: 800 });
    await still(p);
  });
  afterAll(async () => {
    await p?.close();
  });

  test('no link: the world that reads fastest (measured), no rays drawn, sight and legend one click away; no 404 on load', async () => {
    const s = await state(p);
    expect(s['menu']).toBe(FIRST_WORLD);
    // The page gave the keys to the map as it opened: no outline for that (Tab draws one, below).
    expect(s['focus']).toBe('map');
    expect(await p.evaluate(() => getComputedStyle(document.getElementById('map')!).outlineStyle, undefined)).toBe('none');
    expect(s['rays']).toBe('off');
    await p.evaluate(() => window.retrosim.advance(30), undefined);
    expect((await state(p))['linesDrawn']).toBe(0);
    expect(await p.evaluate(() => ['sight', 'legend-on'].map((id) => (document.getElementById(id) as HTMLInputElement).checked), undefined)).toEqual([true, true]);
    // The favicon is in the page: nothing of the load was missing.
    expect(p.notFound).toEqual([]);
    expect(await p.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute('href')?.startsWith('data:image/svg+xml') ?? false, undefined)).toBe(true);
    // The measure: each world opened whole with no agents, the share of its view covered by distinct structure.
    const share: Record<string, number> = {};
    for (const id of MEASURED) {
      await p.evaluate((w) => window.retrosim.open(w, 0), id);
      await p.evaluate(() => {
        window.retrosim.overview();
        window.retrosim.render();
      }, undefined);
      const url = await p.evaluate(() => (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png'), undefined);
      share[id] = structureShare(decodePng(new Uint8Array(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'))));
    }
    console.log(`${browser}: structure share of each world's whole view: ${JSON.stringify(Object.fromEntries(Object.entries(share).map(([k, v]) => [k, Number(v.toFixed(3))])))}`);
    const best = Object.entries(share).sort((a, b) => b[1] - a[1])[0]![0];
    expect(best).toBe(FIRST_WORLD);
    await p.evaluate((w) => window.retrosim.open(w, null), FIRST_WORLD);
    // The rays are one key away, and then lines are drawn.
    await p.focus('#map');
    await p.press('r');
    await p.evaluate(() => window.retrosim.advance(30), undefined);
    const r = await state(p);
    expect(r['rays']).toBe('few');
    expect(r['linesDrawn']).toBeGreaterThan(0);
    await p.press('r');
    await p.press('r');
    await p.press('r');
    expect((await state(p))['rays']).toBe('off');
  });

  test('the world menu: ↓ browses without loading, Enter opens; leaving it shows the open world again', async () => {
    const before = await state(p);
    await p.focus('#world');
    await p.press('ArrowDown');
    await p.press('ArrowDown');
    let s = await state(p);
    expect(s['menuBrowsing']).toBe(true);
    expect(s['menu']).not.toBe(before['menu']);
    expect(s['source']).toBe(before['source']);
    expect(s['hash']).toBe(before['hash']);
    const chosen = s['menu'] as string;
    await p.press('Enter');
    await p.evaluate((w) => new Promise<void>((res) => {
      const t = setInterval(() => {
        if (window.retrosim.state()['source'] === `builtin:${w}`) {
          clearInterval(t);
          res();
        }
      }, 50);
    }), chosen);
    s = await state(p);
    expect(s['source']).toBe(`builtin:${chosen}`);
    expect(s['menuBrowsing']).toBe(false);
    expect(s['focus']).toBe('map');
    // Browsed and left: the menu shows the open world again, nothing loaded.
    await p.focus('#world');
    await p.press('ArrowUp');
    expect((await state(p))['menuBrowsing']).toBe(true);
    await p.focus('#map');
    s = await state(p);
    expect(s['menu']).toBe(chosen);
    expect(s['source']).toBe(`builtin:${chosen}`);
    await p.evaluate((w) => window.retrosim.open(w, 10), FIRST_WORLD);
  });

  test('Tab reaches the map with a visible outline; N points at an entity, Enter inspects it', async () => {
    await p.focus('#help');
    let focus = '';
    for (let i = 0; i < 40 && focus !== 'map'; i++) {
      await p.press('Tab');
      focus = (await state(p))['focus'];
    }
    expect(focus).toBe('map');
    const outline = await p.evaluate(() => {
      const cs = getComputedStyle(document.getElementById('map')!);
      return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), colour: cs.outlineColor };
    }, undefined);
    expect(outline.style).toBe('solid');
    expect(outline.width).toBeGreaterThanOrEqual(2);
    await p.press('n');
    const first = (await state(p))['pointed'] as number;
    expect(first).toBeGreaterThanOrEqual(0);
    await p.press('n');
    const second = (await state(p))['pointed'] as number;
    expect(second).not.toBe(first);
    expect((await state(p))['selection']).toBeNull();
    await p.press('Enter');
    const s = await state(p);
    expect(s['selection']).toEqual({ kind: 'entity', id: second });
    expect(s['entity']).not.toBeNull();
    expect(await p.evaluate(() => document.getElementById('inspector')!.innerText, undefined)).toContain(`entity ${second}`);
    await p.press('Escape');
  });

  test('G: walking relative to the screen — ↓ walks down the screen from any heading, by turning (recorded as the usual buttons)', async () => {
    await p.evaluate((w) => window.retrosim.open(w, 0), FIRST_WORLD);
    await p.focus('#map');
    await p.press('g');
    expect(await p.evaluate(() => (document.getElementById('screen-walk') as HTMLInputElement).checked, undefined)).toBe(true);
    const help = await p.evaluate(() => document.getElementById('help-box')!.innerText, undefined);
    expect(help).toContain('the way the player faces (not up the screen');
    await p.evaluate(async () => {
      await window.retrosim.startRecording();
      window.retrosim.pause();
    }, undefined);
    await p.focus('#map');
    const s0 = await state(p);
    // Held ↓ for 90 frames: the player turns from its heading to face down the screen (+z on the Rugrats level,
    // whose map y runs down the screen) and walks there.
    const headings: number[] = [];
    await p.evaluate(() => window.dispatchEvent(new KeyboardEvent('keydown', { code: 'ArrowDown', key: 'ArrowDown' })), undefined);
    for (let i = 0; i < 3; i++) {
      await p.evaluate(() => window.retrosim.advance(30), undefined);
      headings.push((await state(p))['heading']);
    }
    await p.evaluate(() => window.dispatchEvent(new KeyboardEvent('keyup', { code: 'ArrowDown', key: 'ArrowDown' })), undefined);
    const s1 = await state(p);
    expect(s1['player'][2]).toBeGreaterThan(s0['player'][2] + 100);
    expect(Math.abs(s1['player'][0] - s0['player'][0])).toBeLessThan(Math.abs(s1['player'][2] - s0['player'][2]));
    expect(Math.abs(headings.at(-1)! - 16384)).toBeLessThanOrEqual(256);
    const replay = await p.evaluate(() => Array.from(window.retrosim.finishRecording()), undefined);
    expect(replay.length).toBeGreaterThan(0);
    await p.press('g');
    expect(await p.evaluate(() => (document.getElementById('screen-walk') as HTMLInputElement).checked, undefined)).toBe(false);
  });

  test('the bar stays one row for every world name; the legend names GTA\'s surfaces as the inspector does', async () => {
    for (const e of CATALOG) {
      await p.evaluate((w) => window.retrosim.open(w, 0), e.id);
      const rows = await p.evaluate(() => {
        const header = document.querySelector('header')!;
        const tops = Array.from(header.querySelectorAll('select, button, .chip span, h1'))
          .filter((x) => (x as HTMLElement).getBoundingClientRect().width > 0)
          .map((x) => x.getBoundingClientRect().top)
          .sort((a, b) => a - b);
        const ctl = Array.from(header.querySelectorAll('select, button, .chip span, h1')).filter((x) => (x as HTMLElement).getBoundingClientRect().width > 0);
        const layout = JSON.stringify(ctl.map((x) => [x.id || x.textContent?.slice(0, 10), Math.round(x.getBoundingClientRect().left), Math.round(x.getBoundingClientRect().width), Math.round(x.getBoundingClientRect().top)]));
        return { n: tops.filter((t, i) => i === 0 || t > tops[i - 1]! + 12).length, layout };
      }, undefined);
      if (rows.n !== 1) console.log(rows.layout);
      expect(rows.n, e.id).toBe(1);
    }
    await p.evaluate(() => window.retrosim.open('gta-town', 0), undefined);
    await p.evaluate(() => window.retrosim.advance(1), undefined);
    const labels = await p.evaluate(() => Array.from(document.querySelectorAll('#legend li .label')).map((li) => (li as HTMLElement).innerText.trim()), undefined);
    if (!labels.includes('grass')) console.log(JSON.stringify(labels));
    expect(labels).toContain('grass');
    expect(labels.some((l) => /surface material/.test(l))).toBe(false);
  });

  test('the timing line has render time, and names the cause when the pace drops below 1×', async () => {
    await p.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
    await p.evaluate(() => {
      (document.getElementById('determinism') as HTMLDetailsElement).open = true;
      window.retrosim.setSpeed(1);
      window.retrosim.resume();
      for (let i = 0; i < 8; i++) window.retrosim.tick(200);
      window.retrosim.render();
    }, undefined);
    const hud = await p.evaluate(() => document.getElementById('hud')!.innerText, undefined);
    expect(hud).toMatch(/render \d+\.\d ms/);
    // The cause, whichever it is on this machine: the browser (the page's own work is small beside 200 ms), or
    // the costliest part of the page's work (which part is costliest, status-lines.test.ts checks).
    const cause = /(the browser gives the page a frame only every 200\.0 ms \(the page's own work takes \d+\.\d ms|(the simulation|drawing the picture|rendering it) takes \d+\.\d ms of each 200\.0 ms frame)/;
    expect(hud).toMatch(new RegExp(`running at 0\\.\\d+× of 1× .*: ${cause.source}`));
    expect(await p.evaluate(() => document.getElementById('pace-dot')!.title, undefined)).toMatch(new RegExp(`cannot keep up: ${cause.source}`));
    await p.evaluate(() => {
      for (let i = 0; i < 90; i++) window.retrosim.tick(1000 / 60);
      window.retrosim.pause();
      (document.getElementById('determinism') as HTMLDetailsElement).open = false;
    }, undefined);
  });

  test('agents=10000: the most the page holds, 4,094, with the banner', async () => {
    const q = await open({ world: 'colbin-demo', agents: '10000' }, { width: 1024, height: 720 });
    try {
      const s = await state(q);
      expect(s['kind']).toBe('colbin');
      expect(s['settingsAgents']).toBe(4094);
      expect(s['agents']).toBe(4094);
      const banner = await q.evaluate(() => ({ shown: !document.getElementById('banner')!.hidden, text: document.getElementById('banner-text')!.innerText }), undefined);
      expect(banner.shown).toBe(true);
      expect(banner.text).toContain('agents="10000"');
      expect(banner.text).toContain('the most the page holds, 4094, is used');
    } finally {
      await q.close();
    }
  });

  test.each([
    ['800 × 600', { width: 800, height: 600 }],
    ['a 390 × 844 phone', { width: 390, height: 844 }],
  ] as const)('%s: the first screen says what this is and what to do; a finger brings the pad, which walks, pauses and steps', async (_, size) => {
    const q = await open({}, size);
    try {
      await still(q);
      // What this is and what to do, over the map (the side panel is folded away).
      expect(await inWindow(q, '#intro')).toBe(true);
      expect(await inWindow(q, '#welcome-keys')).toBe(true);
      expect(await inWindow(q, '#welcome-open')).toBe(true);
      const where = await q.evaluate(() => document.getElementById('welcome')!.parentElement!.id, undefined);
      expect(where).toBe('view');
      expect(await q.evaluate(() => document.getElementById('intro')!.innerText, undefined)).toMatch(/^retrosim — deterministic retro-game worlds/);
      // A finger on the map: the pad and the play buttons show, and the words speak of them.
      expect(await inWindow(q, '#pad-arrows')).toBe(false);
      const box = await q.evaluate(() => {
        const r = document.getElementById('map')!.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height * 0.6];
      }, undefined);
      await q.tap(box[0]!, box[1]!);
      expect(await inWindow(q, '#pad-arrows')).toBe(true);
      expect(await inWindow(q, '#pad-pause')).toBe(true);
      expect(await inWindow(q, '#pad-step')).toBe(true);
      // a room's events (bottom left over the map) stand above the pad's arrows, not under them
      const stack = await q.evaluate(() => ({ events: document.getElementById('play-events')!.getBoundingClientRect().bottom, pad: document.getElementById('pad-arrows')!.getBoundingClientRect().top }), undefined);
      expect(stack.events).toBeLessThanOrEqual(stack.pad);
      expect(await q.evaluate(() => document.getElementById('welcome-keys')!.innerText, undefined)).toMatch(/arrows at the bottom left, tap anything/);
      // The pad's ▲ held walks the player (as the ↑ key).
      await q.evaluate(() => window.retrosim.open('rugrats-demo', 0), undefined);
      const s0 = await state(q);
      await q.holdOn('#touch-pad .pad-up', async () => {
        await q.evaluate(() => window.retrosim.advance(30), undefined);
      });
      const s1 = await state(q);
      expect(s1['frame']).toBe(s0['frame'] + 30);
      expect(s1['player']).not.toEqual(s0['player']);
      // Pause and step.
      const paused = (await state(q))['paused'];
      await q.click('#pad-pause');
      expect((await state(q))['paused']).toBe(!paused);
      const f = (await state(q))['frame'];
      await q.click('#pad-step');
      const s2 = await state(q);
      expect(s2['frame']).toBe(f + 1);
      expect(s2['paused']).toBe(true);
    } finally {
      await q.close();
    }
  });
});
