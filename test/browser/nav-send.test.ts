/**
 * Sending an agent in Chromium and Firefox, with real clicks: on the COLBIN demo in the navigate scenario
 * (`scenario=navigate`), a click selects an agent, a Shift+click where another agent stands sends it there,
 * its planned path is drawn in its own purple (counted on the map canvas) and listed in the legend, and the
 * agent walks it: the path's first point follows the agent while its last (the goal) stays. In Chromium the
 * inspector's "Send it somewhere" button then sends it elsewhere with a plain click (the way on a touch screen).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSandbox, openSandboxInFirefox, type FirefoxHarness, type Harness, startBothBrowsers } from './harness.js';
import { countColour, decodePng } from './pixels.js';
import { PLANNED_PATH_COLOUR } from '../../src/render/scene/palette.js';

interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  mouse: { click(x: number, y: number): Promise<void> };
  keyboard: { down(key: string): Promise<void>; up(key: string): Promise<void> };
  click(selector: string): Promise<void>;
}

let h: Harness;
let ff: FirefoxHarness;

beforeAll(async () => {
  ({ h, ff } = await startBothBrowsers());
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

const state = (p: AnyPage) => p.evaluate(() => window.retrosim.state() as Record<string, any>, undefined);

/** Where entity `id` is drawn, in page pixels (null: not drawn). */
async function pageAt(p: AnyPage, id: number): Promise<[number, number] | null> {
  return p.evaluate((e) => {
    const at = window.retrosim.entityScreen(e) as [number, number] | null;
    const r = document.getElementById('map')!.getBoundingClientRect();
    return at && at[0] > 4 && at[1] > 4 && at[0] < r.width - 4 && at[1] < r.height - 4 ? ([r.left + at[0], r.top + at[1]] as [number, number]) : null;
  }, id);
}

async function sendAndSee(name: string, p: AnyPage): Promise<void> {
  await p.evaluate(() => window.retrosim.pause(), undefined);
  await p.evaluate(() => window.retrosim.render(), undefined);
  const s0 = await state(p);
  expect(s0['scenario'], name).toBe('navigate');
  expect(s0['canSend'], name).toBe(true);
  expect(s0['plan'], name).toBeNull();
  expect(s0['navBuilds'], name).toEqual({ builds: 0, lastFrames: 0 });

  // a click selects an agent (the players come first: entity 1 is the player)
  let agent = -1;
  for (let id = 2; id < 22 && agent < 0; id++) {
    const at = await pageAt(p, id);
    if (!at) continue;
    await p.mouse.click(at[0], at[1]);
    const sel = (await state(p))['selection'];
    if (sel?.kind === 'entity' && sel.id >= 2) agent = sel.id;
  }
  expect(agent, `${name}: an agent selected by a click`).toBeGreaterThanOrEqual(2);

  // a Shift+click where another agent stands sends it there (the farther ones first until a path of 4 nodes)
  let plan: { points: number; first: number[]; last: number[] } | null = null;
  let info = '';
  for (let id = 21; id >= 2 && !(plan && plan.points >= 4); id--) {
    if (id === agent) continue;
    const at = await pageAt(p, id);
    if (!at) continue;
    await p.keyboard.down('Shift');
    await p.mouse.click(at[0], at[1]);
    await p.keyboard.up('Shift');
    let s = await state(p);
    if (s['navBuilding'] !== null) {
      // the first send builds the graph a few milliseconds a frame (if this look came before it was whole)
      expect(s['info'], name).toMatch(/^Building this world's navigation graph( first \([\d,]+ cells, \d+ %\); the run goes on, and|: \d+ % of [\d,]+ cells;) agent \d+ is sent when it is built\.$/);
      expect(s['sending'], name).toBe(false);
      for (let k = 0; k < 1200 && (await state(p))['navBuilding'] !== null; k++) await new Promise((r) => setTimeout(r, 100));
      s = await state(p);
    }
    info = s['info'];
    expect(s['selection']?.id, `${name}: a Shift+click keeps the selection`).toBe(agent);
    if (!s['sending']) continue;
    // the order goes out in the next two frames
    await p.evaluate(() => window.retrosim.advance(2), undefined);
    plan = (await state(p))['plan'];
  }
  expect(info, name).toBe(`Agent ${agent} is sent there: it walks its planned path (purple) as the run goes on.`);
  expect(plan, `${name}: a planned path drawn`).not.toBeNull();
  // the first send waited for the graph, built over many animation frames (the page counts them: the page was
  // not stopped by the build, whatever the machine's load)
  const builds = (await state(p))['navBuilds'] as { builds: number; lastFrames: number };
  expect(builds.builds, `${name}: the first send waited for the graph, built once`).toBe(1);
  expect(builds.lastFrames, `${name}: animation frames while the graph was built`).toBeGreaterThan(3);
  expect(plan!.points, name).toBeGreaterThanOrEqual(4);

  // drawn in its own colour, and explained in the legend
  const png = await p.evaluate(() => {
    window.retrosim.render();
    const url = (document.getElementById('map') as HTMLCanvasElement).toDataURL('image/png');
    return url.slice(url.indexOf(',') + 1);
  }, undefined);
  const purple = countColour(decodePng(new Uint8Array(Buffer.from(png, 'base64'))), PLANNED_PATH_COLOUR, 48);
  expect(purple, `${name}: pixels of the planned path's colour`).toBeGreaterThan(20);
  const legend = (await state(p))['legend'] as { label: string; colour: number }[];
  expect(legend.find((e) => e.colour === PLANNED_PATH_COLOUR)?.label, name).toMatch(/^the selected agent's planned path/);

  // the agent walks it: the path starts where it stands now, and still ends at the goal
  await p.evaluate(() => window.retrosim.advance(90), undefined);
  const later = (await state(p))['plan'] as typeof plan;
  if (later) {
    expect(later.first, `${name}: the agent moved along`).not.toEqual(plan!.first);
    expect(later.last, name).toEqual(plan!.last);
    expect(later.points, name).toBeLessThanOrEqual(plan!.points);
  } else {
    // arrived within 90 frames: the path is gone, and the agent stands at its goal
    const at = await p.evaluate((e) => window.retrosim.entityScreen(e), agent);
    const goal = await p.evaluate(([x, y]) => window.retrosim.screenOf(x!, y!), plan!.last);
    expect(at, name).toEqual(goal);
  }

  // the inspector's button, then a plain click: sent elsewhere, the selection kept
  const before = ((await state(p))['plan'] as typeof plan)?.last ?? plan!.last;
  let moved = false;
  for (let id = 2; id < 22 && !moved; id++) {
    if (id === agent) continue;
    const at = await pageAt(p, id);
    if (!at) continue;
    await p.click('#inspector button.send');
    expect(await p.evaluate(() => document.querySelector('#inspector button.send')!.textContent, undefined), name).toBe('Click the map: where to?');
    await p.mouse.click(at[0], at[1]);
    const s = await state(p);
    expect(s['selection']?.id, `${name}: the click after the button keeps the selection`).toBe(agent);
    expect(await p.evaluate(() => document.querySelector('#inspector button.send')!.textContent, undefined), name).toBe('Send it somewhere');
    if (!s['sending']) continue;
    await p.evaluate(() => window.retrosim.advance(2), undefined);
    const again = (await state(p))['plan'] as typeof plan;
    moved = again !== null && (again.last[0] !== before[0] || again.last[1] !== before[1]);
  }
  expect(moved, `${name}: the send button sent the agent to another goal`).toBe(true);
  const sendHidden = () => p.evaluate(() => document.querySelector<HTMLButtonElement>('#inspector button.send')!.hidden, undefined);
  expect(await sendHidden(), `${name}: the button is offered for the agent`).toBe(false);

  // the player is not a body navigation walks: selected, it is not offered the button
  await p.evaluate(() => window.retrosim.select(1), undefined);
  await p.evaluate(() => window.retrosim.render(), undefined);
  expect((await state(p))['selection']?.id, name).toBe(1);
  expect(await sendHidden(), `${name}: no send button for the player`).toBe(true);
}

test('Chromium: a click selects an agent, a Shift+click sends it, its planned path is drawn and walked', async () => {
  const p = (await openSandbox(h, { world: 'colbin-demo', scenario: 'navigate', agents: '20' })) as unknown as AnyPage;
  await sendAndSee('Chromium', p);
});

test('Firefox: a click selects an agent, a Shift+click sends it, its planned path is drawn and walked', async () => {
  const p = (await openSandboxInFirefox(ff, h.url, { world: 'colbin-demo', scenario: 'navigate', agents: '20' })) as unknown as AnyPage;
  await sendAndSee('Firefox', p);
});
