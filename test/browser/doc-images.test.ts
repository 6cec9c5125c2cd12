/**
 * The pictures of docs/sandbox.md, made from the real sandbox: each test opens a view, drives its frames,
 * checks that the view shows what the caption says (the state and the pixels), and saves a screenshot of the
 * whole page (or of the map, for the worlds' opening views) to out/screenshots/docs/. With RETROSIM_DOC_IMAGES=1
 * the screenshots also replace the files of docs/images/: `npm run doc-images` refreshes them all (the first
 * screen, each world's opening view, and the pictures of the features).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { ENTITY_COLOURS, WEATHER_COLOURS } from '../../src/render/scene/palette.js';
import { liveSpan } from '../../src/render/scene/timeline.js';
import { tamperHash } from '../render/helpers.js';
import { openSandbox, useDrivenSandbox } from './harness.js';
import { countColour, decodePng, type Image } from './pixels.js';

const OUT = 'out/screenshots/docs';
const REPLAYS = 'out/replays';
const REFRESH = process.env['RETROSIM_DOC_IMAGES'] === '1';

const sandbox = useDrivenSandbox({ world: 'piney-storm' }, [OUT, REPLAYS]);
const { state, open } = sandbox;
// The tests drive the sandbox's page directly.
let page: Page;
beforeAll(() => {
  page = sandbox.page;
});

/**
 * Writes a screenshot into docs/images/ small: each channel's two low bits dropped (invisible, and the file
 * deflates to about half), at the strongest compression.
 */
function keepDocImage(path: string, name: string): void {
  const png = PNG.sync.read(readFileSync(path));
  for (let i = 0; i < png.data.length; i++) if ((i & 3) !== 3) png.data[i] = png.data[i]! & 0xfc;
  writeFileSync(join('docs/images', `${name}.png`), PNG.sync.write(png, { colorType: 2, deflateLevel: 9 }));
}

/** Renders, screenshots the whole page as the doc's image `name`, and returns the map canvas's pixels. */
async function docShot(name: string): Promise<Image> {
  const map = await sandbox.mapCanvasPng();
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path });
  const shot = decodePng(new Uint8Array(readFileSync(path)));
  expect([shot.width, shot.height]).toEqual([1024, 720]);
  if (REFRESH) keepDocImage(path, name);
  return decodePng(map);
}

/** Screenshots the map canvas alone (a smaller file) as the doc's image `name`; returns its pixels. */
async function mapDocShot(name: string): Promise<Image> {
  await page.evaluate(() => window.retrosim.render());
  const path = join(OUT, `${name}.png`);
  await page.locator('#map').screenshot({ path });
  if (REFRESH) keepDocImage(path, name);
  return decodePng(new Uint8Array(readFileSync(path)));
}

/** The five worlds' opening views, as docs/sandbox.md shows them. */
const OPENING_VIEWS: readonly [string, string][] = [
  ['piney-default', 'sandbox-open-piney'],
  ['rugrats-demo', 'sandbox-open-rugrats'],
  ['llama-demo', 'sandbox-open-llama'],
  ['colbin-demo', 'sandbox-open-colbin'],
  ['gta-town', 'sandbox-open-gta'],
];

describe('the first screen and the opening views', () => {
  test('sandbox-first-screen: the page as it opens with no link', async () => {
    const first = await openSandbox(sandbox.harness, {}, { width: 1280, height: 800 });
    try {
      await first.evaluate(() => {
        window.retrosim.ticker(false);
        window.retrosim.pause();
        window.retrosim.advance(30);
      });
      const s = await first.evaluate(() => window.retrosim.state());
      expect(s['kind']).toBe('rugrats');
      expect(s['rays']).toBe('off');
      expect(s['error']).toBe('');
      const path = join(OUT, 'sandbox-first-screen.png');
      await first.screenshot({ path });
      expect(decodePng(new Uint8Array(readFileSync(path))).width).toBe(1280);
      if (REFRESH) keepDocImage(path, 'sandbox-first-screen');
    } finally {
      await first.close();
    }
  });

  test('sandbox-first-screen-phone: the page as it opens on a 390 × 844 phone, after a first touch', async () => {
    const phone = await openSandbox(sandbox.harness, {}, { width: 390, height: 844 });
    try {
      await phone.evaluate(() => {
        window.retrosim.ticker(false);
        window.retrosim.pause();
        window.retrosim.advance(30);
      });
      // A finger on the map (a real touch, as a phone sends it) brings the pad.
      const cdp = await phone.context().newCDPSession(phone);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 195, y: 600, id: 1 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await phone.evaluate(() => window.retrosim.render());
      expect(await phone.locator('#intro').isVisible()).toBe(true);
      expect(await phone.locator('#pad-arrows').isVisible()).toBe(true);
      const path = join(OUT, 'sandbox-first-screen-phone.png');
      await phone.screenshot({ path });
      expect(decodePng(new Uint8Array(readFileSync(path))).width).toBe(390);
      if (REFRESH) keepDocImage(path, 'sandbox-first-screen-phone');
    } finally {
      await phone.close();
    }
  });

  test.each(OPENING_VIEWS)('%s: its opening view, agents walking', async (id, name) => {
    await open(id, null);
    await page.evaluate(() => window.retrosim.advance(60));
    const s = await state();
    expect(s['camera'].framed).toBe(true);
    expect(s['error']).toBe('');
    const img = await mapDocShot(name);
    // Agents are on it, in their colours.
    expect(countColour(img, ENTITY_COLOURS.agent, 30) + countColour(img, ENTITY_COLOURS.agentSees, 30)).toBeGreaterThan(40);
  });
});

describe('the pictures of docs/sandbox.md', () => {
  test('sandbox-piney-storm: the field whole, at night, in the storm, on a bolt frame', async () => {
    await open('piney-storm', null);
    // Seen whole (the field opens closer, about the player).
    await page.evaluate(() => window.retrosim.overview());
    // The third bolt: the weather has been running a while, and the bolt is in the frame's operations.
    let bolts = 0;
    for (let f = 0; f < 400 && bolts < 3; f++) {
      const was = (await state())['sky'].bolt as boolean;
      await page.evaluate(() => window.retrosim.advance(1));
      const now = (await state())['sky'].bolt as boolean;
      if (now && !was) bolts++;
    }
    expect(bolts).toBe(3);
    const s = await state();
    expect(s['ambience'].time).toBe('night');
    expect(s['ambience'].weather).toBe('storm');
    expect(s['camera'].framed).toBe(true);
    const img = await docShot('sandbox-piney-storm');
    expect(countColour(img, WEATHER_COLOURS.bolt, 12)).toBeGreaterThan(40);
  });

  test('sandbox-rugrats: an agent selected, its rays seen and blocked, the inspector on it', async () => {
    await open('rugrats-demo', 30);
    await page.evaluate(() => window.retrosim.advance(20));
    const chosen = await sandbox.selectAgentSeeingAndBlocked();
    expect(chosen).toBeGreaterThan(0);
    const s = await state();
    expect(s['selection']).toEqual({ kind: 'entity', id: chosen });
    expect(await page.locator('#inspector .entity').innerText()).toContain(`entity ${chosen}`);
    const img = await docShot('sandbox-rugrats');
    expect(countColour(img, ENTITY_COLOURS.seenRay, 40)).toBeGreaterThan(10);
    expect(countColour(img, ENTITY_COLOURS.unseenRay, 40)).toBeGreaterThan(10);
  });

  test('sandbox-colbin: the visibility heat map over the COLBIN level', async () => {
    await open('colbin-demo', 40);
    await page.evaluate(() => window.retrosim.advance(10));
    await page.evaluate(() => window.retrosim.setHeat(true));
    await page.waitForFunction(() => {
      window.retrosim.render();
      return window.retrosim.state()['heat'] !== null;
    }, null, { timeout: 60_000, polling: 50 });
    const s = await state();
    expect(s['heatOn']).toBe(true);
    expect(s['heat'].max).toBeGreaterThan(0);
    expect((s['legend'] as { group: string }[]).some((e) => e.group === 'heat map')).toBe(true);
    await docShot('sandbox-colbin');
    await page.evaluate(() => window.retrosim.setHeat(false));
  });

  test('sandbox-gta: the town close up, its faces as crisp lines, a face inspected', async () => {
    await open('gta-town', 0);
    await page.evaluate(() => {
      window.retrosim.overview();
      window.retrosim.render();
    });
    const s0 = await state();
    const [x0, y0, x1, y1] = s0['worldOnScreen'] as number[];
    const box = (await page.locator('#map').boundingBox())!;
    const cx = box.x + (x0! + x1!) / 2;
    const cy = box.y + (y0! + y1!) / 2;
    // Zoom in about the middle of the town with the wheel, as a user does, then click a face there.
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 4; i++) {
      await page.mouse.wheel(0, -240);
      await page.evaluate(() => window.retrosim.render());
    }
    const s1 = await state();
    expect(s1['camera'].zoom).toBeGreaterThan(s0['camera'].zoom * 2);
    await page.mouse.click(cx + 30, cy + 20);
    const s = await state();
    expect(s['selection'].kind).toBe('tile');
    expect(s['tile'].title).toMatch(/^GTA /);
    await docShot('sandbox-gta');
  });

  test('sandbox-timeline: a replay that does not verify, its divergence marked on the timeline', async () => {
    await open('rugrats-demo', 10);
    await page.evaluate(() => window.retrosim.startRecording());
    await page.evaluate(() => window.retrosim.pause());
    await page.keyboard.down('ArrowUp');
    await page.evaluate(() => window.retrosim.advance(350));
    await page.keyboard.down('ArrowLeft');
    await page.evaluate(() => window.retrosim.advance(350));
    await page.keyboard.up('ArrowLeft');
    await page.keyboard.up('ArrowUp');
    const good = Uint8Array.from(await page.evaluate(() => window.retrosim.finishRecording()));
    const path = join(REPLAYS, 'doc-timeline-diverges.rsr');
    writeFileSync(path, tamperHash(good, 451));
    await page.setInputFiles('#files', path);
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.retrosim.checkNow())).toBe(451);
    await page.evaluate(() => window.retrosim.seek(300));
    await page.evaluate(() => window.retrosim.render());
    const t = (await page.evaluate(() => window.retrosim.timeline())) as { dom: { cls: string; frame: string | null }[] };
    expect(t.dom.filter((d) => d.cls === 'divergence').map((d) => Number(d.frame))).toEqual([451]);
    expect(t.dom.filter((d) => d.cls === 'tick').map((d) => Number(d.frame))).toEqual([0, 300, 600]);
    await docShot('sandbox-timeline');
    await page.evaluate(() => window.retrosim.goLive());
  });

  test('sandbox-live-scrubbed: a live run scrubbed back, its timeline from the first frame', async () => {
    await open('rugrats-demo', 10);
    await page.evaluate(() => window.retrosim.startRecording());
    await page.keyboard.down('ArrowUp');
    await page.evaluate(() => window.retrosim.advance(400));
    await page.keyboard.down('ArrowLeft');
    await page.evaluate(() => window.retrosim.advance(250));
    await page.keyboard.up('ArrowLeft');
    await page.keyboard.up('ArrowUp');
    await page.evaluate(() => window.retrosim.advance(250));
    const hashes = (await page.evaluate(() => window.retrosim.recordedHashes())) as string[];
    expect(hashes.length).toBe(900);
    // Scrubbed back by the scrubber, as a user drags it.
    await page.evaluate(() => {
      const scrub = document.getElementById('scrub') as HTMLInputElement;
      scrub.value = '420';
      scrub.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.evaluate(() => window.retrosim.render());
    const s = await state();
    expect([s['mode'], s['frame'], s['hash'], s['paused']]).toEqual(['live', 420, hashes[419], true]);
    expect(s['timeline']).toEqual({ start: 0, end: 900 });
    const t = (await page.evaluate(() => window.retrosim.timeline())) as { frameLabel: string; dom: { cls: string; frame: string | null }[] };
    expect(t.frameLabel).toBe('420 / 900');
    expect(t.dom.filter((d) => d.cls === 'tick').map((d) => Number(d.frame))).toEqual([0, 300, 600, 900]);
    await docShot('sandbox-live-scrubbed');
    await page.locator('#live').click();
    expect((await state())['frame']).toBe(900);
    await page.evaluate(() => window.retrosim.pause());
  });

  test('sandbox-help: the help overlay on ?', async () => {
    await open('llama-demo', null);
    await page.locator('#map').focus();
    await page.keyboard.press('?');
    expect((await state())['helpShown']).toBe(true);
    expect(await page.locator('#help-overlay').innerText()).toContain('heat map');
    // Live on a new world after a replay: its own timeline, from its first frame to the frame shown.
    const f = String((await state())['frame']);
    expect([await page.locator('#scrub').inputValue(), await page.locator('#scrub').getAttribute('max')]).toEqual([f, String(liveSpan(Number(f)))]);
    expect(await page.locator('#scrub').isDisabled()).toBe(false);
    await docShot('sandbox-help');
    await page.keyboard.press('Escape');
    expect((await state())['helpShown']).toBe(false);
  });
});
