/**
 * The Piney weather as the docs say, read from the pixels: a night row is tinted (a night frame's mean
 * brightness is below a day frame's of the same field), the storm's bolt shows on the frames its operation
 * list has it (four frames every 30-59, the first after 60-119 drawn frames) and stays in view when its place
 * is outside it, the flash frame (the first at the 750th drawn frame) is brighter than the one before, and
 * the traveller's airship's colour is in the frame while the ambient state shows it, and gone when it does
 * not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WEATHER_COLOURS } from '../../src/render/scene/palette.js';
import { openSandbox, startHarness, type Harness } from './harness.js';
import { decodePng, type Image } from './pixels.js';

const SHOTS = 'out/screenshots';

let h: Harness;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
  page = await openSandbox(h, { world: 'piney-default', agents: '0' });
  await page.evaluate(() => {
    window.retrosim.ticker(false);
    window.retrosim.pause();
  });
});

afterAll(async () => {
  await h?.close();
});

async function state(): Promise<Record<string, any>> {
  return page.evaluate(() => window.retrosim.state());
}

async function open(id: string): Promise<void> {
  await page.evaluate((w) => window.retrosim.open(w, 0), id);
}

async function mapShot(name: string): Promise<Image> {
  const url = await page.evaluate(() => {
    window.retrosim.render();
    return (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png');
  });
  const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  writeFileSync(join(SHOTS, `${name}.png`), bytes);
  return decodePng(new Uint8Array(bytes));
}

/** Mean brightness (0..255, the channels' mean) over a rectangle, or the whole image. */
function meanBrightness(img: Image, r?: readonly number[]): number {
  const [x0, y0, x1, y1] = r ? r.map((v) => Math.round(v)) : [0, 0, img.width, img.height];
  let s = 0;
  let n = 0;
  for (let y = Math.max(0, y0!); y < Math.min(img.height, y1!); y++) {
    for (let x = Math.max(0, x0!); x < Math.min(img.width, x1!); x++) {
      const i = (y * img.width + x) * 4;
      s += (img.data[i]! + img.data[i + 1]! + img.data[i + 2]!) / 3;
      n++;
    }
  }
  return s / n;
}

function countColour(img: Image, c: number, tol: number): number {
  const rgb = [(c >> 16) & 255, (c >> 8) & 255, c & 255];
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if (Math.abs(img.data[i]! - rgb[0]!) <= tol && Math.abs(img.data[i + 1]! - rgb[1]!) <= tol && Math.abs(img.data[i + 2]! - rgb[2]!) <= tol) n++;
  }
  return n;
}

describe('night', () => {
  test('a night row is tinted: the storm at night is darker than the default field by day, over the same ground', async () => {
    // The whole world framed (Piney opens close about the player), so the background shows in the margins.
    await open('piney-default');
    await page.evaluate(() => {
      window.retrosim.overview();
      window.retrosim.advance(10);
    });
    const d = await state();
    expect(d['ambience'].time).toBe('day');
    const day = await mapShot('weather-day');
    await open('piney-storm');
    await page.evaluate(() => {
      window.retrosim.overview();
      window.retrosim.advance(10);
    });
    const n = await state();
    expect(n['ambience'].time).toBe('night');
    expect(n['ambience'].weather).toBe('storm');
    const night = await mapShot('weather-night');
    const rect = d['worldOnScreen'] as number[];
    expect(n['worldOnScreen']).toEqual(rect);
    const bd = meanBrightness(day, rect);
    const bn = meanBrightness(night, rect);
    expect(bn).toBeLessThan(bd * 0.7);
    // The margins outside the world are the background in both (the tint lies over the world only).
    expect(Math.abs(meanBrightness(day, [0, 0, 10, 10]) - meanBrightness(night, [0, 0, 10, 10]))).toBeLessThan(1);
  });
});

describe('the storm', () => {
  test('bolts on the frames the operation list has them, at the documented intervals, drawn brighter than the frames around', async () => {
    await open('piney-storm');
    const frames = (await page.evaluate(() => {
      const out: [number, boolean, number][] = [];
      for (let f = 0; f < 760; f++) {
        window.retrosim.advance(1);
        const s = window.retrosim.state();
        const w = (s['weather'] ?? {}) as Record<string, number>;
        out.push([s['frame'] as number, (s['sky'] as { bolt: boolean }).bolt, Object.keys(w).filter((k) => k.includes('thu')).length]);
      }
      return out;
    })) as [number, boolean, number][];
    // The drawing follows the list: a bolt is drawn exactly on the frames whose operations have one.
    for (const [f, drawn, inOps] of frames) expect(drawn, `frame ${f}`).toBe(inOps > 0);
    const on = frames.filter(([, d]) => d).map(([f]) => f);
    const starts = on.filter((f, i) => i === 0 || on[i - 1] !== f - 1);
    expect(starts.length).toBeGreaterThan(8);
    // Four frames each; 30-59 frames apart; the first after 60-119 drawn frames (the first draw is frame 3).
    for (const s of starts) expect(on.filter((f) => f >= s && f < s + 4)).toEqual([s, s + 1, s + 2, s + 3]);
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(30);
      expect(starts[i]! - starts[i - 1]!).toBeLessThanOrEqual(59);
    }
    expect(starts[0]! - 2).toBeGreaterThanOrEqual(60);
    expect(starts[0]! - 2).toBeLessThanOrEqual(119);
    // Pixels: a bolt frame against the frame after its four (the same field, no agents).
    await open('piney-storm');
    await page.evaluate((f) => window.retrosim.advance(f), starts[2]!);
    const bolt = await mapShot('storm-bolt');
    await page.screenshot({ path: join(SHOTS, 'page-storm-bolt.png') });
    await page.evaluate(() => window.retrosim.advance(4));
    expect((await state())['sky'].bolt).toBe(false);
    const none = await mapShot('storm-no-bolt');
    const glow = WEATHER_COLOURS.boltGlow;
    expect(countColour(bolt, WEATHER_COLOURS.bolt, 12) + countColour(bolt, glow, 40)).toBeGreaterThan(countColour(none, WEATHER_COLOURS.bolt, 12) + countColour(none, glow, 40) + 30);
  });

  test('a bolt whose place is outside the view is drawn at the edge of the view', async () => {
    await open('piney-storm');
    // Follow the player, close in: the bolt (120 m ahead of the weather's viewer) is off screen.
    await page.keyboard.press('f');
    for (let i = 0; i < 8; i++) await page.keyboard.press('+');
    let found = false;
    for (let f = 0; f < 200 && !found; f++) {
      await page.evaluate(() => window.retrosim.advance(1));
      const s = await state();
      if (s['sky'].bolt) {
        found = true;
        expect(s['sky'].boltClamped).toBe(true);
        const img = await mapShot('storm-bolt-at-edge');
        expect(countColour(img, WEATHER_COLOURS.bolt, 12)).toBeGreaterThan(40);
      }
    }
    expect(found).toBe(true);
  });

  test('the flash: the first at the 750th drawn frame, brighter than the frame before, fading over its frames', async () => {
    await open('piney-storm');
    const flashAt = (await page.evaluate(() => {
      for (let f = 0; f < 900; f++) {
        window.retrosim.advance(1);
        if ((window.retrosim.state()['sky'] as { flash: number }).flash > 0) return window.retrosim.state()['frame'] as number;
      }
      return -1;
    })) as number;
    expect(flashAt - 2).toBe(750);
    // The same field again, to the frame before, then the flash frame and the next ones.
    await open('piney-storm');
    await page.evaluate((f) => window.retrosim.advance(f), flashAt - 1);
    const before = await mapShot('storm-before-flash');
    await page.evaluate(() => window.retrosim.advance(1));
    const flash = await mapShot('storm-flash');
    const b0 = meanBrightness(before);
    const b1 = meanBrightness(flash);
    expect(b1).toBeGreaterThan(b0 + 60);
    const alphas: number[] = [];
    for (let i = 0; i < 10; i++) {
      alphas.push((await state())['sky'].flash as number);
      await page.evaluate(() => window.retrosim.advance(1));
    }
    expect(alphas[0]).toBeGreaterThan(0.5);
    for (let i = 1; i < alphas.length; i++) expect(alphas[i]).toBeLessThanOrEqual(alphas[i - 1]!);
    expect((await state())['sky'].flash).toBe(0);
    expect(meanBrightness(await mapShot('storm-after-flash'))).toBeLessThan(b0 + 5);
  });
});

describe('the traveller', () => {
  test('the airship\'s colour is in the frame while the ambient state shows it, also from outside the view, and gone while it sleeps', async () => {
    await open('piney-traveller');
    await page.evaluate(() => window.retrosim.advance(30));
    let s = await state();
    expect(s['weather']['tobj']).toBeGreaterThan(0);
    expect(s['ambience'].traveller).toBe("Δ's airship");
    const shown = await mapShot('traveller-shown');
    expect(countColour(shown, WEATHER_COLOURS.traveller, 10)).toBeGreaterThan(40);
    // Close in on the player: the airship's place is off screen, and it is drawn at the edge.
    await page.keyboard.press('f');
    for (let i = 0; i < 8; i++) await page.keyboard.press('+');
    await page.evaluate(() => window.retrosim.advance(1));
    s = await state();
    expect(s['weather']['tobj']).toBeGreaterThan(0);
    expect(s['sky'].travellerClamped).toBe(true);
    expect(countColour(await mapShot('traveller-at-edge'), WEATHER_COLOURS.traveller, 10)).toBeGreaterThan(40);
    // On until its crossing ends and it sleeps: then the list has no airship, and the frame has no airship colour.
    await page.keyboard.press('0');
    const asleepAt = (await page.evaluate(() => {
      for (let f = 0; f < 3000; f++) {
        window.retrosim.advance(1);
        const w = (window.retrosim.state()['weather'] ?? {}) as Record<string, number>;
        if (!w['tobj']) return window.retrosim.state()['frame'] as number;
      }
      return -1;
    })) as number;
    expect(asleepAt).toBeGreaterThan(0);
    s = await state();
    expect(s['sky'].traveller).toBe(false);
    expect(countColour(await mapShot('traveller-asleep'), WEATHER_COLOURS.traveller, 10)).toBeLessThan(5);
  });
});
