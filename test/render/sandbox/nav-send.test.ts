import { describe, expect, test } from 'vitest';
import { readReplay, ReplayWriter, type Replay } from '../../../src/replay/format.js';
import { FormatError } from '../../../src/binary/format-error.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { simulationFromSettings } from '../../../src/scenarios/builtin.js';
import { Goal, GoalStatus, hasNavCache, navCacheFor } from '../../../src/nav/navigator.js';
import { findPath } from '../../../src/nav/path.js';
import { buildNavGraph, nearestNode, nodePosition } from '../../../src/nav/graph.js';
import { writeNavGraph } from '../../../src/nav/graph-file.js';
import { canReach, reachOf } from '../../../src/nav/reach.js';
import { defaultNavBody } from '../../../src/nav/walk.js';
import { NAV_ORDER_FLAG, navOrderWords } from '../../../src/systems/nav-orders.js';
import { opener } from '../helpers.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli.js';
import { CLICK_NODE_CELLS, NavSender, nodeNearClick, sendNews, sendSelectedTo } from '../../../src/render/sandbox/nav-send.js';
import fc from 'fast-check';
import { linkInputsNote } from '../../../src/render/sandbox/replay-controls.js';
import { mapPlaneOf, mapX, mapY } from '../../../src/render/scene/projection.js';
import { behaviours, describeEntity } from '../../../src/render/scene/inspect.js';
import { entityPlain } from '../../../src/render/scene/plain-words.js';

const WORLD = 'colbin-demo';

/** The first agent (by id) and a node a path of at least `points` points away from where it stands. */
function agentAndGoal(s: SandboxSession, points: number): { e: number; node: number; cost: number } {
  const sim = s.sim;
  const c = sim.ecs.components;
  const g = navCacheFor(sim.world).graph;
  for (let e = 1; e <= sim.ecs.maxId; e++) {
    if (sim.ecs.alive[e] !== 1 || !sim.ecs.has(e, c.Agent)) continue;
    const at: [number, number, number] = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!];
    if (nearestNode(g, at, sim.world.up.axis) < 0) continue;
    for (let n = 0; n < g.nodeCount; n += 7) {
      const p = findPath(g, at, nodePosition(g, n));
      if (p && p.points.length >= points) return { e, node: n, cost: p.cost };
    }
  }
  throw new Error('no agent with a path that long');
}

describe('navigation orders in the sandbox', () => {
  test('a sent agent walks the graph to its goal, the order is an input of the record, and the replay verifies', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    expect(s.sim.scenario.name).toBe('navigate');
    expect(s.canSend).toBe(true);
    for (let f = 0; f < 10; f++) s.stepLive(0);
    const { e, node } = agentAndGoal(s, 6);
    const sim = s.sim;
    const g = navCacheFor(sim.world).graph;
    const [a0, a1] = [g.grid.a0, g.grid.a1];
    const c = sim.ecs.components;
    const pos = [c.Position.x, c.Position.y, c.Position.z] as const;
    const to = nodePosition(g, node);
    const dist = (): number => Math.abs(pos[a0][e]! - to[a0]) + Math.abs(pos[a1][e]! - to[a1]);
    const before = dist();
    s.sendAgent(e, node);
    expect(s.sending).toBe(true);
    const goal = sim.ecs.store(Goal);
    s.stepLive(0);
    // The first half names the agent: no goal yet.
    expect(goal.status[e]).not.toBe(GoalStatus.going);
    s.stepLive(0);
    expect(s.sending).toBe(false);
    expect(s.sent).toBe(true);
    // a link carries no sends: it says so rather than reopen another run as this one
    expect(s.linkInputs()).toBeNull();
    expect(linkInputsNote(s.linkInputs(), s.sent)).toMatch(/^A link cannot carry the agents sent in this run/);
    expect(goal.status[e]).toBe(GoalStatus.going);
    // The page's line about the send stays while the agent walks, and says when it has arrived.
    expect(sendNews(s, { entity: e, node })).toBeNull();
    expect(sendNews(s, { entity: e, node: node === 0 ? 1 : 0 })).toBeNull();
    let arrivedAt = -1;
    for (let f = 0; f < 1800 && arrivedAt < 0; f++) {
      s.stepLive(0);
      if (goal.status[e] === GoalStatus.arrived) arrivedAt = s.frame;
      else expect(sendNews(s, { entity: e, node })).toBeNull();
    }
    expect(arrivedAt).toBeGreaterThan(0);
    expect(sendNews(s, { entity: e, node })).toBe(`Agent ${e} arrived, and wanders on from there.`);
    expect(before).toBeGreaterThan(0);
    expect(dist()).toBe(0);
    for (let f = 0; f < 30; f++) s.stepLive(0);

    // The two order words are frames 11 and 12 of the record, player 0's.
    const bytes = s.finishRecording();
    const rp = readReplay(bytes);
    const P = rp.frames.players;
    const [w1, w2] = navOrderWords(e, node);
    expect(rp.frames.inputs[10 * P]).toBe(w1);
    expect(rp.frames.inputs[11 * P]).toBe(w2);
    expect(rp.frames.inputs.filter((w) => (w & NAV_ORDER_FLAG) !== 0).length).toBe(2);
    const fresh = await opener(WORLD)();
    const v = verifyReplay(rp, simulationFromSettings(fresh.world, rp.header.settings));
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(rp.frames.count);

    // Seeking back between the order's two halves and playing on gives the recorded frames (the half kept in state).
    const end = s.frame;
    const hashes = s.recordedHashes;
    expect(s.seek(11).matches).toBe(true);
    for (let f = 12; f <= end; f++) expect(s.stepLive(0).hash).toBe(hashes[f - 1]);

    // Played as a replay, the agent walks the same way.
    await s.loadReplay(bytes);
    for (let f = 0; f < rp.frames.count; f++) expect(s.stepReplay()!.matches).toBe(true);
    expect(s.sim.ecs.store(Goal).status[e]).toBe(GoalStatus.arrived);
  }, 120_000);

  test('the same run without the order goes elsewhere: the agent does not stand at the goal', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    for (let f = 0; f < 10; f++) s.stepLive(0);
    const { e, node } = agentAndGoal(s, 6);
    const g = navCacheFor(s.sim.world).graph;
    const c = s.sim.ecs.components;
    const to = nodePosition(g, node);
    for (let f = 0; f < 300; f++) s.stepLive(0);
    const pos = [c.Position.x, c.Position.y, c.Position.z] as const;
    expect(pos[g.grid.a0][e] === to[g.grid.a0] && pos[g.grid.a1][e] === to[g.grid.a1]).toBe(false);
    expect(s.sim.ecs.store(Goal).status[e]).toBe(GoalStatus.idle);
  }, 120_000);

  test('a session whose scenario takes no orders, or a replay shown, refuses a send by name', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 2 });
    expect(s.canSend).toBe(false);
    expect(() => s.sendAgent(1, 0)).toThrow(/scenario wander takes no navigation orders/);
    const n = await SandboxSession.create(opener(WORLD), { agents: 2, scenario: 'navigate' });
    expect(() => n.sendAgent(1.5, 0)).toThrow(/entity 1.5 is not a whole number/);
    expect(() => n.sendAgent(1, -1)).toThrow(/node -1 is not a whole number/);
    for (let f = 0; f < 5; f++) n.stepLive(0);
    await n.loadReplay(n.finishRecording());
    expect(() => n.sendAgent(1, 0)).toThrow(/replay mode/);
  }, 120_000);

  test('a click on floor with no node of its own (beside a wall) takes the nearest node within two cells (property, against all nodes)', async () => {
    const { world } = await opener(WORLD)();
    const g = navCacheFor(world).graph;
    const up = world.up.axis;
    const { a0, a1, origin0, origin1, cell, n0, n1 } = g.grid;
    let snapped = 0;
    fc.assert(
      fc.property(fc.double({ min: -1, max: n0 + 1, noNaN: true }), fc.double({ min: -1, max: n1 + 1, noNaN: true }), (u, v) => {
        const p: [number, number, number] = [0, 0, 0];
        p[a0] = origin0 + u * cell;
        p[a1] = origin1 + v * cell;
        const got = nodeNearClick(g, p, up);
        const own = nearestNode(g, p, up);
        if (own >= 0) return expect(got).toBe(own);
        const i = Math.floor((p[a0] - origin0) / cell), j = Math.floor((p[a1] - origin1) / cell);
        let best = -1, bestD = Infinity;
        for (let n = 0; n < g.nodeCount; n++) {
          const c = g.cellOf[n]!;
          if (Math.abs((c % n0) - i) > CLICK_NODE_CELLS || Math.abs(Math.floor(c / n0) - j) > CLICK_NODE_CELLS) continue;
          const q = nodePosition(g, n);
          const [x, y, z] = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
          const d = x * x + y * y + z * z;
          if (d < bestD) (bestD = d), (best = n);
        }
        if (best >= 0) snapped++;
        expect(got).toBe(best);
      }),
      { numRuns: 2000 },
    );
    // Some clicks off the nodes' cells were taken to a neighbour's node (the property saw that case).
    expect(snapped).toBeGreaterThan(0);
  });

  test('a Shift+click on a place the agent cannot reach says so and sends nothing (the raised blocks of the Llama track)', async () => {
    const s = await SandboxSession.create(opener('llama-demo'), { agents: 8, scenario: 'navigate' });
    const sim = s.sim;
    const plane = mapPlaneOf(sim.world);
    const g = navCacheFor(sim.world).graph;
    const r = reachOf(g);
    const c = sim.ecs.components;
    const scratch = [new Uint32Array(r.count), new Int32Array(r.count)] as const;
    let found: { e: number; node: number; reachable: number } | null = null;
    for (let e = 1; e <= sim.ecs.maxId && !found; e++) {
      if (sim.ecs.alive[e] !== 1 || !sim.ecs.has(e, c.Agent)) continue;
      const from = nearestNode(g, [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!], sim.world.up.axis);
      if (from < 0) continue;
      // Nodes alone in their cell, so that the click cannot land on another floor of it.
      const alone = (n: number) => g.cellStart[g.cellOf[n]! + 1]! - g.cellStart[g.cellOf[n]!]! === 1;
      let node = -1, reachable = -1;
      for (let n = 0; n < g.nodeCount; n++) {
        if (!alone(n)) continue;
        const ok = canReach(r, from, n, scratch[0], scratch[1], n + 1);
        if (!ok && node < 0) node = n;
        if (ok && reachable < 0) reachable = n;
      }
      if (node >= 0 && reachable >= 0) found = { e, node, reachable };
    }
    expect(found).not.toBeNull();
    const { e, node, reachable } = found!;
    const at = (n: number): [number, number] => {
      const p = nodePosition(g, n);
      return [mapX(plane, p), mapY(plane, p)];
    };
    const out = sendSelectedTo(s, { kind: 'entity', id: e }, ...at(node), plane);
    expect(out).toEqual({ sent: null, text: expect.stringMatching(new RegExp(`^Agent ${e} has no way from where it stands to there`)) });
    expect(s.sending).toBe(false);
    // A place it can reach still sends.
    expect(sendSelectedTo(s, { kind: 'entity', id: e }, ...at(reachable), plane).sent).toEqual({ entity: e, node: reachable });
  }, 120_000);

  test('a Shift+click sends the selected agent to the node under the click, or says why not', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    const plane = mapPlaneOf(s.sim.world);
    const g = navCacheFor(s.sim.world).graph;
    const node = Math.floor(g.nodeCount / 2);
    const p = nodePosition(g, node);
    const [mx, my] = [mapX(plane, p), mapY(plane, p)];
    const e = 1 + s.sim.players.length;
    expect(sendSelectedTo(s, null, mx, my, plane)).toEqual({ sent: null, text: expect.stringMatching(/^Select an agent first/) });
    expect(sendSelectedTo(s, { kind: 'tile', x: mx, y: my }, mx, my, plane).sent).toBeNull();
    expect(sendSelectedTo(s, { kind: 'entity', id: s.sim.player }, mx, my, plane).text).toMatch(/is not an agent navigation walks/);
    expect(sendSelectedTo(s, { kind: 'entity', id: e }, 1e12, 1e12, plane).text).toMatch(/off the navigation graph/);
    expect(s.sending).toBe(false);
    const out = sendSelectedTo(s, { kind: 'entity', id: e }, mx, my, plane);
    expect(out.sent).toEqual({ entity: e, node });
    expect(s.sending).toBe(true);
    const said = () => entityPlain(describeEntity(s.sim, e, behaviours(s.sim))!, s.sim.player, null);
    expect(said()).not.toMatch(/walking to its goal/);
    s.stepLive(0);
    s.stepLive(0);
    expect(s.sim.ecs.store(Goal).status[e]).toBe(GoalStatus.going);
    // The inspector's words say what the agent does now, not the behaviour navigation overrides.
    expect(said()).toMatch(new RegExp(`^Agent ${e}, walking to its goal\\.`));
    const w = await SandboxSession.create(opener(WORLD), { agents: 4 });
    expect(sendSelectedTo(w, { kind: 'entity', id: e }, mx, my, plane).text).toMatch(/needs the "navigate" scenario .*scenario=navigate/);
  }, 120_000);

  test('the page loads a replay with orders; an input word with other bits beyond the buttons is refused, naming the frame', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    s.sendAgent(1 + s.sim.players.length, 3);
    for (let f = 0; f < 6; f++) s.stepLive(0);
    const rp = readReplay(s.finishRecording());
    const rewrite = (r: Replay, inputs: Uint32Array): Uint8Array => {
      const w = new ReplayWriter();
      w.header(r.header);
      for (const k of r.keyframes) w.keyframe(k.frame, k.hashHi, k.hashLo, k.snapshot);
      const f = r.frames;
      w.frames(1, f.count, { inputs, hashHi: f.hashHi, hashLo: f.hashLo, fieldrand: f.fieldrand, ccrand: f.ccrand, sections: f.sections }, r.header.sections.length);
      return w.end(f.count, f.hashHi[f.count - 1]!, f.hashLo[f.count - 1]!);
    };
    // the same file written again loads and plays to the bit
    const b = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    await b.loadReplay(rewrite(rp, rp.frames.inputs));
    for (let f = 0; f < rp.frames.count; f++) expect(b.stepReplay()!.matches).toBe(true);
    // bit 8 alone (no order flag) in frame 4
    const forged = rp.frames.inputs.slice();
    forged[3 * rp.frames.players] = 0x100;
    const c = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    const err = await c.loadReplay(rewrite(rp, forged)).then(() => null, (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(FormatError);
    expect(err!.message).toContain('input 0x100 of frame 4 has undefined button bits');
  }, 120_000);

  test('the command line verifies and seeks the replay of a run with a send', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    for (let f = 0; f < 3; f++) s.stepLive(0);
    const { e, node } = agentAndGoal(s, 4);
    s.sendAgent(e, node);
    for (let f = 0; f < 400; f++) s.stepLive(0);
    expect(s.sim.ecs.store(Goal).status[e]).toBe(GoalStatus.arrived);
    const dir = mkdtempSync(join(tmpdir(), 'retrosim-navsend-'));
    try {
      const file = join(dir, 'sent.rsr');
      writeFileSync(file, s.finishRecording());
      const v = runCli(['replay', 'verify', file, '--json']);
      expect(v.stderr).toBe('');
      expect(v.code).toBe(0);
      expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, frames: 403, finalHash: s.hash });
      const k = runCli(['replay', 'seek', file, '--frame', '200', '--json']);
      expect(k.code).toBe(0);
      expect(JSON.parse(k.stdout)).toMatchObject({ frame: 200, hash: s.recordedHashes[199] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test('a send on a world whose graph is not built yet builds it a slice at a time, then goes out to the same node', async () => {
    const s = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    const world = s.sim.world;
    expect(hasNavCache(world)).toBe(false);
    const plane = mapPlaneOf(world);
    const whole = buildNavGraph(world, defaultNavBody(world));
    const node = Math.floor(whole.nodeCount / 3);
    const p = nodePosition(whole, node);
    const e = 1 + s.sim.players.length;
    const sender = new NavSender();
    expect(sender.building).toBeNull();
    const first = sender.send(s, { kind: 'entity', id: e }, mapX(plane, p), mapY(plane, p), plane);
    expect(first.sent).toBeNull();
    expect(first.text).toMatch(/^Building this world's navigation graph first \([\d,]+ cells, 0 %\); the run goes on, and agent \d+ is sent when it is built\.$/);
    expect(s.sending).toBe(false);
    // the run goes on while the graph is built: a pump now and then, a frame between
    const lines: string[] = [];
    let out = null;
    let pumps = 0;
    let last = 0;
    while (out === null || out.sent === null) {
      out = sender.pump(s, () => true);
      pumps++;
      if (out && out.sent === null) lines.push(out.text);
      if (sender.building !== null) {
        expect(sender.building).toBeGreaterThanOrEqual(last);
        last = sender.building;
      }
      if (pumps % 50 === 0) s.stepLive(0);
      expect(pumps).toBeLessThan(100_000);
    }
    expect(pumps).toBeGreaterThan(10);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.every((l) => /^Building this world's navigation graph: \d+ % of [\d,]+ cells; agent \d+ is sent when it is built\.$/.test(l))).toBe(true);
    expect(out.sent).toEqual({ entity: e, node });
    expect(sender.building).toBeNull();
    expect(s.sending).toBe(true);
    // the graph the send built is the one built at once, and the world keeps it
    expect(hasNavCache(world)).toBe(true);
    expect(writeNavGraph(navCacheFor(world).graph)).toEqual(writeNavGraph(whole));
    // a send waiting while another session is shown is forgotten
    const t = await SandboxSession.create(opener(WORLD), { agents: 4, scenario: 'navigate' });
    expect(sender.send(t, { kind: 'entity', id: e }, 0, 0, plane).sent).toBeNull();
    expect(sender.building).toBe(0);
    expect(sender.pump(s, () => true)).toBeNull();
    expect(sender.building).toBeNull();
    expect(t.sending).toBe(false);
  }, 300_000);
});
