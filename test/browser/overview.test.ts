/**
 * Overview first, in a real browser: every world opens framed (a small one whole, a large one closer about the
 * player) and Overview frames it whole against the canvas (centred, the margin kept on the binding side, the
 * drawn pixels inside that rectangle), the Piney field at its whole-field view; the overview inset shows the camera's rectangle and a click in it jumps there; zoom (also out past
 * the framed view) and pan work on every world; the page reflows when the window shrinks and the world is
 * framed again; the world menu gives the keyboard back to the map; drawing follows devicePixelRatio with
 * one-device-pixel grid lines. Screenshots of every world go to out/screenshots/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSandbox, startHarness, type Harness } from './harness.js';
import { decodePng, type Image } from './pixels.js';
import { OVERVIEW_VIEW_COLOUR } from '../../src/render/scene/palette.js';

/** The colour the camera's rectangle is drawn in, as RGB (other light greys and whites are not it). */
const RECT = [(OVERVIEW_VIEW_COLOUR >> 16) & 255, (OVERVIEW_VIEW_COLOUR >> 8) & 255, OVERVIEW_VIEW_COLOUR & 255] as const;

const SHOTS = 'out/screenshots';
const BACKGROUND: [number, number, number] = [16, 20, 26];
/** The margin the camera keeps around a framed world (src/render/scene/camera.ts FRAME_MARGIN). */
const MARGIN = 24;
const WORLDS = ['piney-default', 'piney-storm', 'piney-snow', 'piney-traveller', 'rugrats-demo', 'rugrats-hand', 'llama-demo', 'colbin-demo', 'gta-town'];

let h: Harness;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
  page = await openSandbox(h, { world: 'piney-default' });
  await page.evaluate(() => {
    window.retrosim.ticker(false);
    window.retrosim.pause();
  });
});

afterAll(async () => {
  await h?.close();
});

async function state(p: Page = page): Promise<Record<string, any>> {
  return p.evaluate(() => window.retrosim.state());
}

/** The map canvas's own pixels (its backing store, device pixels), also saved under out/screenshots/. */
async function mapShot(p: Page, name: string): Promise<Image> {
  const url = await p.evaluate(() => {
    window.retrosim.render();
    return (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png');
  });
  const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  writeFileSync(join(SHOTS, `${name}.png`), bytes);
  return decodePng(new Uint8Array(bytes));
}

/** The bounding box of the pixels that are not the background (tolerance 6 per channel). */
function drawnBox(img: Image): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const d = Math.max(Math.abs(img.data[i]! - BACKGROUND[0]), Math.abs(img.data[i + 1]! - BACKGROUND[1]), Math.abs(img.data[i + 2]! - BACKGROUND[2]));
      if (d <= 6) continue;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
    }
  }
  return [x0, y0, x1, y1];
}

/** The world's rectangle on screen, checked against the canvas: inside the margins, centred, touching them on one axis. */
function expectFramed(s: Record<string, any>): void {
  const [x0, y0, x1, y1] = s['worldOnScreen'] as number[];
  const w = s['camera'].width as number;
  const hgt = s['camera'].height as number;
  expect(s['canvas'].cssWidth).toBe(w);
  expect(s['canvas'].cssHeight).toBe(hgt);
  // The device offset is rounded to whole device pixels: half a pixel of slack.
  const tol = 1;
  expect(x0!).toBeGreaterThanOrEqual(MARGIN - tol);
  expect(y0!).toBeGreaterThanOrEqual(MARGIN - tol);
  expect(x1!).toBeLessThanOrEqual(w - MARGIN + tol);
  expect(y1!).toBeLessThanOrEqual(hgt - MARGIN + tol);
  expect(Math.abs(x0! - (w - x1!))).toBeLessThanOrEqual(2 * tol);
  expect(Math.abs(y0! - (hgt - y1!))).toBeLessThanOrEqual(2 * tol);
  expect(Math.min(Math.abs(x0! - MARGIN), Math.abs(y0! - MARGIN))).toBeLessThanOrEqual(tol);
}

describe('every world opens framed (whole, or closer for a large one) and Overview frames it whole', () => {
  test.each(WORLDS)('%s: centred in the canvas with margins; the drawn pixels lie inside the world\'s rectangle', async (id) => {
    await page.evaluate((w) => window.retrosim.open(w, null), id);
    await page.evaluate(() => window.retrosim.advance(20));
    const s0 = await state();
    expect(s0['error']).toBe('');
    expect(s0['camera'].framed).toBe(true);
    // A world too large to read whole (the Piney field, the GTA town) opens closer, at 6 pixels a metre about
    // the player (test/browser/look.test.ts checks that view); Overview frames it whole.
    const large = id.startsWith('piney') || id === 'gta-town';
    expect(s0['camera'].zoom > s0['camera'].fitZoom * 1.01).toBe(large);
    if (large) expect(s0['camera'].zoom * s0['worldScale']).toBeCloseTo(6, 5);
    await page.evaluate(() => {
      window.retrosim.overview();
      window.retrosim.render();
    });
    const s = await state();
    expect(s['camera'].framed).toBe(true);
    expectFramed(s);
    if (id.startsWith('piney')) {
      // The whole field: 48,000 units a side.
      expect(s['worldRect']).toEqual({ x: 0, y: -48000, width: 48000, height: 48000 });
    }
    const img = await mapShot(page, `overview-${id}`);
    const [bx0, by0, bx1, by1] = drawnBox(img);
    const [x0, y0, x1, y1] = s['worldOnScreen'] as number[];
    // The picture fills the rectangle (to within the ground's edge pixels) and nothing is drawn in the margins
    // beyond an arrow's size (bodies at the world's edge may stick out a little).
    expect(bx0).toBeGreaterThanOrEqual(x0! - 16);
    expect(by0).toBeGreaterThanOrEqual(y0! - 16);
    expect(bx1).toBeLessThanOrEqual(x1! + 16);
    expect(by1).toBeLessThanOrEqual(y1! + 16);
    expect(bx1 - bx0).toBeGreaterThan((x1! - x0!) * 0.9);
    expect(by1 - by0).toBeGreaterThan((y1! - y0!) * 0.9);
  });
});

describe('zoom and pan on every world', () => {
  test.each(WORLDS.filter((w) => !w.startsWith('piney-') || w === 'piney-default'))('%s: the wheel zooms in and out (past the framed view), a drag pans', async (id) => {
    await page.evaluate((w) => window.retrosim.open(w, null), id);
    await page.evaluate(() => {
      window.retrosim.overview();
      window.retrosim.render();
    });
    const s0 = await state();
    const box = (await page.locator('#map').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -120);
    await page.evaluate(() => window.retrosim.render());
    const s1 = await state();
    expect(s1['camera'].zoom).toBeGreaterThan(s0['camera'].zoom * 1.2);
    expect(s1['camera'].framed).toBe(false);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 120);
    await page.evaluate(() => window.retrosim.render());
    const s2 = await state();
    // Out past the framed view: the whole world is smaller than the framed one.
    expect(s2['camera'].zoom).toBeLessThan(s0['camera'].fitZoom * 0.9);
    const before = await mapShot(page, `zoomed-out-${id}`);
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 60, { steps: 4 });
    await page.mouse.up();
    await page.evaluate(() => window.retrosim.render());
    const s3 = await state();
    const dz = s3['camera'].zoom as number;
    expect((s2['camera'].cx - s3['camera'].cx) * dz).toBeCloseTo(120, 0);
    expect((s2['camera'].cy - s3['camera'].cy) * dz).toBeCloseTo(60, 0);
    const after = await mapShot(page, `panned-${id}`);
    // The picture moved by the drag: the drawn box moved with it.
    const a = drawnBox(before);
    const b = drawnBox(after);
    expect(b[0] - a[0]).toBeGreaterThan(100);
    expect(b[1] - a[1]).toBeGreaterThan(40);
    // 0 frames the world again.
    await page.keyboard.press('0');
    await page.evaluate(() => window.retrosim.render());
    expectFramed(await state());
  });
});

describe('the overview inset', () => {
  test('shows the camera\'s rectangle; a click in it jumps there', async () => {
    await page.evaluate(() => window.retrosim.open('gta-town', null));
    // Zoomed in far enough that the camera's rectangle fits in the inset around the click.
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    await page.evaluate(() => window.retrosim.render());
    const mini = (await page.locator('#minimap').boundingBox())!;
    // A click a quarter of the way in: the camera centres on the map point under it.
    await page.mouse.click(mini.x + mini.width * 0.25, mini.y + mini.height * 0.75);
    await page.evaluate(() => window.retrosim.render());
    const s = await state();
    const r = s['worldRect'];
    // The inset keeps a 3-pixel border around the map, aspect kept (the town is square).
    const inner = mini.width - 2 - 6;
    const want = [r.x + ((mini.width * 0.25 - 1 - 3) / inner) * r.width, r.y + ((mini.height * 0.75 - 1 - 3) / inner) * r.height];
    expect(Math.abs(s['camera'].cx - want[0]!)).toBeLessThan(r.width / 40);
    expect(Math.abs(s['camera'].cy - want[1]!)).toBeLessThan(r.height / 40);
    expect(s['camera'].framed).toBe(false);
    // The camera's rectangle is drawn in its own colour around the jumped-to place.
    const inset = decodePng(new Uint8Array(await page.locator('#minimap').screenshot({ path: join(SHOTS, 'overview-inset-gta.png') })));
    let yellow = 0;
    let yx = 0;
    let yy = 0;
    for (let y = 0; y < inset.height; y++) {
      for (let x = 0; x < inset.width; x++) {
        const i = (y * inset.width + x) * 4;
        if (Math.abs(inset.data[i]! - RECT[0]) < 10 && Math.abs(inset.data[i + 1]! - RECT[1]) < 10 && Math.abs(inset.data[i + 2]! - RECT[2]) < 10) {
          yellow++;
          yx += x;
          yy += y;
        }
      }
    }
    expect(yellow).toBeGreaterThan(20);
    const scale = inset.width / mini.width;
    expect(Math.abs(yx / yellow / scale - mini.width * 0.25)).toBeLessThan(mini.width * 0.1);
    expect(Math.abs(yy / yellow / scale - mini.height * 0.75)).toBeLessThan(mini.height * 0.1);
  });
});

describe('resize, focus, device pixels', () => {
  test('shrinking the window reflows the header and the canvas, and the world is framed again', async () => {
    const p = await openSandbox(h, { world: 'llama-demo' }, { width: 1200, height: 800 });
    try {
      await p.evaluate(() => {
        window.retrosim.ticker(false);
        window.retrosim.render();
      });
      const big = await state(p);
      expectFramed(big);
      const header0 = (await p.locator('header').boundingBox())!;
      await p.setViewportSize({ width: 560, height: 420 });
      // A narrow window: the map takes the whole width (the side panels fold away).
      await p.waitForFunction(() => (window.retrosim.state()['canvas'] as { cssWidth: number }).cssWidth === 560, null, { timeout: 30_000 });
      await p.evaluate(() => window.retrosim.render());
      const small = await state(p);
      expect(small['camera'].width).toBeLessThan(big['camera'].width);
      expect(small['camera'].height).toBeLessThan(big['camera'].height);
      expectFramed(small);
      // The header folded into one thin row (its controls behind the menu button); nothing sticks out of the window.
      const header1 = (await p.locator('header').boundingBox())!;
      expect(header1.height).toBeLessThanOrEqual(header0.height);
      expect(small['layout']).toEqual({ narrow: true, panels: false, controls: false });
      expect(header1.width).toBeLessThanOrEqual(560);
      const map = (await p.locator('#map').boundingBox())!;
      expect(map.x + map.width).toBeLessThanOrEqual(560 + 0.5);
      expect(map.y + map.height).toBeLessThanOrEqual(420 + 0.5);
      const side = (await p.locator('#side').boundingBox())!;
      expect(side.x + side.width).toBeLessThanOrEqual(560 + 0.5);
      await mapShot(p, 'resized-llama');
    } finally {
      await p.close();
    }
  });

  test('choosing a world in the menu gives the keyboard back to the map: the arrows walk, they do not change the world', async () => {
    await page.evaluate(() => window.retrosim.open('piney-default', 0));
    await page.selectOption('#world', 'colbin-demo');
    await page.waitForFunction(() => window.retrosim.state()['kind'] === 'colbin', null, { timeout: 30_000 });
    expect((await state())['focus']).toBe('map');
    const s0 = await state();
    await page.keyboard.down('ArrowDown');
    expect((await state())['buttons']).not.toBe(0);
    await page.evaluate(() => window.retrosim.advance(20));
    await page.keyboard.up('ArrowDown');
    await page.keyboard.down('KeyW');
    await page.evaluate(() => window.retrosim.advance(20));
    await page.keyboard.up('KeyW');
    const s1 = await state();
    expect(s1['kind']).toBe('colbin');
    expect(s1['menu']).toBe('colbin-demo');
    expect(s1['player']).not.toEqual(s0['player']);
    // A button too: after a click, the keys go to the map (Space is Action, not the button again).
    await page.click('#overview');
    expect((await state())['focus']).toBe('map');
  });

  test('devicePixelRatio 2: the canvas has twice the pixels, and grid lines are one device pixel wide', async () => {
    const p = await h.browser.newPage();
    try {
      const cdp = await h.browser.newCDPSession(p);
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1024, height: 720, deviceScaleFactor: 2, mobile: false });
      await p.goto(`${h.url}?mute=1&world=llama-demo&agents=0`);
      await p.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, null, { timeout: 60_000 });
      await p.evaluate(() => window.retrosim.ready);
      await p.evaluate(() => {
        window.retrosim.ticker(false);
        window.retrosim.render();
      });
      const s = await state(p);
      expect(s['resolution']).toBe(2);
      expect(s['canvas'].width).toBe(2 * s['canvas'].cssWidth);
      expect(s['canvas'].height).toBe(2 * s['canvas'].cssHeight);
      // The Llama cell grid: each line one device pixel, its neighbours untouched.
      const img = await mapShot(p, 'dpr2-llama');
      expect(img.width).toBe(s['canvas'].width);
      const [x0, y0, x1, y1] = (s['worldOnScreen'] as number[]).map((v) => Math.round(v * 2));
      const rowY = Math.round((y0! + y1!) / 2);
      const lum = (x: number) => {
        const i = (rowY * img.width + x) * 4;
        return img.data[i]! + img.data[i + 1]! + img.data[i + 2]!;
      };
      // Along a row through the level: the grid's vertical lines are single dark pixels.
      const runs: number[] = [];
      let run = 0;
      for (let x = x0! + 4; x < x1! - 4; x++) {
        const dark = lum(x) < Math.min(lum(x - 2), lum(x + 2)) - 24;
        if (dark) run++;
        else if (run) {
          runs.push(run);
          run = 0;
        }
      }
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(runs.every((r) => r === 1)).toBe(true);
    } finally {
      await p.close();
    }
  });
});
