/**
 * The inspector and line of sight in a real browser: hovering shows the point under the cursor in native
 * units and the ground there, the same answer `retrosim world ground FILE x y z --json` gives at that point;
 * clicking a tile shows the format's own data and highlights it; clicking an entity shows its components,
 * behaviour and sight, live, and F follows it; the selected agent's rays are drawn seen and blocked, with
 * stop points; the heat map, the legend for each world, the help overlay and the rays' density. A replay
 * recorded while inspecting with the heat map on verifies in Node.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { openBuiltinWorld, openWorldFile } from '../../src/node/open-world.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { helpRows } from '../../src/render/sandbox/shortcuts.js';
import { ENTITY_COLOURS } from '../../src/render/scene/palette.js';
import { runCli } from '../cli/run-cli.js';
import { useDrivenSandbox } from './harness.js';
import { countColour, decodePng, type Image } from './pixels.js';

const SHOTS = 'out/screenshots';
const REPLAYS = 'out/replays';
const read = (p: string) => new Uint8Array(readFileSync(p));

/** The file `retrosim world ground` reads for each catalog world (the Piney variants share the default field's ground). */
const FILES: Record<string, string> = {
  'piney-default': 'assets/worlds/piney/default.field.json',
  'rugrats-demo': 'assets/worlds/rugrats/demo.col',
  'rugrats-hand': 'assets/worlds/rugrats/hand.col',
  'llama-demo': 'assets/worlds/llama/demo.trak',
  'colbin-demo': 'assets/worlds/colbin/demo.colbin',
  'gta-town': 'assets/worlds/gta/town.col',
};

const sandbox = useDrivenSandbox({ world: 'rugrats-demo' }, [SHOTS, REPLAYS]);
const { state, open } = sandbox;
// The tests drive the sandbox's page directly.
let page: Page;
beforeAll(() => {
  page = sandbox.page;
});

async function mapShot(name: string): Promise<Image> {
  const bytes = await sandbox.mapCanvasPng();
  writeFileSync(join(SHOTS, `${name}.png`), bytes);
  return decodePng(bytes);
}

describe('hover: the inspector answers as `retrosim world ground` does', () => {
  test.each(Object.keys(FILES))('%s: the point under the cursor, in native units, and the ground there equal the CLI\'s', async (id) => {
    await open(id, 0);
    const box = (await page.locator('#map').boundingBox())!;
    const s0 = await state();
    // The part of the world on screen: large worlds open close about the player, not framed whole.
    const [wx0, wy0, wx1, wy1] = s0['worldOnScreen'] as number[];
    const [x0, y0] = [Math.max(Math.min(wx0!, wx1!), 0), Math.max(Math.min(wy0!, wy1!), 0)];
    const [x1, y1] = [Math.min(Math.max(wx0!, wx1!), box.width), Math.min(Math.max(wy0!, wy1!), box.height)];
    expect(x1 - x0).toBeGreaterThan(100);
    expect(y1 - y0).toBeGreaterThan(100);
    let floors = 0;
    for (const [u, v] of [[0.31, 0.42], [0.5, 0.5], [0.77, 0.23], [0.12, 0.86]] as const) {
      const sx = x0! + (x1! - x0!) * u;
      const sy = y0! + (y1! - y0!) * v;
      await page.mouse.move(box.x + sx, box.y + sy);
      const s = await state();
      const hover = s['hover'];
      expect(hover, `hover at ${sx}, ${sy}`).not.toBeNull();
      // The map point under the cursor is drawn at the cursor.
      const back = (await page.evaluate(([x, y]) => window.retrosim.screenOf(x as number, y as number), hover.map))!;
      expect(Math.abs(back[0]! - sx)).toBeLessThan(1.01);
      expect(Math.abs(back[1]! - sy)).toBeLessThan(1.01);
      const p = hover.point as number[];
      const cli = runCli(['world', 'ground', FILES[id]!, ...p.map((n) => String(n)), '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(hover.ground).toEqual(JSON.parse(cli.stdout));
      if (hover.ground.hasFloor) floors++;
      // The panel shows it (in the format's detail, folded under the plain words: in the page, not displayed).
      const text = (await page.locator('#inspector .hover').textContent()) ?? '';
      expect(text).toContain(hover.ground.id >= 0 ? `${hover.ground.id}: ` : 'none');
    }
    expect(floors).toBeGreaterThan(0);
  });
});

describe('click: tiles and entities', () => {
  test('a Rugrats cell: its halves and stack, highlighted on the map', async () => {
    await open('rugrats-demo', 0);
    // The halved cell at column 2, z cell 2 (a ramp's diagonal in the demo level), clicked in its upper half.
    const at = (await page.evaluate(() => window.retrosim.screenOf(2 * 1024 + 800, 2 * 1024 + 700)))!;
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + at[0]!, box.y + at[1]!);
    const s = await state();
    expect(s['selection'].kind).toBe('tile');
    expect(s['tile'].title).toBe('Rugrats cell 2, 2');
    const rows = Object.fromEntries(s['tile'].rows as [string, string][]);
    expect(rows['halves']).toMatch(/diagonal/);
    expect(rows['stack A']).toMatch(/tile/);
    expect(await page.locator('#inspector .tile h2').innerText()).toBe('Rugrats cell 2, 2');
    const img = await mapShot('inspect-rugrats-tile');
    // The highlight's outline, in its colour, around the click.
    expect(countColour(img, ENTITY_COLOURS.tile, 30, Math.round(at[0]!), Math.round(at[1]!), 40)).toBeGreaterThan(20);
  });

  test.each([
    ['llama-demo', /^Llama cell \d+, \d+$/, 'tiles'],
    ['colbin-demo', /^COLBIN /, 'floor triangle'],
    ['gta-town', /^GTA /, 'surface'],
    ['piney-default', /^Piney cell \d+, \d+ \(chip \d+, \d+\)$/, 'chip'],
  ] as const)('%s: the world\'s own data at the clicked point', async (id, title, row) => {
    await open(id, 0);
    const s0 = await state();
    const [x0, y0, x1, y1] = s0['worldOnScreen'] as number[];
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + x0! + (x1! - x0!) * 0.6, box.y + y0! + (y1! - y0!) * 0.55);
    const s = await state();
    expect(s['selection'].kind).toBe('tile');
    expect(s['tile'].title).toMatch(title);
    expect((s['tile'].rows as [string, string][]).some(([k]) => k === row)).toBe(true);
    expect(await page.locator('#inspector .tile').textContent()).toContain(row);
  });

  test('an entity: components, behaviour and sight, live; F follows it; its rays are drawn seen and blocked', async () => {
    await open('rugrats-demo', 30);
    await page.evaluate(() => window.retrosim.advance(20));
    // An agent with both bodies it sees and bodies it does not.
    const chosen = await sandbox.selectAgentSeeingAndBlocked();
    expect(chosen).toBeGreaterThan(0);
    // Select it by clicking it, as a user does.
    await page.evaluate(() => window.retrosim.select(null));
    const at = (await page.evaluate((e) => window.retrosim.entityScreen(e), chosen))!;
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(box.x + at[0]!, box.y + at[1]!);
    let s = await state();
    expect(s['selection']).toEqual({ kind: 'entity', id: chosen });
    expect(s['entity'].role).toBe('agent');
    expect(['wander', 'patrol', 'chase (walks at the player while it sees it)']).toContain(s['entity'].behaviour);
    expect(s['entity'].components.map((c: { name: string }) => c.name)).toEqual(['Position', 'Velocity', 'Heading', 'BodySize', 'Agent', 'Sight', 'Motion']);
    const panel0 = (await page.locator('#inspector .entity').textContent()) ?? '';
    expect(panel0).toContain(`entity ${chosen}`);
    expect(panel0).toContain('behaviour');
    // Its rays: the seen ones solid, the blocked ones dashed with a cross where they stopped.
    const img = await mapShot('inspect-rugrats-agent-rays');
    expect(countColour(img, ENTITY_COLOURS.seenRay, 40)).toBeGreaterThan(10);
    expect(countColour(img, ENTITY_COLOURS.unseenRay, 40)).toBeGreaterThan(10);
    expect(countColour(img, ENTITY_COLOURS.selection, 30, Math.round(at[0]!), Math.round(at[1]!), 30)).toBeGreaterThan(10);
    await page.screenshot({ path: join(SHOTS, 'page-inspect-rugrats-agent.png') });
    // Live: as it walks, the panel follows.
    const pos0 = s['entity'].components[0].fields;
    await page.evaluate(() => window.retrosim.advance(45));
    s = await state();
    expect(s['entity'].components[0].fields).not.toEqual(pos0);
    expect(await page.locator('#inspector .entity').textContent()).not.toBe(panel0);
    // F follows the selected entity: it stays at the centre of the view.
    await page.keyboard.press('f');
    await page.evaluate(() => window.retrosim.advance(30));
    s = await state();
    const c = (await page.evaluate((e) => window.retrosim.entityScreen(e), chosen))!;
    expect(Math.abs(c[0]! - s['camera'].width / 2)).toBeLessThan(1.5);
    expect(Math.abs(c[1]! - s['camera'].height / 2)).toBeLessThan(1.5);
    expect(s['url']).toContain(`sel=${chosen}`);
    expect(s['url']).toContain('follow=1');
    // Esc clears the selection.
    await page.keyboard.press('Escape');
    expect((await state())['selection']).toBeNull();
  });

  test('the rays\' density: R cycles off, few, many, all, adding rays; the player stays on top and highlighted', async () => {
    await open('colbin-demo', 40);
    await page.evaluate(() => window.retrosim.advance(10));
    const shots: Record<string, Image> = {};
    const start = (await state())['rays'] as string;
    for (let i = 0; i < 4; i++) {
      const d = (await state())['rays'] as string;
      const img = (shots[d] = await mapShot(`rays-${d}-colbin`));
      // The player's arrow (red) with its white halo, whatever else is drawn.
      const at = (await page.evaluate(() => window.retrosim.entityScreen(1)))!;
      expect(countColour(img, ENTITY_COLOURS.player, 40, Math.round(at[0]!), Math.round(at[1]!), 14)).toBeGreaterThan(15);
      expect(countColour(img, 0xffffff, 20, Math.round(at[0]!), Math.round(at[1]!), 22)).toBeGreaterThan(10);
      await page.keyboard.press('r');
    }
    expect(Object.keys(shots).sort()).toEqual(['all', 'few', 'many', 'off']);
    // Nothing moved between the shots: what differs is the rays.
    const differing = (a: Image, b: Image) => {
      let n = 0;
      for (let i = 0; i < a.data.length; i += 4) if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 30) n++;
      return n;
    };
    const few = differing(shots['off']!, shots['few']!);
    const all = differing(shots['off']!, shots['all']!);
    expect(few).toBeGreaterThan(100);
    expect(all).toBeGreaterThanOrEqual(few);
    // Four presses went round to where it started.
    expect((await state())['rays']).toBe(start);
  });
});

describe('the heat map', () => {
  test('V turns it on: a grid of counts from line of sight, drawn over the ground, listed in the legend', async () => {
    await open('colbin-demo', 40);
    const before = await mapShot('heat-off-colbin');
    await page.keyboard.press('v');
    expect((await state())['heatOn']).toBe(true);
    await page.waitForFunction(() => {
      window.retrosim.render();
      return window.retrosim.state()['heat'] !== null;
    }, null, { timeout: 60_000, polling: 50 });
    const s = await state();
    expect(s['heat'].max).toBeGreaterThan(0);
    expect(s['heat'].rays).toBeGreaterThan(0);
    const grid = (await page.evaluate(() => window.retrosim.heatGrid()))!;
    expect(grid.counts.some((n: number) => n > 0)).toBe(true);
    const after = await mapShot('heat-on-colbin');
    await page.screenshot({ path: join(SHOTS, 'page-heat-colbin.png') });
    let changed = 0;
    for (let i = 0; i < after.data.length; i += 4) if (Math.abs(after.data[i]! - before.data[i]!) + Math.abs(after.data[i + 2]! - before.data[i + 2]!) > 40) changed++;
    expect(changed).toBeGreaterThan(after.width * after.height * 0.05);
    expect((s['legend'] as { group: string }[]).some((e) => e.group === 'heat map')).toBe(true);
    await page.keyboard.press('v');
  });

  test('a replay recorded while inspecting, with the heat map on, verifies in Node', async () => {
    await open('piney-default', 60);
    await page.keyboard.press('v');
    await page.evaluate(() => window.retrosim.startRecording());
    // Running, but on frames this test drives (the page's own animation frames are stopped).
    await page.evaluate(() => window.retrosim.resume());
    const box = (await page.locator('#map').boundingBox())!;
    const script: [string[], number, 'entity' | 'tile' | 'hover'][] = [
      [['ArrowUp'], 40, 'entity'],
      [['ArrowUp', 'ArrowLeft'], 30, 'tile'],
      [[], 20, 'hover'],
      [['KeyW', 'KeyD'], 40, 'entity'],
      [['KeyS'], 30, 'tile'],
    ];
    let k = 0;
    for (const [keys, n, what] of script) {
      const s = await state();
      const [x0, y0, x1, y1] = s['worldOnScreen'] as number[];
      const u = [0.3, 0.6, 0.45, 0.7, 0.2][k++]!;
      if (what === 'entity') {
        const at = (await page.evaluate((e) => window.retrosim.entityScreen(e), 2 + k))!;
        if (at) await page.mouse.click(box.x + at[0]!, box.y + at[1]!);
      } else if (what === 'tile') await page.mouse.click(box.x + x0! + (x1! - x0!) * u, box.y + y0! + (y1! - y0!) * (1 - u));
      else await page.mouse.move(box.x + x0! + (x1! - x0!) * u, box.y + y0! + (y1! - y0!) * u);
      for (const key of keys) await page.keyboard.down(key);
      // Frames driven through the page's own frame path (clock, steps, draw with the heat map and inspector).
      await page.evaluate((m) => {
        for (let i = 0; i < m; i++) window.retrosim.tick(1000 / 60);
      }, n);
      for (const key of keys) await page.keyboard.up(key);
    }
    const s = await state();
    expect(s['heatOn']).toBe(true);
    expect(s['heat']).not.toBeNull();
    expect(s['frame']).toBe(160);
    await page.evaluate(() => window.retrosim.pause());
    const bytes = Uint8Array.from(await page.evaluate(() => window.retrosim.finishRecording()));
    writeFileSync(join(REPLAYS, 'browser-inspecting-heat-piney.rsr'), bytes);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(160);
    expect(new Set(rp.frames.inputs).size).toBeGreaterThan(3);
    const opened = await openBuiltinWorld('piney-default', read);
    const v = verifyReplay(rp, simulationFromSettings(opened.world, rp.header.settings));
    expect(v.divergence).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(160);
    await page.keyboard.press('v');
  });
});

describe('legend and help', () => {
  test.each([
    ['rugrats-demo', ['missing cell (in the grid, no tiles)', 'the 1024-unit tile grid', 'the diagonal of a halved cell', 'a stack of floors (larger: deeper)']],
    ['rugrats-hand', ['the 1024-unit tile grid']],
    ['llama-demo', ['the cell grid', 'exit floor']],
    ['colbin-demo', ['floor triangle edges', 'a wall box (its footprint)', 'the wall grid']],
    ['gta-town', ["placements' mesh faces", 'collision spheres', 'collision boxes', 'grass', 'tarmac']],
    ['piney-default', ['the 40 × 40 chip grid', 'object: entrance', 'object: lake', 'the lake water']],
    ['piney-storm', ['night (the background row\'s time): the ground is tinted', 'rain drops', 'splashes']],
    ['piney-snow', ['snow']],
    ['piney-traveller', ["the traveller: Δ's airship"]],
  ] as const)('%s: the legend lists what is on screen, with swatches in the drawn colours', async (id, want) => {
    await open(id, 20);
    await page.evaluate((n) => window.retrosim.advance(n), id === 'piney-storm' || id === 'piney-snow' ? 200 : 30);
    const labels = await page.locator('#legend li .label').allInnerTexts();
    for (const w of want) expect(labels, w).toContain(w);
    for (const w of ['the player (on top, with a white halo)', 'an agent that sees the player', 'an agent that does not see the player']) expect(labels).toContain(w);
    // The swatches carry the colours the view draws with, and those colours are on screen.
    const player = await page.locator('#legend li[data-symbol="player"]').getAttribute('data-colour');
    expect(player).toBe('#ff3d00');
    const img = await mapShot(`legend-${id}`);
    expect(countColour(img, ENTITY_COLOURS.player, 40)).toBeGreaterThan(5);
    expect(countColour(img, ENTITY_COLOURS.agent, 30) + countColour(img, ENTITY_COLOURS.agentSees, 30)).toBeGreaterThan(5);
    // No game-internal sprite names.
    for (const l of labels) expect(l).not.toMatch(/EFF_|sfp8|rai\d|sno\d/);
    await page.locator('#legend').screenshot({ path: join(SHOTS, `legend-panel-${id}.png`) });
  });

  test('? shows the help with every key and mouse action; Esc and H close and open it', async () => {
    await page.keyboard.press('?');
    let s = await state();
    expect(s['helpShown']).toBe(true);
    const rows = await page.locator('#help-box tr.shortcut').count();
    expect(rows).toBe(helpRows().length);
    const text = await page.locator('#help-box').innerText();
    for (const r of helpRows()) expect(text).toContain(r.does);
    await page.screenshot({ path: join(SHOTS, 'help-overlay.png') });
    await page.keyboard.press('Escape');
    expect((await state())['helpShown']).toBe(false);
    await page.keyboard.press('h');
    s = await state();
    expect(s['helpShown']).toBe(true);
    await page.keyboard.press('h');
    expect((await state())['helpShown']).toBe(false);
  });
});

// The world files the CLI reads are the page's own: a check that the paths above are the catalog's.
test('the CLI files are the catalog\'s worlds', async () => {
  for (const [id, path] of Object.entries(FILES)) {
    const src = (await page.evaluate(() => window.retrosim.catalog)).find((e: { id: string }) => e.id === id)!.source as string;
    if (src.startsWith('builtin:')) expect((await openBuiltinWorld(src.slice(8), read)).identity.contentHash).toBe((await openWorldFile(path, read)).identity.contentHash);
    else expect(src.slice(5).split(';map:')[0]).toBe(path);
  }
});
