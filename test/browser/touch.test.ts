/**
 * Small windows and touch, in Chromium and Firefox: the map takes most of any window (at 800 × 600 the map
 * canvas is what shows at 75 % or more of the window's points; on a 390 × 844 phone it is at least 90 % of the
 * width), the canvas follows the window's size, the side panels and the bars' controls fold and unfold by
 * their buttons, and on the map one finger pans (the camera moves by the drag), two fingers pinch (the zoom
 * changes by the fingers' spread, about the point between them), and a tap on an agent selects it.
 *
 * Touch is real input in both browsers, not events made up in the page:
 * - Chromium: the DevTools protocol's Input.dispatchTouchEvent (a CDP session of playwright-core), which feeds
 *   touch points to the browser's input pipeline as a touchscreen would (the page sees trusted pointer events
 *   of type 'touch'). playwright-core's page.touchscreen only taps, and needs a context made with hasTouch.
 * - Firefox: WebDriver BiDi's input.performActions with a pointer source of type "touch" (puppeteer-core's
 *   page.touchscreen: touchStart, then the handle's move and end), which Firefox turns into trusted pointer
 *   events of type 'touch'; two handles make a two-finger pinch.
 * Each test checks that the page saw trusted touch pointer events, so a fallback to the mouse cannot pass.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSandbox, openSandboxInFirefox, setFirefoxViewport, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

type Point = [number, number];
type Size = { width: number; height: number };

/** A browser's page and the touch it can make. Points are CSS pixels of the window. */
interface Driver {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  click(selector: string): Promise<void>;
  setSize(size: Size): Promise<void>;
  /** One finger: down at the first point, through the others, up at the last. */
  drag(path: readonly Point[]): Promise<void>;
  /** Two fingers: down at a[0] and b[0], moving together through the rest of a and b, then up. */
  pinch(a: readonly Point[], b: readonly Point[]): Promise<void>;
  tap(p: Point): Promise<void>;
  close(): Promise<void>;
}

function chromiumDriver(page: Page, cdp: CDPSession): Driver {
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], i) => ({ x, y, id: i + 1 })) });
  return {
    evaluate: (fn, arg) => page.evaluate(fn as (a: unknown) => never, arg),
    click: (s) => page.click(s),
    setSize: (s) => page.setViewportSize(s),
    async drag(path) {
      await touch('touchStart', [path[0]!]);
      for (const p of path.slice(1)) await touch('touchMove', [p]);
      await touch('touchEnd', []);
    },
    async pinch(a, b) {
      await touch('touchStart', [a[0]!, b[0]!]);
      for (let i = 1; i < a.length; i++) await touch('touchMove', [a[i]!, b[i]!]);
      await touch('touchEnd', []);
    },
    async tap(p) {
      await touch('touchStart', [p]);
      await touch('touchEnd', []);
    },
    close: () => page.close(),
  };
}

function firefoxDriver(page: FirefoxPage): Driver {
  return {
    evaluate: (fn, arg) => (page as unknown as { evaluate(f: unknown, a: unknown): Promise<never> }).evaluate(fn, arg),
    click: (s) => page.click(s),
    setSize: (s) => setFirefoxViewport(page, s),
    async drag(path) {
      const t = await page.touchscreen.touchStart(...path[0]!);
      for (const p of path.slice(1)) await t.move(...p);
      await t.end();
    },
    async pinch(a, b) {
      const ta = await page.touchscreen.touchStart(...a[0]!);
      const tb = await page.touchscreen.touchStart(...b[0]!);
      for (let i = 1; i < a.length; i++) {
        await ta.move(...a[i]!);
        await tb.move(...b[i]!);
      }
      await ta.end();
      await tb.end();
    },
    async tap(p) {
      const t = await page.touchscreen.touchStart(...p);
      await t.end();
    },
    close: () => page.close(),
  };
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

const BROWSERS = {
  async Chromium(size: Size): Promise<Driver> {
    const page = await openSandbox(h, { world: 'piney-default', agents: '40' }, size);
    return chromiumDriver(page, await h.browser.newCDPSession(page));
  },
  async Firefox(size: Size): Promise<Driver> {
    return firefoxDriver(await openSandboxInFirefox(ff, h.url, { world: 'piney-default', agents: '40' }, size));
  },
};

/** Opens the sandbox at `size`, held still (no animation frames of its own, paused) and drawn once. */
async function open(browser: keyof typeof BROWSERS, size: Size): Promise<Driver> {
  const d = await BROWSERS[browser](size);
  await d.evaluate(() => {
    window.retrosim.ticker(false);
    window.retrosim.pause();
    window.retrosim.render();
    // Every touch pointer event the page is given, to check that the input was real touch.
    const seen: string[] = [];
    (window as unknown as { touchSeen: string[] }).touchSeen = seen;
    for (const t of ['pointerdown', 'pointermove', 'pointerup'])
      window.addEventListener(t, (e) => {
        const p = e as PointerEvent;
        if (p.pointerType === 'touch' && p.isTrusted) seen.push(t);
      }, true);
  }, undefined);
  return d;
}

/** Polls the page until `fn` is true (a net of a minute: a loaded machine is slow, nothing here is timed). */
async function waitFor<A>(d: Driver, what: string, fn: (arg: A) => boolean, arg: A): Promise<void> {
  const end = Date.now() + 60_000;
  while (!(await d.evaluate(fn, arg))) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The share of a grid of points over the window at which the map canvas is what shows (nothing over it). */
const mapShare = (d: Driver) =>
  d.evaluate(() => {
    const cols = 40;
    const rows = 40;
    let hit = 0;
    for (let i = 0; i < cols; i++)
      for (let j = 0; j < rows; j++) if (document.elementFromPoint(((i + 0.5) * innerWidth) / cols, ((j + 0.5) * innerHeight) / rows)?.id === 'map') hit++;
    return hit / (cols * rows);
  }, undefined);

/** Whether the side panels are on screen: wholly inside the window, and what shows at their middle. */
const sideShown = () => {
  const side = document.getElementById('side')!;
  const r = side.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return false;
  return side.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
};
/** Whether the side panels are off screen: no point of them shows. */
const sideGone = () => {
  const side = document.getElementById('side')!;
  const r = side.getBoundingClientRect();
  const x0 = Math.max(0, r.left);
  const y0 = Math.max(0, r.top);
  const x1 = Math.min(innerWidth, r.right);
  const y1 = Math.min(innerHeight, r.bottom);
  if (x1 - x0 < 1 || y1 - y0 < 1) return true;
  return getComputedStyle(side).visibility === 'hidden' && !side.contains(document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2));
};

/** The map canvas's box in the window. */
const mapBox = (d: Driver) =>
  d.evaluate(() => {
    const r = document.getElementById('map')!.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height, innerWidth, innerHeight };
  }, undefined);

const state = (d: Driver) => d.evaluate(() => window.retrosim.state() as Record<string, any>, undefined);
const touchSeen = (d: Driver) => d.evaluate(() => (window as unknown as { touchSeen: string[] }).touchSeen.splice(0), undefined);

describe.each(['Chromium', 'Firefox'] as const)('%s', (browser) => {
  test('at 800 × 600 the map shows at 75 % or more of the window, and on a 390 × 844 phone it is 90 % or more of the width', async () => {
    const d = await open(browser, { width: 800, height: 600 });
    try {
      expect(await mapShare(d)).toBeGreaterThanOrEqual(0.75);
      const s = await state(d);
      expect(s['layout']).toEqual({ narrow: true, panels: false, controls: false });
      // The renderer draws at the canvas's size.
      expect(s['camera'].width).toBe(s['canvas'].cssWidth);
      expect(s['camera'].height).toBe(s['canvas'].cssHeight);
      // The canvas follows the window: to a phone's size, and back to a wide window with its panels' column.
      await d.setSize({ width: 390, height: 844 });
      await waitFor(d, 'the map fills the phone’s width', () => document.getElementById('map')!.getBoundingClientRect().width === innerWidth, undefined);
      const phone = await mapBox(d);
      expect(phone.width).toBeGreaterThanOrEqual(0.9 * 390);
      expect(phone.height).toBeGreaterThanOrEqual(0.75 * 844);
      expect(await mapShare(d)).toBeGreaterThanOrEqual(0.75);
      expect((await state(d))['camera'].width).toBe(phone.width);
      await d.setSize({ width: 1280, height: 800 });
      await waitFor(d, 'the panels are a column beside the map again', sideShown, undefined);
      // The window reaches its new size in steps under load: wait for the last one before measuring.
      await waitFor(
        d,
        'the map and the panels’ column share the 1,280 px window',
        () => innerWidth === 1280 && Math.abs(document.getElementById('map')!.getBoundingClientRect().width + document.getElementById('side')!.getBoundingClientRect().width - 1280) < 0.5,
        undefined,
      );
      const wide = await mapBox(d);
      const side = await d.evaluate(() => document.getElementById('side')!.getBoundingClientRect().width, undefined);
      expect(wide.width + side).toBeCloseTo(1280, 0);
      expect((await state(d))['layout']).toEqual({ narrow: false, panels: true, controls: true });
    } finally {
      await d.close();
    }
  });

  test('the side panels open and close by their button, and the bars’ controls fold behind the menu button', async () => {
    const d = await open(browser, { width: 800, height: 600 });
    try {
      // Narrow: the panels start folded and slide over the map when asked (the map keeps its size).
      expect(await d.evaluate(sideGone, undefined)).toBe(true);
      const before = await mapBox(d);
      await d.click('#panels-toggle');
      await waitFor(d, 'the panels are shown', sideShown, undefined);
      expect((await state(d))['layout'].panels).toBe(true);
      expect(await mapBox(d)).toEqual(before);
      await d.click('#panels-toggle');
      await waitFor(d, 'the panels are gone', sideGone, undefined);
      expect((await state(d))['layout'].panels).toBe(false);
      expect(await mapShare(d)).toBeGreaterThanOrEqual(0.75);
      // The controls: hidden behind the menu button, shown by it, folded again by a touch on the map.
      const worldMenuShown = () => document.getElementById('world')!.getClientRects().length > 0;
      expect(await d.evaluate(worldMenuShown, undefined)).toBe(false);
      const cam = (await state(d))['camera'];
      await d.click('#menu-toggle');
      await waitFor(d, 'the world menu is shown', worldMenuShown, undefined);
      const box = await mapBox(d);
      await d.tap([box.left + box.width / 2, box.top + box.height / 2]);
      await waitFor(d, 'the world menu is folded', () => document.getElementById('world')!.getClientRects().length === 0, undefined);
      // That touch only folded the menu: it selected nothing and moved nothing (the opening view is kept, as
      // before the menu took its room).
      const s = await state(d);
      expect(s['selection']).toBeNull();
      expect(s['camera']).toEqual(cam);
      expect(cam.framed).toBe(true);
      // Wide: the panels are a column beside the map. They were closed by hand, and stay closed (the map has the
      // whole width) until opened; closing them again gives the map the whole width back.
      await d.setSize({ width: 1100, height: 700 });
      const fullWidth = () => document.getElementById('map')!.getBoundingClientRect().width === innerWidth;
      await waitFor(d, 'the map takes the whole wide window', fullWidth, undefined);
      expect(await d.evaluate(sideGone, undefined)).toBe(true);
      expect((await state(d))['layout']).toEqual({ narrow: false, panels: false, controls: true });
      await d.click('#panels-toggle');
      await waitFor(d, 'the panels are a column', sideShown, undefined);
      const withPanels = await mapBox(d);
      const sideLeft = await d.evaluate(() => document.getElementById('side')!.getBoundingClientRect().left, undefined);
      expect(withPanels.left + withPanels.width).toBeLessThanOrEqual(sideLeft + 0.5);
      await d.click('#panels-toggle');
      await waitFor(d, 'the map takes the whole width again', fullWidth, undefined);
      expect(await d.evaluate(sideGone, undefined)).toBe(true);
    } finally {
      await d.close();
    }
  });

  test('touch: one finger pans by the drag, two fingers pinch-zoom about their centre, a tap on an agent selects it', async () => {
    const d = await open(browser, { width: 800, height: 600 });
    try {
      // From the whole world: the opening view is close about the player, where after the pan and the pinch
      // below too few of the 40 agents are left on screen to find one standing alone to tap.
      await d.evaluate(() => {
        window.retrosim.overview();
        window.retrosim.render();
      }, undefined);
      const box = await mapBox(d);
      const at = (x: number, y: number): Point => [box.left + x, box.top + y];
      // Pan: the camera's centre moves by the drag (in map units: pixels over the zoom), the zoom stays.
      const c0 = (await state(d))['camera'];
      await d.drag([at(200, 250), at(230, 265), at(260, 280), at(290, 295), at(320, 310)]);
      expect(await touchSeen(d)).toContain('pointermove');
      const c1 = (await state(d))['camera'];
      expect(c1.zoom).toBe(c0.zoom);
      expect(Math.abs((c0.cx - c1.cx) * c0.zoom - 120)).toBeLessThan(1.5);
      expect(Math.abs((c0.cy - c1.cy) * c0.zoom - 60)).toBeLessThan(1.5);
      expect(c1.framed).toBe(false);
      // Pinch: fingers 100 px apart spread to 200 px about (400, 300) of the map: twice the zoom, and the map
      // point that was between them is still between them.
      const mid: Point = [400, 300];
      const under = [(mid[0] - c1.width / 2) / c1.zoom + c1.cx, (mid[1] - c1.height / 2) / c1.zoom + c1.cy];
      const steps = [50, 60, 70, 80, 90, 100];
      await d.pinch(
        steps.map((r) => at(mid[0] - r, mid[1])),
        steps.map((r) => at(mid[0] + r, mid[1])),
      );
      expect(await touchSeen(d)).toContain('pointerdown');
      const c2 = (await state(d))['camera'];
      expect(c2.zoom / c1.zoom).toBeGreaterThan(1.9);
      expect(c2.zoom / c1.zoom).toBeLessThan(2.1);
      const back = [(under[0]! - c2.cx) * c2.zoom + c2.width / 2, (under[1]! - c2.cy) * c2.zoom + c2.height / 2];
      expect(Math.abs(back[0]! - mid[0])).toBeLessThan(3);
      expect(Math.abs(back[1]! - mid[1])).toBeLessThan(3);
      expect((await state(d))['selection']).toBeNull();
      // Tap: an agent on screen with no other entity near it (the pick takes the nearest within 12 px).
      await d.evaluate(() => window.retrosim.render(), undefined);
      const target = await d.evaluate(
        ([w, hgt]) => {
          const points: [number, number, number][] = [];
          for (let id = 0; id < 200; id++) {
            const p = window.retrosim.entityScreen(id);
            if (p) points.push([id, p[0], p[1]]);
          }
          const lonely = points.filter(([id, x, y]) => id >= 2 && x > 40 && y > 60 && x < w - 120 && y < hgt - 40 && points.every(([j, u, v]) => j === id || Math.hypot(u - x, v - y) > 30));
          return lonely[0] ?? null;
        },
        [box.width, box.height] as const,
      );
      expect(target, 'an agent alone on screen').not.toBeNull();
      const [id, sx, sy] = target!;
      await d.tap(at(sx, sy));
      expect(await touchSeen(d)).toContain('pointerup');
      const picked = await state(d);
      expect(picked['selection']).toEqual({ kind: 'entity', id });
      expect(picked['entity'].role).toBe('agent');
      // The tap moved nothing.
      const c3 = (await state(d))['camera'];
      expect([c3.cx, c3.cy, c3.zoom]).toEqual([c2.cx, c2.cy, c2.zoom]);
    } finally {
      await d.close();
    }
  });
});
