/**
 * A batch verify job's result passes the coordinator's check for a replay of every shape a format 3 or 4
 * file can hold (property): a built-in scenario or a scenario module (graph 2, and graph 1 as recorded before
 * it), one player or 2 to 4, any agents, frames, keyframe interval and parameters. The runner and the checker
 * agree on every field (a verify job of a module's replay used to fail: "scenario has a field "modules" it
 * should not have"), locally here and through the same checker on a queue.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/batch/blobs.js';
import type { VerifyPayload } from '../../src/batch/payload.js';
import { checkResultBody } from '../../src/batch/result-check.js';
import { runJob } from '../../src/batch/runner.js';
import { runtimeHash } from '../../src/node/runtime-hash.js';
import { WorkerEnv } from '../../src/batch/worker-env.js';
import { createSimulation, demoButtons, loadScenarioFile, openWorld, readReplay, ReplayRecorder, RUNTIME_VERSION, type ScenarioDef } from '../../src/index.js';
import { moduleGraph } from '../../src/node/module-graph.js';
import { ReplayWriter } from '../../src/replay/format.js';
import { repoRoot } from './helpers.js';

const guardsPath = join(repoRoot, 'examples/guards/guards.mjs');
const guardsGraph = moduleGraph(guardsPath);
const guards = (await loadScenarioFile(guardsPath, 'examples/guards/guards.mjs')).scenario;
const world = await openWorld('rugrats-demo');

/** The replay with its header written back as a graph-1 replay (recorded before graph 2) would hold it. */
function asGraph1(bytes: Uint8Array): Uint8Array {
  const rp = readReplay(bytes);
  const w = new ReplayWriter();
  w.header({ ...rp.header, scenario: { ...rp.header.scenario, contentHash: guardsGraph.legacyHash, modules: guardsGraph.legacyModules, packages: guardsGraph.legacyPackages } });
  const fresh = w.end(0, 0, 0);
  const head = fresh.subarray(12, fresh.length - 24);
  const oldEnd = 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true) + 4;
  const out = new Uint8Array(12 + head.length + bytes.length - oldEnd);
  out.set(fresh.subarray(0, 12), 0);
  out.set(head, 12);
  out.set(bytes.subarray(oldEnd), 12 + head.length);
  return out;
}

const shape = fc.record({
  scenario: fc.constantFrom('wander', 'guards', 'guards-graph1'),
  players: fc.integer({ min: 1, max: 4 }),
  agents: fc.integer({ min: 0, max: 4 }),
  frames: fc.integer({ min: 1, max: 40 }),
  keyframes: fc.integer({ min: 1, max: 25 }),
  guardCount: fc.integer({ min: 1, max: 5 }),
  seed: fc.stringMatching(/^[a-z0-9]{1,8}$/),
});

describe('verify jobs of every replay shape', () => {
  it('the runner\'s result passes the checker, ok, for built-in and module scenarios, 1 to 4 players (property)', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        const scenario: ScenarioDef | undefined = s.scenario === 'wander' ? undefined : guards;
        if (scenario) s.players = 1; // the guards scenario declares one player
        const sim = createSimulation(world.world, { ...(scenario ? { scenario, params: { guards: s.guardCount } } : {}), agents: s.agents, players: s.players, streamSeed: s.seed });
        const rec = new ReplayRecorder(sim, world.identity, { keyframeInterval: s.keyframes });
        for (let f = 1; f <= s.frames; f++) rec.step(s.players === 1 ? demoButtons(f) : Array.from({ length: s.players }, (_, k) => demoButtons(f + k)));
        let bytes = rec.finish();
        if (s.scenario === 'guards-graph1') bytes = asGraph1(bytes);
        const blobs = new BlobStore();
        const worldBlob = blobs.add(world.bytes);
        const payload: VerifyPayload = {
          kind: 'verify',
          key: 'b'.repeat(64),
          runtime: RUNTIME_VERSION,
          runtimeHash: runtimeHash(),
          file: 'x.replay',
          replay: blobs.add(bytes),
          world: { source: 'builtin:rugrats-demo', name: 'demo.col', parts: [{ role: 'main', blob: worldBlob }] },
          scenario: scenario ? { source: 'examples/guards/guards.mjs', graph: guardsGraph.hash } : null,
        };
        const env = new WorkerEnv();
        env.allow(guardsGraph.hash, guardsPath);
        env.blobs.set(worldBlob.sha256, world.bytes);
        env.blobs.set(payload.replay.sha256, bytes);
        const out = await runJob(payload, env);
        env.dropCopies();
        expect(out.body['ok']).toBe(true);
        const checked = checkResultBody(payload, JSON.stringify(out.body));
        expect(checked).toBeTruthy();
      }),
      { numRuns: 24 },
    );
  });
});
