/**
 * The job runner, in this process: a run job gives what the public API gives for the same simulation,
 * its line-of-sight statistics agree with a count made independently and leave the state hash alone, a
 * kept replay verifies, a tampered one diverges, and scenario modules load from their bytes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/batch/blobs.js';
import { planSpec, type PlannedJob } from '../../src/batch/plan.js';
import type { RunPayload, VerifyPayload } from '../../src/batch/payload.js';
import { runJob, sha256Hex, type JobOutput } from '../../src/batch/runner.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { WorkerEnv } from '../../src/batch/worker-env.js';
import { crc32 } from '../../src/binary/crc32.js';
import { createSimulation, demoButtons, eyeHeight, loadScenarioFile, openWorld, RUNTIME_VERSION } from '../../src/index.js';
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
  return planSpec(checkBatchFile(batch, file, 'b'), file);
}

async function run(j: PlannedJob, blobs: BlobStore): Promise<JobOutput> {
  const env = new WorkerEnv();
  for (const ref of [...(j.payload!.world.parts.map((p) => p.blob)), ...(j.payload!.kind === 'verify' ? [j.payload!.replay] : []), ...(j.payload!.scenario && 'blob' in j.payload!.scenario ? [j.payload!.scenario.blob] : [])]) {
    env.blobs.set(ref.sha256, blobs.get(ref.sha256));
  }
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
      const payload: VerifyPayload = { kind: 'verify', key: 'f'.repeat(64), runtime: RUNTIME_VERSION, file: 'x.replay', replay: blobs.add(bytes), world: (p.jobs[0]!.payload as RunPayload).world, scenario: null };
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

  it('a scenario module runs from its bytes alone, with the identity loadScenarioFile gives the file', async () => {
    const dir = join(tmp, 'mod');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'drift.mjs');
    writeFileSync(file, DRIFT);
    const direct = await loadScenarioFile(file, 'drift.mjs');
    const p = await plan({ batch: 1, jobs: [{ world: join(repoRoot, 'assets/worlds/rugrats/demo.col'), scenario: 'drift.mjs', agents: 3, frames: 90, params: { step: 7 } }] }, dir);
    const payload = p.jobs[0]!.payload as RunPayload;
    expect('blob' in payload.scenario && payload.scenario.source).toBe('drift.mjs');
    rmSync(file); // the worker has only the bytes
    const out = await run(p.jobs[0]!, p.blobs);
    expect(out.body['scenario']).toEqual(direct.identity);
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
});
