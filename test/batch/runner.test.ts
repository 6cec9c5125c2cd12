/**
 * The job runner, in this process: a run job gives what the public API gives for the same simulation,
 * its line-of-sight statistics agree with a count made independently and leave the state hash alone, a
 * kept replay verifies, a tampered one diverges, and scenario modules load from their bytes; on a worker
 * that keeps worlds (and its last simulation) between jobs, every job gives the bytes it gives alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/batch/blobs.js';
import { planSpec, type PlannedJob } from '../../src/batch/plan.js';
import type { RunPayload, VerifyPayload } from '../../src/batch/payload.js';
import { KEEP_PREVIOUS_FRAMES, runJob, sha256Hex, type JobOutput } from '../../src/batch/runner.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { keepsRunTimeState, WORLD_CACHE_SIZE, WorkerEnv } from '../../src/batch/worker-env.js';
import { crc32 } from '../../src/binary/crc32.js';
import { createSimulation, demoButtons, eyeHeight, loadScenarioFile, openWorld, RUNTIME_VERSION, type Simulation } from '../../src/index.js';
import { repoRoot } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-runner-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A scenario module with no imports (a test process cannot resolve 'retrosim' inside one): a counter. */
const DRIFT = `export default {
  name: 'drift', version: '1.0.0', description: 'a counter moved by a parameter and ccRand',
  params: { step: { type: 'int', default: 1, min: 1, max: 100 } },
  systems: [{ name: 'drift', priority: 10, create() {
    const state = { total: new Float64Array(1) };
    return { state, run(ctx) { state.total[0] += ctx.params.step + (ctx.rng.ccrand.next() % 3); } };
  } }],
};
`;

async function plan(batch: unknown, dir = repoRoot): Promise<{ jobs: PlannedJob[]; blobs: BlobStore }> {
  const file = join(dir, 'batch.json');
  // Some jobs name the repository's assets from a temporary folder: allowed explicitly, as --allow-dir does.
  return planSpec(checkBatchFile(batch, file, 'b'), file, undefined, { allowDirs: [repoRoot] });
}

/** A scenario module that switches the world's first tile swap on frame 5 (a Llama level's run-time state). */
const SWAPPER = `export default {
  name: 'swapper', version: '1.0.0', description: 'switches the first tile swap on frame 5',
  systems: [{ name: 'swapper', priority: 10, create() {
    return { run(ctx) { if (ctx.frame === 5 && ctx.world.swapCount > 0) ctx.world.setSwap(0, !ctx.world.getSwap(0)); } };
  } }],
};
`;

/** Gives a worker env the inputs of a job and the batch's scenario modules (as the local pool does). */
function send(env: WorkerEnv, j: PlannedJob, blobs: BlobStore): void {
  for (const ref of [...(j.payload!.world.parts.map((p) => p.blob)), ...(j.payload!.kind === 'verify' ? [j.payload!.replay] : [])]) {
    env.blobs.set(ref.sha256, blobs.get(ref.sha256));
  }
  for (const [graph, path] of blobs.modules()) env.allow(graph, path);
}

/** Runs a job on a fresh worker env (nothing from other jobs). */
async function run(j: PlannedJob, blobs: BlobStore): Promise<JobOutput> {
  const env = new WorkerEnv();
  send(env, j, blobs);
  return runJob(j.payload!, env);
}

describe('batch job runner', () => {
  it('a run job ends on the hash the public API gives for the same settings and buttons', async () => {
    const p = await plan({ batch: 1, jobs: [{ world: 'rugrats-demo', agents: 20, seed: 'abc', frames: 200, measure: ['draws', 'events'] }] });
    const out = await run(p.jobs[0]!, p.blobs);
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { agents: 20, streamSeed: 'abc' });
    for (let f = 1; f <= 200; f++) sim.step(demoButtons(f));
    expect(out.body['finalHash']).toBe(sim.hashHex());
    expect(out.body['agents']).toBe(sim.agentsPlaced);
    const streams: Record<string, number> = {};
    for (const s of sim.rng.streams.save().streams) streams[s.name] = s.draws;
    expect(out.body['draws']).toEqual({ fieldrand: sim.scheduler.drawCounts().fieldrand, ccrand: sim.scheduler.drawCounts().ccrand, streams });
    expect(out.replay).toBeNull();
    // The timing is beside the body, never in it.
    expect(JSON.stringify(out.body)).not.toMatch(/second|perSecond/i);
  });

  it('line-of-sight statistics count the pairs an independent segment-by-segment count finds, and change no hash', async () => {
    const p = await plan({ batch: 1, jobs: [
      { world: 'rugrats-demo', agents: 24, seed: 's', frames: 120, losEvery: 120, measure: ['los'] },
      { world: 'rugrats-demo', agents: 24, seed: 's', frames: 120 },
    ] });
    const withLos = await run(p.jobs[0]!, p.blobs);
    const without = await run(p.jobs[1]!, p.blobs);
    expect(withLos.body['finalHash']).toBe(without.body['finalHash']);
    const los = withLos.body['los'] as Record<string, number>;
    expect(los['samples']).toBe(1);
    expect(los['looks']).toBe(30);

    // The same simulation to frame 120, and every pair of agents cast one by one.
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { agents: 24, streamSeed: 's' });
    for (let f = 1; f <= 120; f++) sim.step(demoButtons(f));
    const { Sight, Position, BodySize } = sim.ecs.components;
    const ids: number[] = [];
    for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.isAlive(e) && sim.ecs.has(e, Sight)) ids.push(e);
    const up = world.up.axis;
    const eye = (e: number) => {
      const v = [Position.x[e]!, Position.y[e]!, Position.z[e]!];
      v[up] += world.up.sign * eyeHeight(world, BodySize.height[ids[0]!]!);
      return v;
    };
    const range = Sight.range[ids[0]!]!;
    let pairs = 0;
    let most = 0;
    const seen = new Array<number>(ids.length).fill(0);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = eye(ids[i]!), b = eye(ids[j]!);
        const d2 = (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
        if (d2 <= range * range && world.segmentFraction(a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!) < 0) {
          pairs++;
          seen[i]!++;
          seen[j]!++;
        }
      }
    }
    for (const s of seen) most = Math.max(most, s);
    expect(pairs).toBeGreaterThan(0); // the check has something to count
    expect(los['agents']).toBe(ids.length);
    expect(los['pairs']).toBe(pairs);
    expect(los['pairsPerFrame']).toBe(pairs);
    expect(los['perAgent']).toBe((2 * pairs) / ids.length);
    expect(los['perAgentMax']).toBe(most);
  });

  it('"seesTarget" is the mean, over the frames the line-of-sight system looks on, of agents seeing the player', async () => {
    const frames = 24;
    const p = await plan({ batch: 1, jobs: [{ world: 'rugrats-demo', agents: 60, seed: 'v', frames, measure: ['los'] }] });
    const los = (await run(p.jobs[0]!, p.blobs)).body['los'] as Record<string, number>;
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { agents: 60, streamSeed: 'v' });
    const { Sight } = sim.ecs.components;
    let seeing = 0;
    let looks = 0;
    for (let f = 1; f <= frames; f++) {
      sim.step(demoButtons(f));
      if (f % 4 !== 0) continue;
      looks++;
      for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.isAlive(e) && sim.ecs.has(e, Sight)) seeing += Sight.visible[e]!;
    }
    expect(seeing).toBeGreaterThan(0);
    expect(los['looks']).toBe(looks);
    expect(los['seesTarget']).toBe(seeing / looks);
  });

  it('a kept replay verifies as a verify job; the same replay with one input changed diverges there', async () => {
    const p = await plan({ batch: 1, jobs: [{ world: 'rugrats-demo', agents: 10, seed: 'r', frames: 150, keepReplay: true }] });
    const out = await run(p.jobs[0]!, p.blobs);
    expect(out.replay).not.toBeNull();
    const replay = out.replay!;
    expect((out.body['replay'] as Record<string, unknown>)['sha256']).toBe(sha256Hex(replay));

    const verifyWith = async (bytes: Uint8Array): Promise<JobOutput> => {
      const blobs = new BlobStore();
      const payload: VerifyPayload = { kind: 'verify', key: 'f'.repeat(64), runtime: RUNTIME_VERSION, runtimeHash: 'e'.repeat(64), file: 'x.replay', replay: blobs.add(bytes), world: (p.jobs[0]!.payload as RunPayload).world, scenario: null };
      blobs.add(p.blobs.get(payload.world.parts[0]!.blob.sha256));
      return run({ ...p.jobs[0]!, kind: 'verify', payload }, blobs);
    };
    const good = await verifyWith(replay);
    expect(good.body).toMatchObject({ ok: true, frames: 150, finalHash: out.body['finalHash'], divergence: null });

    // Frame 100's input word, in the first FRAM chunk (after HEAD and KEYF), changed and the CRC fixed.
    const bad = replay.slice();
    const dv = new DataView(bad.buffer);
    let at = 12;
    for (let i = 0; i < 2; i++) at += 12 + dv.getUint32(at + 4, true);
    expect(String.fromCharCode(...bad.subarray(at, at + 4))).toBe('FRAM');
    const len = dv.getUint32(at + 4, true);
    const sections = (len - 8) / 150 / 4 - 5;
    const word = at + 8 + 8 + 99 * (20 + 4 * sections);
    dv.setUint32(word, dv.getUint32(word, true) === 0 ? 1 : 0, true);
    dv.setUint32(at + 8 + len, crc32(bad, at, at + 8 + len), true);
    const diverged = await verifyWith(bad);
    expect(diverged.body['ok']).toBe(false);
    expect((diverged.body['divergence'] as { frame: number }).frame).toBe(100);
  });

  it('a scenario module runs from the batch\'s own file (its allow-list), with the identity loadScenarioFile gives the file', async () => {
    const dir = join(tmp, 'mod');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'drift.mjs');
    writeFileSync(file, DRIFT);
    const direct = await loadScenarioFile(file, 'drift.mjs');
    const p = await plan({ batch: 1, jobs: [{ world: join(repoRoot, 'assets/worlds/rugrats/demo.col'), scenario: 'drift.mjs', agents: 3, frames: 90, params: { step: 7 } }] }, dir);
    const payload = p.jobs[0]!.payload as RunPayload;
    expect('graph' in payload.scenario && payload.scenario.source).toBe('drift.mjs');
    // Without the module on its allow-list, an env refuses the job.
    const bare = new WorkerEnv();
    for (const part of payload.world.parts) bare.blobs.set(part.blob.sha256, p.blobs.get(part.blob.sha256));
    await expect(runJob(payload, bare)).rejects.toThrow(/^scenario drift\.mjs \(module graph [0-9a-f]{12}…\) is not on this worker's allow-list/);
    const out = await run(p.jobs[0]!, p.blobs);
    // A result line names the scenario by its graph's hash; the per-module list is the replay header's.
    const { name, version, source, contentHash } = direct.identity;
    expect(out.body['scenario']).toEqual({ name, version, source, contentHash });
    expect(direct.identity.modules!.map((m) => m.path)).toEqual(['drift.mjs']);
    expect(out.body['settings']).toMatchObject({ scenario: 'drift', params: { step: 7 } });
    const { world } = await openWorld(join(repoRoot, 'assets/worlds/rugrats/demo.col'));
    const sim = createSimulation(world, { scenario: direct.scenario, agents: 3, params: { step: 7 } });
    for (let f = 1; f <= 90; f++) sim.step(demoButtons(f));
    expect(out.body['finalHash']).toBe(sim.hashHex());
    const other = createSimulation(world, { scenario: direct.scenario, agents: 3, params: { step: 8 } });
    for (let f = 1; f <= 90; f++) other.step(demoButtons(f));
    expect(other.hashHex()).not.toBe(sim.hashHex()); // the parameter reaches the state, so the check above means something
  });

  it('a world that does not parse fails the job with the parser\'s message', async () => {
    const dir = join(tmp, 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bad.col'), readFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col')).subarray(0, 64));
    const p = await plan({ batch: 1, jobs: [{ world: 'bad.col', frames: 10 }] }, dir);
    await expect(run(p.jobs[0]!, p.blobs)).rejects.toThrow(/^world: not a world file this runtime recognises/);
  });

  describe('a worker thread keeps worlds and the last simulation between jobs', () => {
    const dir = join(tmp, 'kept');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'swapper.mjs'), SWAPPER);
    const jobs = [
      { world: 'piney-default', agents: 12, seed: 'a', frames: 40, measure: ['draws', 'events', 'los'], losEvery: 20 },
      { world: 'piney-default', agents: 12, seed: 'b', frames: 70, keepReplay: true },
      { world: 'rugrats-demo', agents: 15, seed: 'a', frames: 80, measure: ['draws', 'los'], losEvery: 40 },
      { world: join(repoRoot, 'assets/worlds/gta/town.col'), agents: 10, seed: 'c', frames: 50 },
      { world: join(repoRoot, 'assets/worlds/colbin/demo.colbin'), agents: 8, seed: 'd', frames: 60 },
      { world: join(repoRoot, 'assets/worlds/llama/demo.trak'), scenario: 'swapper.mjs', agents: 6, seed: 'e', frames: 30 },
      { world: join(repoRoot, 'assets/worlds/llama/demo.trak'), agents: 6, seed: 'f', frames: 30, measure: ['draws', 'events'] },
    ];
    let planned: { jobs: PlannedJob[]; blobs: BlobStore };
    /** Each job's result body (JSON) and kept replay, run alone on a fresh env. */
    const alone: { body: string; replay: Uint8Array | null }[] = [];
    const runOn = async (env: WorkerEnv, i: number) => {
      send(env, planned.jobs[i]!, planned.blobs);
      const out = await runJob(planned.jobs[i]!.payload!, env);
      return { body: JSON.stringify(out.body), replay: out.replay };
    };

    it('each job gives the same result bytes alone as after any other jobs on the same worker', async () => {
      planned = await plan({ batch: 1, jobs }, dir);
      for (let i = 0; i < jobs.length; i++) alone.push(await runOn(new WorkerEnv(), i));
      // The swapper changes the Llama level's state: had its world been kept, the next job on it would start
      // from the switched tile and end elsewhere (the hash covers the swaps).
      expect(alone[5]!.body).not.toBe(alone[6]!.body);
      let cases = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: jobs.length - 1 }), { minLength: 2, maxLength: 6 }), async (order) => {
          const env = new WorkerEnv();
          for (const i of order) {
            const got = await runOn(env, i);
            expect(got.body).toBe(alone[i]!.body);
            expect(got.replay === null ? null : Buffer.from(got.replay).equals(Buffer.from(alone[i]!.replay!))).toBe(alone[i]!.replay === null ? null : true);
          }
          cases++;
        }),
        { numRuns: 12, seed: 1201 },
      );
      expect(cases).toBe(12);
      // The same sequence twice, worst case for a leak: every job twice in a row, then all again in reverse.
      const env = new WorkerEnv();
      for (const i of [...jobs.keys(), ...[...jobs.keys()].reverse()]) {
        expect((await runOn(env, i)).body).toBe(alone[i]!.body);
        expect((await runOn(env, i)).body).toBe(alone[i]!.body);
      }
    }, 300_000);

    it('worlds without run-time state are kept (the last few used); a Llama level is loaded for every job', async () => {
      const env = new WorkerEnv();
      const worldOf = (i: number) => {
        send(env, planned.jobs[i]!, planned.blobs);
        return env.world(planned.jobs[i]!.payload!.world);
      };
      const piney = worldOf(0);
      expect(worldOf(1)).toBe(piney); // the same spec: the same world
      expect(keepsRunTimeState(piney.world)).toBe(false);
      const llama = worldOf(5);
      expect(keepsRunTimeState(llama.world)).toBe(true);
      expect(worldOf(6)).not.toBe(llama);
      expect(worldOf(6).world).not.toBe(llama.world);
      for (const i of [2, 3, 4]) worldOf(i);
      expect(env.worldsKept).toBe(WORLD_CACHE_SIZE); // piney, rugrats, gta, colbin
      worldOf(0);
      expect(env.worldsKept).toBe(WORLD_CACHE_SIZE);
      expect(worldOf(0)).toBe(piney); // used last, so still there
      // A world file that does not parse is not kept: it fails every time.
      writeFileSync(join(dir, 'bad.col'), readFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col')).subarray(0, 64));
      const bad = await plan({ batch: 1, jobs: [{ world: 'bad.col', frames: 10 }] }, dir);
      send(env, bad.jobs[0]!, bad.blobs);
      for (let k = 0; k < 2; k++) await expect(runJob(bad.jobs[0]!.payload!, env)).rejects.toThrow(/not a world file/);
    }, 120_000);

    it('a run job leaves its simulation with the env, which lets go of it once the next run job has run its first frames', async () => {
      /** Each keep call: the frame the simulation given had reached, or the frame of the one let go. */
      const calls: string[] = [];
      let held: Simulation | null = null;
      class Logged extends WorkerEnv {
        override keep(sim: Simulation | null): void {
          calls.push(sim ? `keep ${sim.frame}` : `let go ${held ? held.frame : 'none'}`);
          held = sim;
          super.keep(sim);
        }
      }
      const env = new Logged();
      expect(env.keepsSimulation).toBe(false);
      await runOn(env, 2); // 80 frames: nothing to let go at frame 60, its own kept at the end
      expect(env.keepsSimulation).toBe(true);
      await runOn(env, 0); // 40 frames: the first let go at its last frame, then its own kept
      await runOn(env, 1); // 70 frames
      expect(calls).toEqual(['let go none', 'keep 80', 'let go 80', 'keep 40', 'let go 40', 'keep 70']);
      // (The sequence above holds for any KEEP_PREVIOUS_FRAMES between the jobs' 40 and 70 frames.)
      expect(KEEP_PREVIOUS_FRAMES).toBeGreaterThan(40);
      expect(KEEP_PREVIOUS_FRAMES).toBeLessThan(70);
    }, 60_000);
  });
});
