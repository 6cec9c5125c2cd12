/**
 * The "wander" scenario's goers: with `goers` absent or 0 a run is the run of the scenario before the
 * parameter existed, frame by frame (a replay recorded then, kept in fixtures/, verifies and every frame's
 * hash is the same); with goers, that many of the agents walk between places by navigation, make trips, and the
 * run's replay verifies to the bit on one thread and on two. Extras that repeat a name are refused; an
 * optional parameter stays out of the declared shape, and out of the recorded parameters at its default.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { readReplay } from '../../src/replay/format.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { replayScenario } from '../../src/replay/rebuild.js';
import { createSimulation, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { scenarioIdentity } from '../../src/scenarios/identity.js';
import { wanderScenario } from '../../src/scenarios/wander.js';
import { defineScenario, scenarioFingerprint, ScenarioError } from '../../src/sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Goer, GOALS_STREAM } from '../../src/systems/goers.js';
import { Goal, GoalStatus } from '../../src/nav/navigator.js';
import { hashHex } from '../../src/ecs/state-hash.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { linkBounds, parseViewLink } from '../../src/render/scene/view-link.js';
import { LinkState } from '../../src/render/sandbox/link-state.js';

/** Recorded by the runtime before `goers` (commit 23f38d8): `retrosim run --world rugrats-demo --scenario wander --agents 20 --frames 300`. */
const BEFORE = join(repoRoot, 'test/scenarios/fixtures/wander-before-goers.replay');

describe('the wander scenario without goers is the run it always was', () => {
  it('a replay recorded before the parameter verifies, and a run with goers absent or 0 has its hash on every frame', async () => {
    const rp = readReplay(new Uint8Array(readFileSync(BEFORE)));
    expect(rp.header.scenario).toMatchObject({ name: 'wander', source: 'builtin:wander', contentHash: '0x2800d83fa26637c4' });
    expect(rp.header.settings.params).toEqual({});
    // Its declared shape is the one recorded: goers is optional (its default is the scenario before it).
    expect(scenarioFingerprint(wanderScenario)).toBe('0x2800d83fa26637c4');
    const world = await openBuiltinWorld('rugrats-demo');
    const v = verifyReplay(rp, { world });
    expect(v.divergence).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(300);
    for (const params of [{}, { goers: 0 }] as Record<string, number>[]) {
      const sim = createSimulation(world.world, { scenario: 'wander', agents: rp.header.settings.agents, params });
      expect(sim.params).toEqual({ goers: 0 });
      expect(sim.settings.params).toEqual({}); // what a replay records: as before
      expect(sim.ecs.components.all.map((c) => c.name)).not.toContain('Goal');
      for (let f = 1; f <= 300; f++) {
        sim.step(rp.frames.inputs[f - 1]!);
        expect(sim.hashHex(), `frame ${f}`).toBe(hashHex(rp.frames.hashHi[f - 1]!, rp.frames.hashLo[f - 1]!));
      }
    }
    // Recorded again now, with goers absent or 0: the same bytes (after the runtime's version string).
    const runtimeLen = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint16(20, true);
    const before = new Uint8Array(readFileSync(BEFORE));
    mkdirSync(join(repoRoot, 'out'), { recursive: true });
    for (const set of [[], ['--set', 'goers=0']]) {
      const out = join(repoRoot, 'out', `wander-goers-${set.length}-${process.pid}.replay`);
      const r = runCli(['run', '--world', 'rugrats-demo', '--scenario', 'wander', '--agents', '20', '--frames', '300', ...set, '--out', out]);
      expect(r.code).toBe(0);
      const now = new Uint8Array(readFileSync(out));
      rmSync(out);
      expect(Buffer.from(now.subarray(22 + runtimeLen(now))).equals(Buffer.from(before.subarray(22 + runtimeLen(before)))), `the replay with ${set.join(' ') || 'goers absent'}`).toBe(true);
    }
  }, 120_000);
});

describe('goers walk between places by navigation', () => {
  it('goers make trips; the other agents wander; the replay verifies to the bit on one thread and on two', async () => {
    const opened = await openBuiltinWorld('rugrats-demo');
    const sim = createSimulation(opened.world, { scenario: 'wander', agents: 20, params: { goers: 6 } });
    const goal = sim.ecs.store(Goal);
    const goer = sim.ecs.store(Goer);
    const ids = [...Array(sim.ecs.maxId + 1).keys()].filter((e) => e > 0 && sim.ecs.alive[e] === 1);
    const goers = ids.filter((e) => sim.ecs.has(e, goer));
    const agents = ids.filter((e) => sim.ecs.has(e, sim.components.Agent));
    // Six of the twenty are goers (walking, not wandering: no Agent), the rest wander.
    expect(goers.length).toBe(6);
    expect(agents.length).toBe(14);
    for (const e of goers) expect(sim.ecs.has(e, sim.components.Agent)).toBe(false);
    expect(sim.settings.agents).toBe(20);
    const rec = new ReplayRecorder(sim, opened.identity, { keyframeInterval: 300 });
    let going = 0;
    for (let f = 1; f <= 1200; f++) {
      rec.step(demoButtons(f));
      for (const e of goers) if (goal.status[e] === GoalStatus.going) going++;
    }
    const trips = goers.reduce((n, e) => n + goer.trips[e]!, 0);
    expect(trips, 'trips made').toBeGreaterThan(0);
    for (const e of goers) expect(goer.trips[e], `goer ${e}'s trips`).toBeGreaterThan(0);
    expect(going, 'goer-frames on the way').toBeGreaterThan(1000);
    expect(sim.rng.streams.save().streams.find((x) => x.name === GOALS_STREAM)?.draws ?? 0).toBeGreaterThanOrEqual(trips);
    for (const e of agents) expect(sim.ecs.has(e, goal)).toBe(false);
    const finalHash = sim.hashHex();
    const rp = readReplay(rec.finish());
    expect(rp.header.settings.params).toEqual({ goers: 6 });
    const one = verifyReplay(rp, { world: await openBuiltinWorld('rugrats-demo') });
    expect(one.divergence).toBeUndefined();
    expect(one.ok).toBe(true);
    expect(one.finalHash).toBe(finalHash);
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      const two = verifyReplay(rp, { world: await openBuiltinWorld('rugrats-demo'), threads: pool });
      expect(two.divergence).toBeUndefined();
      expect(two.ok).toBe(true);
      expect(two.finalHash).toBe(finalHash);
    } finally {
      await pool.close();
    }
  }, 300_000);

  it('the command line sets goers with --set, and the summary names them', () => {
    const r = runCli(['run', '--world', 'colbin-demo', '--scenario', 'wander', '--agents', '8', '--set', 'goers=3', '--frames', '240', '--no-replay', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { settings: { params: Record<string, unknown> }; draws: { streams: Record<string, number> } };
    expect(s.settings.params).toEqual({ goers: 3 });
    expect(s.draws.streams[GOALS_STREAM]).toBeGreaterThan(0);
    const bad = runCli(['run', '--world', 'colbin-demo', '--scenario', 'wander', '--set', 'goers=-1', '--frames', '1', '--no-replay']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/goers/);
    expect(runCli(['run', '--help']).stdout).toMatch(/goers=N/);
  }, 120_000);

  it("the sandbox's address sets goers (p.goers) for a world that runs wander", async () => {
    const { world } = await openBuiltinWorld('rugrats-demo');
    const link = new LinkState(parseViewLink('?p.goers=3', { worlds: ['rugrats-demo'], bounds: linkBounds() }).link);
    const lines: string[] = [];
    const over = link.settingsFor(world, (l) => lines.push(l));
    expect(lines).toEqual([]);
    expect(over.params).toEqual({ goers: 3 });
    const sim = createSimulation(world, { ...over, agents: 10 });
    expect(sim.scenario.name).toBe('wander');
    expect(sim.params).toEqual({ goers: 3 });
  });
});

describe('extras and optional parameters', () => {
  it('extras that repeat a name are refused, naming the scenario', async () => {
    const { world } = await openBuiltinWorld('rugrats-demo');
    const twice = defineScenario({ name: 'twice', version: '1', description: '', systems: DEFAULT_SYSTEMS, extras: () => ({ systems: [DEFAULT_SYSTEMS[0]!] }) });
    expect(() => createSimulation(world, { scenario: twice, agents: 1 })).toThrow(new ScenarioError(`scenario twice with its extras: two systems are named ${DEFAULT_SYSTEMS[0]!.name}`));
    const notList = defineScenario({ name: 'not-list', version: '1', description: '', systems: DEFAULT_SYSTEMS, extras: () => ({ components: 3 as never }) });
    expect(() => createSimulation(world, { scenario: notList, agents: 1 })).toThrow(/extras\(params\)\.components must be a list/);
    expect(() => defineScenario({ name: 'bad', version: '1', description: '', systems: [], params: { n: { type: 'int', default: 0, optional: 1 as never } } })).toThrow(/parameter n's optional must be true or false/);
  });

  it("an optional parameter is out of the declared shape, and out of a run's recorded parameters at its default only", async () => {
    const { world } = await openBuiltinWorld('rugrats-demo');
    const before = defineScenario({ name: 'kept', version: '1', description: '', systems: DEFAULT_SYSTEMS, params: { a: { type: 'int', default: 1 } } });
    const later = defineScenario({ ...before, params: { a: { type: 'int', default: 1 }, n: { type: 'int', default: 0, optional: true } } });
    const plain = defineScenario({ ...before, params: { a: { type: 'int', default: 1 }, n: { type: 'int', default: 0 } } });
    expect(scenarioFingerprint(later)).toBe(scenarioFingerprint(before));
    expect(scenarioFingerprint(plain)).not.toBe(scenarioFingerprint(before));
    expect(createSimulation(world, { scenario: later, agents: 1 }).settings.params).toEqual({ a: 1 });
    expect(createSimulation(world, { scenario: later, agents: 1, params: { n: 0 } }).settings.params).toEqual({ a: 1 });
    expect(createSimulation(world, { scenario: later, agents: 1, params: { n: 2 } }).settings.params).toEqual({ a: 1, n: 2 });
    expect(createSimulation(world, { scenario: plain, agents: 1 }).settings.params).toEqual({ a: 1, n: 0 });
    expect(scenarioIdentity(later).contentHash).toBe(scenarioFingerprint(before));
    expect(replayScenario).toBeTypeOf('function');
    expect(simulationFromSettings).toBeTypeOf('function');
  });
});
