/**
 * Every world reads at its opening view, in Chromium and in Firefox: the ground has contrast (the spread of
 * luminance over the map's ground pixels), the agents are drawn large enough to see (an agent's drawn blob,
 * found from its screen position) and move visibly (pixels a second), the selected agent's sight shows on
 * the map, and the legend's ground swatches are colours the map is drawn in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSandbox, openSandboxInFirefox, serveSandbox, startFirefox, startHarness, type FirefoxHarness, type Harness, type SandboxServer } from './harness.js';
import { decodePng, type Image } from './pixels.js';

const WORLDS = ['piney-default', 'rugrats-demo', 'llama-demo', 'colbin-demo', 'gta-town'];
const BACKGROUND = [16, 20, 26];
/** The ground's luminance, 5th to 95th percentile over the map's ground pixels, is at least this far apart. */
const CONTRAST = 40;
/** An agent's drawn blob is at least this many CSS pixels along its longer side (the old view drew 6). */
const AGENT_PIXELS = 8;
/** In one second of simulated time, the agent that moves most moves at least this many CSS pixels on screen. */
const MOTION_PIXELS = 5;
/** A legend swatch's colour is within this (per channel) of some map pixel. */
const SWATCH_TOLERANCE = 10;

/** What the tests call on a page, the same in playwright (Chromium) and puppeteer (Firefox). */
interface Driven {
  evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
}

interface Entity {
  id: number;
  x: number;
  y: number;
  agent: boolean;
  player: boolean;
}

const luminance = (d: Uint8Array, i: number) => 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;

async function state(p: Driven): Promise<Record<string, any>> {
  return p.evaluate(() => window.retrosim.state(), null);
}

async function mapImage(p: Driven): Promise<Image> {
  const url = await p.evaluate(() => {
    window.retrosim.render();
    return (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png');
  }, null);
  return decodePng(new Uint8Array(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')));
}

async function openWorld(p: Driven, id: string): Promise<void> {
  await p.evaluate((w) => window.retrosim.open(w, null), id);
  await p.evaluate(() => window.retrosim.render(), null);
}

/** The luminance spread (5th to 95th percentile) of the map's pixels inside the world's rectangle that are not the background. */
function groundSpread(img: Image, s: Record<string, any>): number {
  const k = s['resolution'] as number;
  const [x0, y0, x1, y1] = (s['worldOnScreen'] as number[]).map((v) => v * k);
  const l: number[] = [];
  const d = img.data;
  for (let y = Math.max(0, Math.ceil(y0!)); y < Math.min(img.height, Math.floor(y1!)); y++) {
    for (let x = Math.max(0, Math.ceil(x0!)); x < Math.min(img.width, Math.floor(x1!)); x++) {
      const i = (y * img.width + x) * 4;
      if (Math.max(Math.abs(d[i]! - BACKGROUND[0]!), Math.abs(d[i + 1]! - BACKGROUND[1]!), Math.abs(d[i + 2]! - BACKGROUND[2]!)) <= 4) continue;
      l.push(luminance(d, i));
    }
  }
  l.sort((a, b) => a - b);
  expect(l.length).toBeGreaterThan(1000);
  return l[Math.floor(0.95 * (l.length - 1))]! - l[Math.floor(0.05 * (l.length - 1))]!;
}

/**
 * The extent (CSS pixels, the longer side of its bounding box) of the blob of agent-coloured pixels at an
 * entity's screen place: pixels connected to it whose colour is far from every pixel of the same map drawn
 * without bodies.
 */
function blobExtent(img: Image, bare: Image, e: Entity, k: number): number {
  const cx = Math.round(e.x * k);
  const cy = Math.round(e.y * k);
  const differs = (x: number, y: number): boolean => {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
    const i = (y * img.width + x) * 4;
    return Math.max(Math.abs(img.data[i]! - bare.data[i]!), Math.abs(img.data[i + 1]! - bare.data[i + 1]!), Math.abs(img.data[i + 2]! - bare.data[i + 2]!)) > 40;
  };
  const seen = new Set<number>();
  const stack: [number, number][] = [];
  for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) if (differs(cx + dx, cy + dy)) stack.push([cx + dx, cy + dy]);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  while (stack.length && seen.size < 4000) {
    const [x, y] = stack.pop()!;
    const key = y * img.width + x;
    if (seen.has(key) || !differs(x, y) || Math.abs(x - cx) > 40 * k || Math.abs(y - cy) > 40 * k) continue;
    seen.add(key);
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
    stack.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]);
  }
  return seen.size ? Math.max(x1 - x0 + 1, y1 - y0 + 1) / k : 0;
}

/** The agents in view, farthest from any other entity first (their blobs stand alone). */
function loneAgents(all: Entity[], w: number, h: number): Entity[] {
  const inView = all.filter((e) => e.x > 20 && e.y > 20 && e.x < w - 20 && e.y < h - 20);
  const gap = (e: Entity) => Math.min(...all.filter((o) => o.id !== e.id).map((o) => Math.hypot(o.x - e.x, o.y - e.y)));
  return inView.filter((e) => e.agent && !e.player).sort((a, b) => gap(b) - gap(a));
}

/** The smallest per-channel distance from `c` (0xRRGGBB) to any pixel of the image. */
function nearestPixel(img: Image, c: number): number {
  const r = (c >> 16) & 255;
  const g = (c >> 8) & 255;
  const b = c & 255;
  let best = 255;
  const d = img.data;
  for (let i = 0; i < d.length && best > 0; i += 4) {
    const m = Math.max(Math.abs(d[i]! - r), Math.abs(d[i + 1]! - g), Math.abs(d[i + 2]! - b));
    if (m < best) best = m;
  }
  return best;
}

/** The checks of one world at its opening view, on one page. */
async function checkWorld(p: Driven, id: string): Promise<void> {
  await openWorld(p, id);
  const s = await state(p);
  const k = s['resolution'] as number;
  const { width, height } = s['camera'] as { width: number; height: number };
  // The opening view: framed (kept through resizes), the ground with contrast.
  expect(s["camera"].framed, `${id}: ${JSON.stringify(s["camera"])} ${s["url"]}`).toBe(true);
  const img = await mapImage(p);
  expect(groundSpread(img, s), `${id}: the ground's luminance spread`).toBeGreaterThanOrEqual(CONTRAST);

  // Agents: drawn at least AGENT_PIXELS along their longer side (measured against the map without bodies).
  await p.evaluate(() => window.retrosim.setLayer('bodies', false), null);
  const bare = await mapImage(p);
  await p.evaluate(() => window.retrosim.setLayer('bodies', true), null);
  const ents = (await p.evaluate(() => window.retrosim.entitiesOnScreen(), null)) as Entity[];
  const lone = loneAgents(ents, width, height).slice(0, 5);
  expect(lone.length, `${id}: agents in view`).toBeGreaterThan(0);
  const extents = lone.map((e) => blobExtent(img, bare, e, k));
  expect(Math.max(...extents), `${id}: agents' drawn extents ${extents}`).toBeGreaterThanOrEqual(AGENT_PIXELS);

  // They move visibly: one second of simulated time moves the most-moving agent MOTION_PIXELS or more.
  await p.evaluate(() => window.retrosim.advance(60), null);
  const later = new Map(((await p.evaluate(() => window.retrosim.entitiesOnScreen(), null)) as Entity[]).map((e) => [e.id, e]));
  const moved = ents.filter((e) => e.agent && later.has(e.id)).map((e) => Math.hypot(later.get(e.id)!.x - e.x, later.get(e.id)!.y - e.y));
  expect(Math.max(...moved), `${id}: screen pixels moved in a second`).toBeGreaterThanOrEqual(MOTION_PIXELS);

  // The selected agent's sight shows: selecting one in view changes hundreds of map pixels (its range, its rays).
  const before = await mapImage(p);
  const pick = loneAgents([...later.values()], width, height)[0]!;
  await p.evaluate((e) => window.retrosim.select(e), pick.id);
  const after = await mapImage(p);
  const sel = await state(p);
  expect(sel['selection']).toEqual({ kind: 'entity', id: pick.id });
  let changed = 0;
  for (let i = 0; i < after.data.length; i += 4) if (Math.max(Math.abs(after.data[i]! - before.data[i]!), Math.abs(after.data[i + 1]! - before.data[i + 1]!), Math.abs(after.data[i + 2]! - before.data[i + 2]!)) > 12) changed++;
  expect(changed / (k * k), `${id}: map pixels the selected agent's sight changed`).toBeGreaterThan(300);
  expect((sel['legend'] as { label: string }[]).some((e) => e.label.includes('sight range'))).toBe(true);
  await p.evaluate(() => window.retrosim.select(null), null);

  // The legend's ground swatches are map colours: at the whole view without the overlay, each ramp colour and
  // material swatch is within SWATCH_TOLERANCE of some map pixel.
  await p.evaluate(() => {
    window.retrosim.overview();
    window.retrosim.setOverlay(false);
    window.retrosim.render();
  }, null);
  const whole = await mapImage(p);
  const legend = (await state(p))['legend'] as { label: string; colour: number; colours: number[] | null; ground: unknown }[];
  const swatches = legend.filter((e) => e.ground).flatMap((e) => (e.colours ?? [e.colour]).map((c) => ({ label: e.label, c })));
  expect(swatches.length).toBeGreaterThanOrEqual(5);
  for (const { label, c } of swatches) expect(nearestPixel(whole, c), `${id}: "${label}" #${c.toString(16).padStart(6, '0')}`).toBeLessThanOrEqual(SWATCH_TOLERANCE);
  await p.evaluate(() => window.retrosim.setOverlay(true), null);
}

describe('every world reads at its opening view (Chromium)', () => {
  let h: Harness;
  let page: Driven;
  beforeAll(async () => {
    h = await startHarness();
    const pg = await openSandbox(h, { world: 'piney-default' });
    await pg.evaluate(() => {
      window.retrosim.ticker(false);
      window.retrosim.pause();
    });
    page = pg as unknown as Driven;
  });
  afterAll(async () => {
    await h?.close();
  });
  test.each(WORLDS)('%s', async (id) => {
    await checkWorld(page, id);
  });
});

describe('every world reads at its opening view (Firefox)', () => {
  let server: SandboxServer;
  let ff: FirefoxHarness;
  let page: Driven;
  beforeAll(async () => {
    server = await serveSandbox();
    ff = await startFirefox();
    const pg = await openSandboxInFirefox(ff, server.url, { world: 'piney-default' });
    await pg.evaluate(() => {
      window.retrosim.ticker(false);
      window.retrosim.pause();
    });
    page = pg as unknown as Driven;
  });
  afterAll(async () => {
    await ff?.close();
    await server?.close();
  });
  test.each(WORLDS)('%s', async (id) => {
    await checkWorld(page, id);
  });
});
