/**
 * Links and replays in a real browser: the address bar carries the view (world, agent count, scenario
 * settings, camera, selection, what is drawn, speed; for a replay its name and frame) and pasting it opens
 * the same view; a bad parameter shows the same kind of banner as a bad file and falls back to the default
 * world; the replay timeline shows frame numbers, keyframe ticks and the divergence frame of a replay that
 * does not verify; playback runs from 0.25× to 8× and steps frame by frame, with keys; and when the game
 * cannot keep up, a quiet indicator in the bar says so. Frames are driven by the tests (`tick`), never by the clock.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { tamperHash } from '../render/helpers.js';
import { openSandbox, startHarness, type Harness } from './harness.js';

const REPLAYS = 'out/replays';
const SHOTS = 'out/screenshots';

let h: Harness;
let page: Page;

beforeAll(async () => {
  mkdirSync(REPLAYS, { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
  page = await openSandbox(h, { world: 'colbin-demo' });
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

/** Opens a page at a link (a query string) with its animation frames stopped. */
async function openLink(query: string): Promise<Page> {
  const p = await h.browser.newPage();
  await p.setViewportSize({ width: 1024, height: 720 });
  await p.goto(`${h.url}${query}`);
  await p.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, null, { timeout: 60_000 });
  await p.evaluate(() => window.retrosim.ready);
  await p.evaluate(() => {
    window.retrosim.ticker(false);
    window.retrosim.render();
  });
  return p;
}

/** Records `frames` frames in the page (keys held by playwright) and saves the replay. */
async function recordReplay(world: string, agents: number, frames: number, name: string): Promise<string> {
  await page.evaluate(([w, n]) => window.retrosim.open(w as string, n as number), [world, agents] as const);
  await page.evaluate(() => window.retrosim.startRecording());
  await page.evaluate(() => window.retrosim.pause());
  await page.keyboard.down('ArrowUp');
  await page.evaluate((n) => window.retrosim.advance(n), Math.floor(frames / 2));
  await page.keyboard.down('ArrowLeft');
  await page.evaluate((n) => window.retrosim.advance(n), frames - Math.floor(frames / 2));
  await page.keyboard.up('ArrowLeft');
  await page.keyboard.up('ArrowUp');
  const bytes = Uint8Array.from(await page.evaluate(() => window.retrosim.finishRecording()));
  const path = join(REPLAYS, name);
  writeFileSync(path, bytes);
  return path;
}

describe('links carry the view', () => {
  test('world, agents, settings, camera, selection, heat map, rays and speed round-trip through the address bar', async () => {
    await page.goto(`${h.url}?mute=1&world=colbin-demo&seed=lnk-7`);
    await page.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined);
    await page.evaluate(() => window.retrosim.ready);
    await page.evaluate(() => {
      window.retrosim.ticker(false);
      window.retrosim.pause();
    });
    // As a user would: the menus, the keyboard, the mouse.
    await page.selectOption('#world', 'gta-town');
    await page.waitForFunction(() => window.retrosim.state()['kind'] === 'gta', null, { timeout: 30_000 });
    await page.selectOption('#agents', '30');
    await page.waitForFunction(() => window.retrosim.state()['agents'] === 30, null, { timeout: 30_000 });
    await page.selectOption('#rays', 'many');
    await page.keyboard.press('v');
    await page.keyboard.press(']');
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + 300, box.y + 300);
    await page.mouse.wheel(0, -120);
    await page.mouse.wheel(0, -120);
    await page.mouse.down();
    await page.mouse.move(box.x + 250, box.y + 330, { steps: 3 });
    await page.mouse.up();
    await page.evaluate(() => window.retrosim.select(7));
    const link = (await page.evaluate(() => window.retrosim.link())) as string;
    const a = await state();
    expect(a['url']).toBe(link);
    for (const part of ['world=gta-town', 'agents=30', 'seed=lnk-7', 'at=', 'zoom=', 'sel=7', 'speed=2', 'heat=1', 'rays=many']) expect(link).toContain(part);
    // Pasted into a new page: the same view.
    const p = await openLink(link);
    try {
      const b = await state(p);
      expect(b['error']).toBe('');
      expect(b['source']).toBe(a['source']);
      expect(b['agents']).toBe(30);
      // The same simulation: the same settings give the same state at frame 0 (a page opens running, so both
      // are sent back there), and the link's seed is what makes it so.
      const frame0 = (q: Page) => q.evaluate(async () => {
        await window.retrosim.startRecording();
        window.retrosim.pause();
        return window.retrosim.state()['hash'] as string;
      });
      const h0 = await frame0(page);
      expect(await frame0(p)).toBe(h0);
      const fresh = await openLink(`?mute=1&world=gta-town&agents=30&seed=lnk-7`);
      expect(await frame0(fresh)).toBe(h0);
      await fresh.close();
      const unseeded = await openLink(`?mute=1&world=gta-town&agents=30`);
      expect(await frame0(unseeded)).not.toBe(h0);
      await unseeded.close();
      // And the link it writes is the one it was given.
      expect(await p.evaluate(() => window.retrosim.link())).toBe(link);
    } finally {
      await p.close();
    }
  });

  test('a replay\'s link carries its name and frame: dropping the file on the pasted page opens it there', async () => {
    const path = await recordReplay('colbin-demo', 12, 200, 'link-colbin.rsr');
    await page.setInputFiles('#files', path);
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
    await page.evaluate(() => window.retrosim.seek(77));
    const link = (await page.evaluate(() => window.retrosim.link())) as string;
    expect(link).toContain('replay=link-colbin.rsr');
    expect(link).toContain('frame=77');
    const want = await state();
    const p = await openLink(link);
    try {
      const s0 = await state(p);
      expect(s0['info']).toContain('frame 77 of link-colbin.rsr');
      expect(await p.locator('#banner').isVisible()).toBe(true);
      await p.setInputFiles('#files', path);
      await p.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
      const s = await state(p);
      expect(s['frame']).toBe(77);
      expect(s['hash']).toBe(want['hash']);
      expect(s['info']).toBe('');
    } finally {
      await p.close();
    }
    await page.evaluate(() => window.retrosim.goLive());
  });
});

describe('bad links', () => {
  test('an unknown world: a banner like a bad file\'s, and the default world', async () => {
    const p = await openLink('?world=nope&mute=1');
    try {
      const s = await state(p);
      expect(s['kind']).toBe('rugrats');
      expect(s['menu']).toBe('rugrats-demo');
      expect(s['error']).toContain('world="nope"');
      expect(s['error']).toContain('default world');
      const banner = p.locator('#banner');
      expect(await banner.isVisible()).toBe(true);
      expect((await banner.getAttribute('class')) ?? '').not.toContain('info');
      expect(await p.locator('#banner-text').innerText()).toContain('nope');
      await p.screenshot({ path: join(SHOTS, 'bad-link-banner.png') });
      // The page works: it steps and draws.
      const f0 = s['frame'] as number;
      await p.evaluate(() => window.retrosim.advance(5));
      expect((await state(p))['frame']).toBe(f0 + 5);
      // The banner can be dismissed.
      await p.click('#banner-close');
      expect(await banner.isVisible()).toBe(false);
    } finally {
      await p.close();
    }
  });

  test('several bad parameters are each named; the good ones apply; a bad file shows the same banner', async () => {
    const p = await openLink('?world=llama-demo&agents=-4&zoom=wide&rays=lots&sel=nine&mute=1');
    try {
      const s = await state(p);
      expect(s['kind']).toBe('llama');
      for (const n of ['agents=', 'zoom=', 'rays=', 'sel=']) expect(s['error']).toContain(n);
      expect(s['camera'].framed).toBe(true);
      const cls = await p.locator('#banner').getAttribute('class');
      // A file that is not a world: the same banner.
      await p.setInputFiles('#files', { name: 'junk.col', mimeType: 'application/octet-stream', buffer: Buffer.from('not a world at all') });
      await p.waitForFunction(() => (window.retrosim.state()['error'] as string).includes('junk.col'), null, { timeout: 30_000 });
      expect(await p.locator('#banner').isVisible()).toBe(true);
      expect(await p.locator('#banner').getAttribute('class')).toBe(cls);
    } finally {
      await p.close();
    }
  });
});

describe('links beyond the simulation\'s limits', () => {
  // The link is checked against the limits the simulation applies: a value it would refuse falls back with
  // the banner, and the page shows a world and stays usable.
  const cases = [
    { query: '?ccinit=4294967295&mute=1', kind: 'rugrats', param: 'ccinit="4294967295"', limit: 'from 0 to 1000000 (limits.replay.ccRandInit)', then: 'colbin-demo', thenKind: 'colbin' },
  ];
  for (const c of cases) {
    test(`${c.query}: a banner names the value and the limit, a world is shown, the world menu works`, async () => {
      const p = await openLink(c.query);
      try {
        const s = await state(p);
        expect(s['kind']).toBe(c.kind);
        expect(s['error']).toContain(c.param);
        expect(s['error']).toContain(c.limit);
        expect(await p.locator('#banner').isVisible()).toBe(true);
        const text = await p.locator('#banner-text').innerText();
        expect(text).toContain(c.param);
        expect(text).toContain(c.limit);
        // The world's own defaults: agents placed, ccRand not advanced by the link.
        expect(s['agents']).toBeGreaterThan(0);
        expect(s['settingsAgents']).toBeLessThanOrEqual(300);
        expect(s['url']).not.toContain('agents=');
        expect(s['url']).not.toContain('ccinit=');
        // Usable: it steps, and the world menu changes the world.
        const f0 = s['frame'] as number;
        await p.evaluate(() => window.retrosim.advance(3));
        expect((await state(p))['frame']).toBe(f0 + 3);
        await p.selectOption('#world', c.then);
        await p.waitForFunction((k) => window.retrosim.state()['kind'] === k, c.thenKind, { timeout: 60_000 });
        const t = await state(p);
        expect(t['menu']).toBe(c.then);
        expect(t['agents']).toBeGreaterThan(0);
      } finally {
        await p.close();
      }
    });
  }
});

describe('the replay timeline', () => {
  test('frame numbers, keyframe ticks, and no divergence for a replay that verifies', async () => {
    const path = await recordReplay('rugrats-demo', 10, 700, 'timeline-rugrats.rsr');
    await page.setInputFiles('#files', path);
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.retrosim.checkNow())).toBe(-1);
    const t = (await page.evaluate(() => window.retrosim.timeline())) as { dom: { cls: string; frame: string | null; text: string }[]; frameLabel: string };
    const ticks = t.dom.filter((d) => d.cls === 'tick').map((d) => Number(d.frame));
    expect(ticks).toEqual([0, 300, 600]);
    const labels = t.dom.filter((d) => d.cls === 'label').map((d) => d.text);
    expect(labels[0]).toBe('0');
    expect(labels[labels.length - 1]).toBe('700');
    expect(labels.length).toBeGreaterThan(2);
    expect(t.dom.some((d) => d.cls === 'divergence')).toBe(false);
    expect(t.frameLabel).toBe('0 / 700');
    const s = await state();
    expect(s['replayLength']).toBe(700);
    expect(s['checked']).toBe(700);
    await page.locator('#replay-bar').screenshot({ path: join(SHOTS, 'timeline-verifies.png') });
  });

  test('a replay that does not verify: its divergence frame is marked, and the status panel names it', async () => {
    const good = await recordReplay('rugrats-demo', 10, 700, 'timeline-good.rsr');
    const bad = tamperHash(new Uint8Array(readFileSync(good)), 451);
    const path = join(REPLAYS, 'timeline-diverges.rsr');
    writeFileSync(path, bad);
    expect(readReplay(bad).frames.count).toBe(700);
    await page.setInputFiles('#files', path);
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.retrosim.checkNow())).toBe(451);
    const t = (await page.evaluate(() => window.retrosim.timeline())) as { dom: { cls: string; frame: string | null }[] };
    const d = t.dom.filter((x) => x.cls === 'divergence');
    expect(d.map((x) => Number(x.frame))).toEqual([451]);
    const hud = await page.locator('#hud').textContent();
    expect(hud).toContain('DESYNC at frame 451');
    expect(await page.locator('#status-session').innerText()).toMatch(/^replay: DESYNC at frame 451/);
    await page.locator('#replay-bar').screenshot({ path: join(SHOTS, 'timeline-divergence.png') });
    // Its x on the bar is 451/700 of the way along.
    const x = await page.evaluate(() => {
      const el = document.querySelector('#marks .divergence') as HTMLElement;
      const bar = document.getElementById('marks')!;
      return { left: parseFloat(el.style.left), width: bar.clientWidth };
    });
    expect(x.left / x.width).toBeCloseTo(451 / 700, 3);
  });

  test('speed 0.25× to 8× (menu and [ ]), frame stepping (. and ,), Home and End', async () => {
    const path = join(REPLAYS, 'timeline-rugrats.rsr');
    await page.setInputFiles('#files', path);
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 30_000 });
    await page.evaluate(() => window.retrosim.setSpeed(1));
    const frame = async () => (await state())['frame'] as number;
    const tick = (n: number) => page.evaluate((k) => {
      let ran = 0;
      for (let i = 0; i < k; i++) ran += window.retrosim.tick(1000 / 60);
      return ran;
    }, n);
    expect(await frame()).toBe(0);
    await page.keyboard.press('p');
    // 1×: one frame per animation frame at 60 of them a second.
    expect(await tick(12)).toBe(12);
    await page.selectOption('#speed', '4');
    expect((await state())['speed']).toBe(4);
    expect(await tick(10)).toBe(40);
    await page.keyboard.press(']');
    expect((await state())['speed']).toBe(8);
    expect(await tick(5)).toBe(40);
    await page.keyboard.press(']');
    expect((await state())['speed']).toBe(8);
    for (let i = 0; i < 6; i++) await page.keyboard.press('[');
    expect((await state())['speed']).toBe(0.25);
    expect(await tick(16)).toBe(4);
    expect(await page.evaluate(() => window.retrosim.timeline()['speedLabel'])).toBe('0.25×');
    expect(await frame()).toBe(12 + 40 + 40 + 4);
    // Frame by frame: . forward, , back (the replay's seek), paused.
    await page.keyboard.press('.');
    expect(await frame()).toBe(97);
    expect((await state())['paused']).toBe(true);
    await page.keyboard.press(',');
    await page.keyboard.press(',');
    expect(await frame()).toBe(95);
    await page.click('#step-back');
    expect(await frame()).toBe(94);
    await page.click('#step');
    expect(await frame()).toBe(95);
    await page.keyboard.press('End');
    expect(await frame()).toBe(700);
    await page.keyboard.press('Home');
    expect(await frame()).toBe(0);
    expect((await state())['desyncFrame']).toBe(-1);
    await page.evaluate(() => window.retrosim.setSpeed(1));
    await page.evaluate(() => window.retrosim.goLive());
  });
});

describe('the game never runs slow silently', () => {
  test('animation frames too far apart for the catch-up: the pace indicator says the game runs slower, then goes once it keeps up', async () => {
    await page.evaluate(() => window.retrosim.open('colbin-demo', 10));
    await page.evaluate(() => {
      window.retrosim.setSpeed(1);
      window.retrosim.resume();
    });
    // 200 ms between animation frames: 12 frames owed each, 4 run.
    await page.evaluate(() => {
      for (let i = 0; i < 8; i++) window.retrosim.tick(200);
    });
    let s = await state();
    expect(s['clock'].behind).toBe(true);
    expect(s['clock'].ratio).toBeLessThan(0.5);
    expect(await page.locator('#pace-dot').isVisible()).toBe(true);
    expect(await page.locator('#pace-dot').getAttribute('title')).toMatch(/^running at 0\.\d+× — the machine cannot keep up: (the browser gives the page a frame only every|(the simulation|drawing the picture|rendering it) takes) /);
    expect(await page.locator('#hud').textContent()).toMatch(/running at 0\.\d+× of 1× \(\d+ of 60 frames\/s\)/);
    // At 60 animation frames a second, it keeps up again once the window has passed.
    await page.evaluate(() => {
      for (let i = 0; i < 90; i++) window.retrosim.tick(1000 / 60);
    });
    s = await state();
    expect(s['clock'].behind).toBe(false);
    expect(await page.locator('#pace-dot').isVisible()).toBe(false);
    expect(await page.locator('#hud').textContent()).toContain('game speed 1×');
    await page.evaluate(() => window.retrosim.pause());
  });
});
