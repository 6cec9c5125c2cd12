/**
 * The sandbox in a real browser (Debian's Chromium through playwright-core): every world renders (a
 * screenshot that is not blank and differs from every other world's), the keyboard moves the player, a
 * replay recorded in the page verifies in Node with the same hash on every frame (and plays back in the page
 * with the recorded hash on every frame), the storm field's weather and thunder come through, and the frame
 * time with the default field and 1,000 agents is measured. Screenshots are kept under out/screenshots/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { openBuiltinWorld, openRecordedWorld, openWorldFile } from '../../src/node/open-world.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { Simulation } from '../../src/sim/simulation.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { chromiumCpuMs, openSandbox, startHarness, type Harness } from './harness.js';
import { blockMeans, countDiffering, decodePng, distinctColours, meanAbsDiff, shareUnlike, type Image } from './pixels.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

const SHOTS = 'out/screenshots';
const REPLAYS = 'out/replays';
/** The view's background (src/render/scene/ground-raster.ts BACKGROUND_RGB and the page's #10141a). */
const BACKGROUND: [number, number, number] = [16, 20, 26];
const WORLDS = ['piney-default', 'piney-storm', 'piney-snow', 'piney-traveller', 'rugrats-demo', 'rugrats-hand', 'llama-demo', 'colbin-demo', 'gta-town'];

let h: Harness;
let page: Page;

const read = (p: string) => new Uint8Array(readFileSync(p));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(REPLAYS, { recursive: true });
  h = await startHarness();
  page = await openSandbox(h, { world: 'piney-default', agents: '40' });
  await page.evaluate(() => window.retrosim.pause());
});

afterAll(async () => {
  await h?.close();
});

async function open(id: string, agents: number): Promise<void> {
  await page.evaluate(([w, n]) => window.retrosim.open(w as string, n as number), [id, agents] as const);
  await page.evaluate(() => window.retrosim.pause());
}

async function state(): Promise<Record<string, any>> {
  return page.evaluate(() => window.retrosim.state());
}

/** The map canvas alone (the overview inset and the banner hidden), as PNG bytes, also saved under out/screenshots/. */
async function canvasShot(name: string): Promise<Image> {
  await page.addStyleTag({ content: '#minimap, #banner { visibility: hidden !important; }' });
  const bytes = await page.locator('#map').screenshot({ path: join(SHOTS, `${name}.png`) });
  await page.addStyleTag({ content: '#minimap, #banner { visibility: visible !important; }' });
  return decodePng(new Uint8Array(bytes));
}

describe('every world renders', () => {
  const shots = new Map<string, Image>();

  test.each(WORLDS)('%s: pixels were drawn', async (id) => {
    await open(id, 40);
    // The weather variants share the default field's ground: run them until their weather shows.
    const frames = id === 'piney-storm' || id === 'piney-snow' ? 800 : id === 'piney-traveller' ? 200 : 30;
    await page.evaluate((n) => window.retrosim.advance(n), frames);
    const s = await state();
    expect(s['error']).toBe('');
    expect(s['frame']).toBe(frames);
    const img = await canvasShot(`world-${id}`);
    await page.screenshot({ path: join(SHOTS, `page-${id}.png`) });
    // Not blank: most of the view is not the background, and it holds many colours (ground, overlay, bodies).
    expect(shareUnlike(img, BACKGROUND)).toBeGreaterThan(0.2);
    expect(distinctColours(img)).toBeGreaterThan(40);
    shots.set(id, img);
  });

  test('screenshots differ between worlds', () => {
    expect([...shots.keys()].sort()).toEqual([...WORLDS].sort());
    const ids = [...shots.keys()];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = shots.get(ids[i]!)!;
        const b = shots.get(ids[j]!)!;
        const pair = `${ids[i]} vs ${ids[j]}`;
        // The weather variants share the default field's ground: they differ by their rain or snow, a few
        // thousand strongly different pixels. Other worlds differ everywhere.
        if (ids[i]!.startsWith('piney') && ids[j]!.startsWith('piney')) expect(countDiffering(a, b, 40), pair).toBeGreaterThan(1500);
        else expect(meanAbsDiff(a, b), pair).toBeGreaterThan(3);
      }
    }
  });

  test('the agents menu shows the count the page runs with, also one it does not list', async () => {
    await open('rugrats-demo', 40);
    expect(await page.$eval('#agents', (e) => (e as HTMLSelectElement).value)).toBe('40');
    await open('rugrats-demo', 100);
    expect(await page.$eval('#agents', (e) => (e as HTMLSelectElement).value)).toBe('100');
  });

  test('WebGL and the canvas renderer draw the same picture, within a tolerance', async () => {
    const pages: Record<string, Page> = {};
    try {
      const shots: Record<string, Image> = {};
      for (const r of ['webgl', 'canvas']) {
        const p = (pages[r] = await openSandbox(h, { world: 'colbin-demo', agents: '0', renderer: r }));
        await p.evaluate(() => window.retrosim.pause());
        await p.evaluate(() => window.retrosim.advance(1));
        expect(await p.evaluate(() => window.retrosim.state()['renderer'])).toBe(r);
        await p.addStyleTag({ content: '#minimap, #banner { visibility: hidden !important; }' });
        shots[r] = decodePng(new Uint8Array(await p.locator('#map').screenshot({ path: join(SHOTS, `renderer-${r}-colbin.png`) })));
        expect(shareUnlike(shots[r]!, BACKGROUND)).toBeGreaterThan(0.2);
      }
      // Compare 16-pixel block means: antialiasing and line rasterisation differ, the picture does not.
      const a = blockMeans(shots['webgl']!, 16);
      const b = blockMeans(shots['canvas']!, 16);
      let worst = 0;
      let total = 0;
      for (let i = 0; i < a.rgb.length; i++) {
        const d = Math.abs(a.rgb[i]! - b.rgb[i]!);
        worst = Math.max(worst, d);
        total += d;
      }
      expect(total / a.rgb.length).toBeLessThan(4);
      expect(worst).toBeLessThan(80);
    } finally {
      for (const p of Object.values(pages)) await p.close();
    }
  });
});

describe('keyboard', () => {
  test('the arrow keys and WASD walk and turn the player', async () => {
    await open('rugrats-demo', 0);
    const s0 = await state();
    await page.keyboard.down('ArrowUp');
    expect((await state())['buttons']).toBe(1);
    await page.evaluate(() => window.retrosim.advance(30));
    await page.keyboard.up('ArrowUp');
    const s1 = await state();
    expect(s1['buttons']).toBe(0);
    const moved = Math.hypot(s1['player'][0] - s0['player'][0], s1['player'][2] - s0['player'][2]);
    expect(moved).toBeGreaterThan(0);
    await page.keyboard.down('KeyA');
    await page.evaluate(() => window.retrosim.advance(10));
    await page.keyboard.up('KeyA');
    const s2 = await state();
    expect(s2['heading']).not.toBe(s1['heading']);
    // Standing still: no keys, no movement.
    await page.evaluate(() => window.retrosim.advance(10));
    const s3 = await state();
    expect(s3['player']).toEqual(s2['player']);
  });
});

/** Records `frames` frames in the page with keys pressed by playwright; returns the bytes and the page's hashes. */
async function recordInPage(id: string, agents: number): Promise<{ bytes: Uint8Array; hashes: string[] }> {
  await open(id, agents);
  await page.evaluate(() => window.retrosim.startRecording());
  await page.evaluate(() => window.retrosim.pause());
  const script: [string[], number][] = [
    [['ArrowUp'], 40],
    [['ArrowUp', 'ArrowLeft'], 25],
    [[], 10],
    [['KeyW', 'KeyD'], 30],
    [['KeyS'], 15],
    [['Space', 'ArrowUp'], 20],
  ];
  for (const [keys, n] of script) {
    for (const k of keys) await page.keyboard.down(k);
    await page.evaluate((m) => window.retrosim.advance(m), n);
    for (const k of keys) await page.keyboard.up(k);
  }
  const bytes = Uint8Array.from(await page.evaluate(() => window.retrosim.finishRecording()));
  const hashes = await page.evaluate(() => window.retrosim.recordedHashes());
  return { bytes, hashes };
}

describe('replays recorded in the browser verify in Node', () => {
  test.each([
    ['piney-default', 120],
    ['colbin-demo', 60],
    ['llama-demo', 30],
    ['gta-town', 30],
  ] as const)('%s', async (id, agents) => {
    const { bytes, hashes } = await recordInPage(id, agents);
    writeFileSync(join(REPLAYS, `browser-${id}.rsr`), bytes);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(140);
    expect(hashes.length).toBe(140);
    // The buttons the keys made went into the replay.
    expect(new Set(rp.frames.inputs).size).toBeGreaterThan(3);
    // Node rebuilds the world as `retrosim replay verify` does, from the source the page recorded.
    const src = rp.header.world.source;
    const opened = src.startsWith('builtin:') ? await openBuiltinWorld(src.slice(8), read) : await openWorldFile(src.slice(5).split(';map:')[0]!, read, src.split(';map:')[1]);
    expect(opened.identity.contentHash).toBe(rp.header.world.contentHash);
    // Frame by frame: the page's hash, the replay's and Node's agree on every frame.
    const sim = simulationFromSettings(opened.world, rp.header.settings);
    for (let f = 0; f < rp.frames.count; f++) {
      sim.step(rp.frames.inputs[f]!);
      const nodeHash = sim.hashHex();
      expect(nodeHash, `frame ${f + 1}`).toBe(hashes[f]);
      expect(rp.frames.hashHi[f], `frame ${f + 1}`).toBe(sim.hash().hi);
      expect(rp.frames.hashLo[f], `frame ${f + 1}`).toBe(sim.hash().lo);
    }
    // And the runtime's own verifier agrees.
    const again = src.startsWith('builtin:') ? await openBuiltinWorld(src.slice(8), read) : await openWorldFile(src.slice(5).split(';map:')[0]!, read, src.split(';map:')[1]);
    const v = verifyReplay(rp, simulationFromSettings(again.world, rp.header.settings));
    expect(v.divergence).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(140);
  });

  test('the page plays a replay back with the recorded hash on every frame, and seeks', async () => {
    const bytes = read(join(REPLAYS, 'browser-piney-default.rsr'));
    const rp = readReplay(bytes, BUTTON_MASK);
    await page.evaluate((b) => window.retrosim.loadReplay(b), Array.from(bytes));
    const s0 = await state();
    expect(s0['mode']).toBe('replay');
    expect(s0['replayLength']).toBe(140);
    const matches = await page.evaluate(() => window.retrosim.playReplay(1000));
    expect(matches.length).toBe(140);
    expect(matches.every((m) => m === true)).toBe(true);
    expect((await state())['desyncFrame']).toBe(-1);
    // Seek back into the middle (from the keyframe at 0) and forward again.
    await page.evaluate(() => window.retrosim.seek(77));
    const s1 = await state();
    expect(s1['frame']).toBe(77);
    const { hex64 } = await import('../../src/replay/format.js');
    expect(s1['hash']).toBe(hex64(rp.frames.hashHi[76]!, rp.frames.hashLo[76]!));
  });

  test('a replay that does not match the page is reported, not played', async () => {
    const bytes = read(join(REPLAYS, 'browser-piney-default.rsr'));
    // Flip a recorded input: the CRC of its chunk no longer matches.
    const bad = Uint8Array.from(bytes);
    bad[bad.length - 40] = bad[bad.length - 40]! ^ 0xff;
    await open('piney-default', 10);
    const err = await page.evaluate((b) => window.retrosim.loadReplay(b).then(() => '', (e: Error) => e.message), Array.from(bad));
    expect(err).not.toBe('');
    expect((await state())['mode']).toBe('live');
  });
});

describe('camera', () => {
  /** Pixels like the player's arrow (tint 0xff3d00) within `r` pixels of the canvas centre. */
  function playerPixelsNearCentre(img: Image, r: number): number {
    let n = 0;
    const cx = img.width >> 1;
    const cy = img.height >> 1;
    for (let y = cy - r; y <= cy + r; y++) {
      for (let x = cx - r; x <= cx + r; x++) {
        const i = (y * img.width + x) * 4;
        if (img.data[i]! > 200 && img.data[i + 1]! < 110 && img.data[i + 2]! < 60) n++;
      }
    }
    return n;
  }

  test('follows the player (F), zooms, and stops following when panned', async () => {
    await open('colbin-demo', 0);
    // The world opens framed whole; F follows the player.
    expect((await state())['camera'].framed).toBe(true);
    await page.keyboard.press('f');
    expect((await state())['camera'].following).toBe(true);
    await page.keyboard.down('KeyW');
    await page.evaluate(() => window.retrosim.advance(90));
    await page.keyboard.up('KeyW');
    const a = await canvasShot('camera-follow');
    expect(playerPixelsNearCentre(a, 14)).toBeGreaterThan(10);
    await page.evaluate(() => window.retrosim.zoom(2.5));
    await page.evaluate(() => window.retrosim.advance(1));
    const b = await canvasShot('camera-zoom');
    expect(meanAbsDiff(a, b)).toBeGreaterThan(3);
    expect(playerPixelsNearCentre(b, 14)).toBeGreaterThan(10);
    // Drag the view far away: the player is no longer at the centre.
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 300, box.y + box.height / 2 - 200, { steps: 5 });
    await page.mouse.up();
    await page.evaluate(() => window.retrosim.advance(1));
    expect(playerPixelsNearCentre(await canvasShot('camera-pan'), 14)).toBe(0);
    await page.click('#follow');
    await page.evaluate(() => window.retrosim.advance(1));
    expect(playerPixelsNearCentre(await canvasShot('camera-refollow'), 14)).toBeGreaterThan(10);
  });
});

describe('the page controls', () => {
  test('Save downloads the run so far, from frame 0 (the page always records): the replay verifies in Node', async () => {
    await open('llama-demo', 5);
    expect((await state())['recording']).toBe(true);
    await page.evaluate(() => window.retrosim.resume());
    await page.keyboard.down('ArrowUp');
    await page.waitForFunction(() => (window.retrosim.state()['frame'] as number) >= 20, null, { timeout: 300_000 });
    await page.keyboard.up('ArrowUp');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record')]);
    expect(download.suggestedFilename()).toMatch(/^llama-[0-9a-f]{8}\.rsr$/);
    const path = join(REPLAYS, 'ui-llama.rsr');
    await download.saveAs(path);
    await page.evaluate(() => window.retrosim.pause());
    const rp = readReplay(read(path), BUTTON_MASK);
    expect(rp.frames.count).toBeGreaterThanOrEqual(20);
    // The page names a shipped world by its built-in id, so any program opens it by that id.
    expect(rp.header.world.source).toBe('builtin:llama-demo');
    const opened = await openRecordedWorld(rp.header.world, [process.cwd()], read);
    const v = verifyReplay(rp, simulationFromSettings(opened.world, rp.header.settings));
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(rp.frames.count);
  });

  test('files given to the page open: a world file, a TRAK with its MAP, a replay', async () => {
    await page.setInputFiles('#files', 'assets/worlds/rugrats/hand.col');
    await page.waitForFunction(() => window.retrosim.state()['source'] === 'file:hand.col', null, { timeout: 300_000 });
    expect((await state())['kind']).toBe('rugrats');
    // The world menu says so: a "your file" entry, selected.
    expect((await state())['menu']).toBe('file');
    expect((await state())['menuLabel']).toBe('your file: hand.col');
    await page.setInputFiles('#files', ['assets/worlds/llama/minimal.trak', 'assets/worlds/llama/minimal.map']);
    await page.waitForFunction(() => window.retrosim.state()['source'] === 'file:minimal.trak;map:minimal.map', null, { timeout: 300_000 });
    expect((await state())['kind']).toBe('llama');
    expect((await state())['menuLabel']).toBe('your file: minimal.trak');
    // Choosing a catalog world puts the menu back on it.
    await page.selectOption('#world', 'colbin-demo');
    await page.waitForFunction(() => window.retrosim.state()['kind'] === 'colbin', null, { timeout: 30_000 });
    expect((await state())['menu']).toBe('colbin-demo');
    await page.setInputFiles('#files', join(REPLAYS, 'browser-colbin-demo.rsr'));
    await page.waitForFunction(() => window.retrosim.state()['mode'] === 'replay', null, { timeout: 300_000 });
    const s = await state();
    expect(s['kind']).toBe('colbin');
    expect(s['replayLength']).toBe(140);
    await page.evaluate(() => window.retrosim.goLive());
  });
});

describe('the Piney storm', () => {
  test('rain is drawn from the frame operations, and the flash brings thunder through the sound player', async () => {
    await open('piney-storm', 0);
    const before = ((await state())['sounds'] as Record<string, number>)['thunder'] ?? 0;
    await page.evaluate(() => window.retrosim.advance(700));
    const s = await state();
    const weather = s['weather'] as Record<string, number>;
    expect(Object.keys(weather).some((k) => k.includes('rai'))).toBe(true);
    const rainy = await canvasShot('piney-storm-rain');
    await page.screenshot({ path: join(SHOTS, 'piney-storm-page.png') });
    // Thunder (sound 236) follows the first flash (frame 750) by 29-48 frames.
    await page.evaluate(() => window.retrosim.advance(120));
    const after = ((await state())['sounds'] as Record<string, number>)['thunder'] ?? 0;
    expect(after).toBeGreaterThan(before);
    expect(shareUnlike(rainy, BACKGROUND)).toBeGreaterThan(0.2);
  });
});

describe('the traveller and the sound files', () => {
  test('the airship is drawn and its hum starts through the sound player; every sound file loads', async () => {
    await open('piney-traveller', 0);
    const before = ((await state())['sounds'] as Record<string, number>)['hum'] ?? 0;
    await page.evaluate(() => window.retrosim.advance(60));
    const s = await state();
    const weather = s['weather'] as Record<string, number>;
    expect(weather['tobj']).toBeGreaterThan(0);
    expect(weather['hum']).toBeGreaterThan(0);
    expect((s['sounds'] as Record<string, number>)['hum'] ?? 0).toBeGreaterThan(before);
    await page.waitForFunction(() => Object.values(window.retrosim.state()['soundsLoaded'] as Record<string, boolean>).every(Boolean), null, { timeout: 300_000 });
    expect(Object.keys((await state())['soundsLoaded'] as object).sort()).toEqual(['footstep', 'hum', 'steam', 'thunder']);
  });

  test('walking plays footsteps', async () => {
    await open('colbin-demo', 0);
    const before = ((await state())['sounds'] as Record<string, number>)['footstep'] ?? 0;
    await page.keyboard.down('ArrowUp');
    await page.evaluate(() => window.retrosim.advance(40));
    await page.keyboard.up('ArrowUp');
    expect(((await state())['sounds'] as Record<string, number>)['footstep'] ?? 0).toBeGreaterThanOrEqual(before + 2);
  });
});

describe('speed', () => {
  test('frame time with the default field and 1,000 agents, on each renderer, the live run recorded or not; and the page on its own clock', async () => {
    const results: Record<string, unknown>[] = [];
    const { loadavg, cpus } = await import('node:os');
    // The page always records its live run (the timeline); on canvas it is measured without too, to show the cost.
    for (const [r, timeline] of [['canvas', true], ['canvas', false], ['webgl', true]] as const) {
      const p = await openSandbox(h, { world: 'piney-default', agents: '1000', renderer: r });
      try {
        await p.evaluate(() => {
          window.retrosim.ticker(false);
          window.retrosim.pause();
        });
        if (!timeline) await p.evaluate(() => window.retrosim.keepTimeline(false));
        expect((await p.evaluate(() => window.retrosim.state()['recording'])) as boolean).toBe(timeline);
        expect(await p.evaluate(() => window.retrosim.state()['agents'])).toBe(1000);
        await p.evaluate(() => window.retrosim.advance(30));
        const load = loadavg();
        const cpu0 = chromiumCpuMs(h);
        // WebGL here is SwiftShader, a CPU emulation many times slower (95–181 ms a frame): a few frames give its
        // median, and the suite's time goes to checks. On canvas, 600 frames take in two keyframes of the record.
        const frames = r === 'canvas' ? 600 : 20;
        const m = (await p.evaluate((n) => window.retrosim.measure(n), frames)) as Record<string, number>;
        const cpu1 = chromiumCpuMs(h);
        // Chromium's CPU time per measured frame (all its processes): what a frame costs without the load.
        m['cpuMsPerFrame'] = Number(((cpu1 - cpu0) / frames).toFixed(2));
        const rec = (await p.evaluate(() => window.retrosim.state()['record'])) as { head: number; bytes: number; keyframes: number } | null;
        const row: Record<string, unknown> = { world: 'piney-default', agents: 1000, viewport: '1024x720', view: 'overview (the whole field)', timeline, loadAverage: load.map((x) => Number(x.toFixed(2))), cpu: cpus()[0]?.model ?? '', cores: cpus().length, date: new Date().toISOString(), ...m };
        if (rec) {
          // What the record holds, and 10 minutes of it at this rate (its blocks are all alike: a keyframe every
          // 300 frames and the frames' records).
          expect(rec.head).toBe((await p.evaluate(() => window.retrosim.state()['frame'])) as number);
          row['record'] = { frames: rec.head, bytes: rec.bytes, keyframes: rec.keyframes, tenMinutesMiB: Number(((rec.bytes / rec.keyframes) * 120 / 2 ** 20).toFixed(1)) };
        } else expect(timeline).toBe(false);
        // The page on its own animation frames: how many simulation frames a second it keeps (figures only).
        if (r === 'canvas' && timeline) {
          const start = (await p.evaluate(() => window.retrosim.state()['frame'])) as number;
          await p.evaluate(() => {
            window.retrosim.startFrameTimes();
            window.retrosim.resume();
            window.retrosim.ticker(true);
          });
          await p.waitForFunction((f) => (window.retrosim.state()['frame'] as number) >= f + 300, start, { timeout: 120_000, polling: 250 });
          const intervals = (await p.evaluate(() => window.retrosim.stopFrameTimes())) as number[];
          const clock = (await p.evaluate(() => window.retrosim.state()['clock'])) as Record<string, number>;
          const frames = ((await p.evaluate(() => window.retrosim.state()['frame'])) as number) - start;
          const wall = intervals.reduce((a, b) => a + b, 0);
          row['live'] = { simFrames: frames, animationFrames: intervals.length, wallMs: Math.round(wall), simFramesPerSecond: Number(((frames * 1000) / wall).toFixed(1)), clock };
          await p.evaluate(() => window.retrosim.ticker(false));
        }
        results.push(row);
        console.log(`browser frame time, default field, 1000 agents (${m['renderer']}, live run ${timeline ? 'recorded' : 'not recorded'}): mean step ${Number(m['stepMs']).toFixed(2)} (max ${Number(m['maxStepMs']).toFixed(1)}), median step ${Number(m['medianStepMs']).toFixed(2)} + draw ${Number(m['medianDrawMs']).toFixed(2)} + render ${Number(m['medianRenderMs']).toFixed(2)} = ${Number(m['medianFrameMs']).toFixed(2)} ms, CPU ${m['cpuMsPerFrame']} ms a frame, load ${load[0]!.toFixed(2)}`);
        expect(m['renderer']).toBe(r);
        expect(m['frames']).toBe(frames);
        expect(Number(m['medianFrameMs'])).toBeGreaterThan(0);
        expect(Number.isFinite(Number(m['medianFrameMs']))).toBe(true);
        if (r === 'canvas' && timeline) await p.screenshot({ path: join(SHOTS, 'piney-default-1000-agents.png') });
      } finally {
        await p.close();
      }
    }
    writeFileSync('out/browser-frame-time.json', JSON.stringify(results, null, 2) + '\n');
  }, 900_000);
});
