/**
 * Navigation on three engines: V8 (Node and Chromium) and SpiderMonkey (Firefox); JavaScriptCore (Bun) is
 * test/engines/nav-engines.test.ts. On three shipped worlds, a run of the "navigate" scenario in which agents
 * are sent across the world by navigation orders (inputs, so the replay carries them) is recorded in Node
 * through the sandbox's own session; the replay verifies in Node on one thread and on two (system threads);
 * then each browser page loads it and plays it frame by frame through the simulation code the sandbox bundles:
 * every frame's state hash is Node's, to the bit, and the page's own comparison with the recorded hashes
 * holds on every frame.
 */
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hex64, readReplay } from '../../src/replay/format.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { SandboxSession } from '../../src/render/sandbox/session.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { Goal, GoalStatus, navCacheFor } from '../../src/nav/navigator.js';
import { nearestNode, nodePosition } from '../../src/nav/graph.js';
import { findPath } from '../../src/nav/path.js';
import { NAV_ORDER_FLAG } from '../../src/systems/nav-orders.js';
import { Behaviour } from '../../src/systems/controller.js';
import { ControllerState } from '../../src/ecs/components.js';
import { opener } from '../render/helpers.js';
import { openSandbox, openSandboxInFirefox, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

type AnyPage = Page | FirefoxPage;
const evaluate = <R, A>(page: AnyPage, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
  (page as unknown as { evaluate(f: (arg: A) => R | Promise<R>, a: A): Promise<R> }).evaluate(fn, arg);

const WORLDS = ['colbin-demo', 'rugrats-demo', 'llama-demo'] as const;
const FRAMES = 900;
/** The frames on which an agent is sent, and how many points its path has at least. */
const SENDS = [10, 40, 70];

/** A run recorded in Node: the replay, the hash after every frame, the agents sent and how many of them arrived. */
interface NodeRun {
  bytes: Uint8Array;
  hashes: string[];
  sent: number;
  arrived: number;
}

/** The navigate scenario on `id`: agents sent, one after another, to places a long path away, as the sandbox sends. */
async function recordInNode(id: string): Promise<NodeRun> {
  const s = await SandboxSession.create(opener(id), { agents: 10, scenario: 'navigate' });
  const sim = s.sim;
  const c = sim.ecs.components;
  const g = navCacheFor(sim.world).graph;
  const goal = sim.ecs.store(Goal);
  const behaviour = sim.ecs.store(ControllerState).behaviour;
  const agents: number[] = [];
  for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.alive[e] === 1 && sim.ecs.has(e, c.Agent)) agents.push(e);
  const sentTo: number[] = [];
  const arrivedSet = new Set<number>();
  let next = 0;
  for (let f = 1; f <= FRAMES; f++) {
    if (next < SENDS.length && f === SENDS[next]) {
      // The next wandering agent standing on the graph, to the first node (every 7th) a path of at least 8
      // points away. (A patrolling or chasing agent's velocity is the controller's, which runs after navigation.)
      for (const e of agents) {
        const at: [number, number, number] = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!];
        if (sentTo.includes(e) || behaviour[e] !== Behaviour.Wander || nearestNode(g, at, sim.world.up.axis) < 0) continue;
        let to = -1;
        for (let n = (37 * (next + 1)) % g.nodeCount, k = 0; k < g.nodeCount && to < 0; k += 7, n = (n + 7) % g.nodeCount) {
          const p = findPath(g, at, nodePosition(g, n));
          if (p && p.points.length >= 8) to = n;
        }
        if (to < 0) continue;
        s.sendAgent(e, to);
        sentTo.push(e);
        break;
      }
      next++;
    }
    s.stepLive(0);
    for (const e of sentTo) if (goal.status[e] === GoalStatus.arrived) arrivedSet.add(e);
  }
  const arrived = arrivedSet.size;
  return { bytes: s.finishRecording(), hashes: s.recordedHashes.slice(0, FRAMES), sent: sentTo.length, arrived };
}

let h: Harness;
let ff: FirefoxHarness;
const pages: { name: string; page: AnyPage }[] = [];

beforeAll(async () => {
  const [c, f] = await Promise.allSettled([startHarness(), startFirefox()]);
  if (c.status === 'fulfilled') h = c.value;
  if (f.status === 'fulfilled') ff = f.value;
  for (const r of [c, f]) if (r.status === 'rejected') throw r.reason;
  const query = { world: 'colbin-demo', agents: '4', scenario: 'navigate' };
  pages.push({ name: 'Chromium', page: await openSandbox(h, query) }, { name: 'Firefox', page: await openSandboxInFirefox(ff, h.url, query) });
  for (const { page } of pages) await evaluate(page, () => window.retrosim.pause(), undefined);
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

describe('agents walking by navigation hash the same on every frame in Node, Chromium and Firefox', () => {
  test('the two browsers are two engines: Chromium (V8) and Firefox (SpiderMonkey)', async () => {
    const agents = await Promise.all(pages.map(({ page }) => evaluate(page, () => navigator.userAgent, undefined)));
    expect(agents[0]).toMatch(/Chrome\//);
    expect(agents[1]).toMatch(/Firefox\/\d+/);
    expect(agents[1]).not.toMatch(/Chrome/);
  });

  test.each(WORLDS)('%s', async (id) => {
    const run = await recordInNode(id);
    expect(run.sent).toBe(SENDS.length);
    expect(run.arrived, 'agents sent that arrived in Node').toBeGreaterThanOrEqual(2);
    const rp = readReplay(run.bytes);
    expect(rp.header.settings.scenario).toBe('navigate');
    expect(rp.frames.count).toBe(FRAMES);
    // The orders are inputs of the replay: two words a send.
    expect(Array.from(rp.frames.inputs).filter((w) => (w & NAV_ORDER_FLAG) !== 0).length).toBe(2 * SENDS.length);
    const recorded = Array.from({ length: FRAMES }, (_, i) => hex64(rp.frames.hashHi[i]!, rp.frames.hashLo[i]!));
    expect(recorded).toEqual(run.hashes);
    expect(new Set(recorded).size).toBeGreaterThan(FRAMES / 2);

    // Node verifies it on one thread and on two.
    const one = verifyReplay(rp, simulationFromSettings((await openBuiltinWorld(id)).world, rp.header.settings));
    expect(one.divergence).toBeUndefined();
    expect(one.ok).toBe(true);
    expect(one.finalHash).toBe(recorded[FRAMES - 1]);
    const opened = await openBuiltinWorld(id);
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      const two = verifyReplay(rp, simulationFromSettings(opened.world, rp.header.settings, undefined, undefined, pool));
      expect(two.divergence).toBeUndefined();
      expect(two.ok).toBe(true);
      expect(two.finalHash).toBe(recorded[FRAMES - 1]);
    } finally {
      await pool.close();
    }

    for (const { name, page } of pages) {
      await evaluate(page, (b64: string) => window.retrosim.loadReplay(Array.from(atob(b64), (ch) => ch.charCodeAt(0))), Buffer.from(run.bytes).toString('base64'));
      const inPage = await evaluate(page, () => {
        const r = window.retrosim;
        const st = r.state();
        const hashes: string[] = [];
        const matches: (boolean | null)[] = [];
        const n = st['replayLength'] as number;
        for (let i = 0; i < n; i++) {
          matches.push(...r.playReplay(1));
          hashes.push(r.state()['hash'] as string);
        }
        return { hashes, matches, scenario: st['scenario'] as string, kind: st['kind'] as string };
      }, undefined);
      expect(inPage.scenario, name).toBe('navigate');
      expect(inPage.hashes.length, name).toBe(FRAMES);
      // Frame by frame, so a failure names the browser and the first frame that differs.
      for (let f = 0; f < FRAMES; f++) expect(inPage.hashes[f], `${name}, ${id}, frame ${f + 1}`).toBe(recorded[f]);
      expect(inPage.matches.every((m) => m === true), `${name}: the page's own comparison with the recorded hashes`).toBe(true);
      const st = await evaluate(page, () => window.retrosim.state(), undefined);
      expect(st['source']).toBe(`builtin:${id}`);
      expect(st['desyncFrame']).toBe(-1);
    }
  });
});
