/**
 * Every attack on the replay tools, as a regression: each file is made by a generator (hostile-replays.ts)
 * from a genuine recording, CRCs recomputed, and must end in a clear error naming what and where, or in a
 * correct result that says it is verified. The work each may cause is checked too, by what was done rather
 * than by a clock: verify stops at the divergence (the simulation's frame), seek steps only from the
 * keyframe it restores, a decode creates no more values than its budget, a header is refused before any
 * simulation is built. Time and memory figures are in docs/reliability.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FormatError } from '../../src/binary/format-error.js';
import { command as replayCommand } from '../../src/cli/commands/replay.js';
import { decodeValueBytes, encodeValueBytes, type DecodeStats } from '../../src/ecs/value-codec.js';
import { assetPath } from '../../src/node/assets.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { readReplay } from '../../src/replay/format.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { checkReplaySettings } from '../../src/replay/rebuild.js';
import { restoreKeyframe, seekReplay } from '../../src/replay/seek.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { worldIdentity } from '../../src/replay/world-identity.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { Simulation } from '../../src/sim/simulation.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import * as gen from './hostile-replays.js';
import { repoRoot } from '../cli/run-cli.js';

const rt: gen.Runtime = {
  loadWorldFile: (p) => loadWorldFile(p),
  defaultSettingsFor: (w, o) => defaultSettingsFor(w as never, o),
  simulationFromSettings: (w, s) => simulationFromSettings(w as never, s as never),
  ReplayRecorder: ReplayRecorder as never,
  worldIdentity: (w, b, s) => worldIdentity(w as never, b, s),
  demoButtons,
  encodeValueBytes,
  decodeValueBytes: (b, f) => decodeValueBytes(b, f),
  assetPath,
};

const dir = mkdtempSync(join(tmpdir(), 'retrosim-attacks-'));
const readAbs = (p: string) => new Uint8Array(readFileSync(p));

/** A simulation for the replay's header, on its shipped world. */
async function simFor(bytes: Uint8Array): Promise<Simulation> {
  const rp = readReplay(bytes, BUTTON_MASK);
  const opened = await openBuiltinWorld(rp.header.world.source.slice('builtin:'.length), readAbs);
  return simulationFromSettings(opened.world, rp.header.settings);
}

let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

/** Runs `retrosim replay ARGS` in this process: its exit code, its last JSON line, what it wrote to stderr. */
async function cli(args: string[], bytes: Uint8Array, name: string): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const [sub, ...rest] = args;
  const code = await replayCommand.run([sub!, file, ...rest, '--json']);
  return { code, json: JSON.parse(out[out.length - 1]!), stderr: err.join('') };
}

describe('attacks on the replay tools', () => {
  const rugrats = gen.record(rt, 'rugrats-demo', 40, 20, 8, 16);

  for (const n of [40, 2e9, 1e15]) {
    it(`the line-of-sight matrix size set to ${n} in a keyframe is refused naming the keyframe, the task and the field; seek falls back and verifies`, async () => {
      const bytes = gen.losMatrixSize(rt, rugrats, 20, n);
      const rp = readReplay(bytes, BUTTON_MASK);
      const sim = await simFor(bytes);
      let e: unknown;
      try {
        restoreKeyframe(sim, rp.keyframes[1]!, { replay: rp });
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toMatch(/^replay chunk KEYF \(keyframe at frame 20\): snapshot scheduler\.tasks\[\d+\] \(line-of-sight, id \d+\)\.body: state\.n: expected an integer in 0\.\.32, got /);
      const s = await cli(['seek', '--frame', '30'], bytes, `los-${n}.replay`);
      expect(s.code).toBe(0);
      expect(s.json).toMatchObject({ frame: 30, hash: rugrats.hashes[30], verified: true, fromKeyframe: 0 });
      expect((s.json['skippedKeyframes'] as { frame: number }[]).map((k) => k.frame)).toEqual([20]);
      expect(s.stderr).toMatch(/warning: skipped the keyframe at frame 20: .*line-of-sight/);
      const v = await cli(['verify'], bytes, `los-${n}.replay`);
      expect(v.code).toBe(1);
      expect(v.json['divergence']).toMatchObject({ frame: 20, fields: ['keyframe snapshot'], lastGoodKeyframe: 0 });
      expect(JSON.stringify(v.json['divergence'])).toMatch(/line-of-sight\)\.body\.n: recorded \d/);
    });
  }

  it('a keyframe with the player moved and its hash recomputed is refused (its hash is not its frame\'s); seek falls back and verifies', async () => {
    const bytes = gen.movedPlayer(rt, rugrats, 20, 1);
    const rp = readReplay(bytes, BUTTON_MASK);
    const sim = await simFor(bytes);
    expect(() => restoreKeyframe(sim, rp.keyframes[1]!, { replay: rp })).toThrow(/KEYF \(keyframe at frame 20\).*differs from the hash recorded for frame 20/);
    const s = await cli(['seek', '--frame', '30'], bytes, 'moved.replay');
    expect(s.code).toBe(0);
    expect(s.json).toMatchObject({ hash: rugrats.hashes[30], verified: true, fromKeyframe: 0 });
    // With the frame records forged too (frame 20's hash and Position section), the keyframe restores, and
    // seek says its answer at frame 30 is not the recorded one: exit 1 with the sections that differ.
    const forged = await forgeFrame(bytes, 20);
    const f = await cli(['seek', '--frame', '30'], forged, 'moved-forged.replay');
    expect(f.code).toBe(1);
    expect(f.json).toMatchObject({ frame: 30, verified: false, fromKeyframe: 20, expected: rugrats.hashes[30] });
    expect(f.json['sections']).toContain('Position');
    expect(f.stderr).toMatch(/seek: frame 30 hashes 0x[0-9a-f]{16}, the replay records 0x[0-9a-f]{16}/);
    // Verify re-simulates from frame 0 and sees the forged frame 20 itself.
    const v = verifyReplay(readReplay(forged, BUTTON_MASK), await simFor(forged));
    expect(v.divergence).toMatchObject({ frame: 20, lastGoodKeyframe: 0 });
    expect(v.divergence!.fields).toContain('section Position');
  });

  it('the Piney display task\'s camera view edited in a keyframe changes the hash: refused by seek, a divergence for verify', async () => {
    const piney = gen.record(rt, 'piney-default', 40, 20, 4, 16);
    const bytes = gen.movedCameraView(rt, piney, 20);
    const rp = readReplay(bytes, BUTTON_MASK);
    const sim = await simFor(bytes);
    expect(() => restoreKeyframe(sim, rp.keyframes[1]!, { replay: rp })).toThrow(/KEYF \(keyframe at frame 20\).*restored state hashes to .*the snapshot and its hash disagree/);
    const r = seekReplay(rp, sim, 35);
    expect(r).toMatchObject({ verified: true, hash: piney.hashes[35], fromKeyframe: 0 });
    const v = verifyReplay(rp, await simFor(bytes));
    expect(v.divergence).toMatchObject({ frame: 20, fields: ['keyframe snapshot'] });
    expect(v.divergence!.detail!.differences.join('\n')).toMatch(/ccThFieldDisp\)\.body\.view\.x: recorded \d+, replayed \d+/);
  });

  for (const [what, word, field] of [
    ['fieldrand count', 3, 'fieldrand'],
    ['ccRand count', 4, 'ccrand'],
    ['section hash', 6, 'section Position'],
    ['input', 0, 'hash'],
  ] as const) {
    it(`a frame's recorded ${what} flipped (CRC fixed) is a divergence at that frame naming ${field}`, async () => {
      const bytes = gen.editFrameRecord(rugrats, 13, word, (x) => x ^ (word === 0 ? 1 : 0x100));
      const sim = await simFor(bytes);
      const v = verifyReplay(readReplay(bytes, BUTTON_MASK), sim);
      expect(v.ok).toBe(false);
      expect(v.divergence!.frame).toBe(13);
      expect(v.divergence!.fields).toContain(field);
      expect(sim.frame).toBe(13);
    });
  }

  it('a keyframe that does not decode ("unknown value tag 32") fails verify at its frame, and seek goes round it', async () => {
    const bytes = gen.garbageKeyframe(rugrats, 20);
    const v = await cli(['verify'], bytes, 'garbage.replay');
    expect(v.code).toBe(1);
    expect(v.json['divergence']).toMatchObject({ frame: 20, fields: ['keyframe snapshot'] });
    expect(JSON.stringify(v.json['divergence'])).toMatch(/does not decode.*unknown value tag 32/);
    const s = await cli(['seek', '--frame', '25'], bytes, 'garbage.replay');
    expect(s.code).toBe(0);
    expect(s.json).toMatchObject({ verified: true, hash: rugrats.hashes[25], fromKeyframe: 0 });
  });

  it('a replay that verifies seeks from every keyframe', async () => {
    const rp = readReplay(rugrats.bytes, BUTTON_MASK);
    expect(verifyReplay(rp, await simFor(rugrats.bytes)).ok).toBe(true);
    const sim = await simFor(rugrats.bytes);
    for (const k of rp.keyframes) {
      restoreKeyframe(sim, k, { replay: rp });
      expect(sim.hashHex()).toBe(rugrats.hashes[k.frame]);
    }
  });

  it('the header\'s capacity changed from 16 to 32 is a divergence at frame 0 (the capacity is in the hash)', async () => {
    const bytes = gen.editSettings(rugrats.bytes, { capacity: 32 });
    const sim = await simFor(bytes);
    const v = verifyReplay(readReplay(bytes, BUTTON_MASK), sim);
    expect(v.divergence).toMatchObject({ frame: 0, fields: ['keyframe hash', 'keyframe snapshot'], lastGoodKeyframe: -1 });
    expect(v.divergence!.detail!.differences).toContain('ecs.capacity: recorded 16, replayed 32');
    expect(sim.frame).toBe(0);
  });

  it('a divergence at frame 1 with the next keyframe 2^20 frames on stops at frame 1', async () => {
    const bytes = gen.farKeyframe(rt);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(1 << 20);
    expect(rp.keyframes.map((k) => k.frame)).toEqual([0, 1 << 20]);
    const sim = await simFor(bytes);
    const v = verifyReplay(rp, sim);
    expect(v.divergence).toMatchObject({ frame: 1, fields: ['hash'], lastGoodKeyframe: 0, detail: null });
    expect(sim.frame).toBe(1);
  });

  it('a header asking for 100,000 agents, capacity 2^20 and ccRand init 10^8 is refused before anything is built, naming the limit and its flag', async () => {
    const bytes = gen.absurdHeader(rt);
    expect(bytes.length).toBeLessThan(400);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.header.settings).toMatchObject({ agents: 100_000, capacity: 1 << 20, ccRandInit: 100_000_000 });
    expect(() => checkReplaySettings(rp.header)).toThrow(/^replay chunk HEAD #0 \(header\): agents 100000 is over the limit of 10000 for a re-simulation \(limits\.replay\.agents; CLI: --max-agents N\)$/);
    const opened = await openBuiltinWorld('rugrats-demo', readAbs);
    const built = vi.spyOn(Simulation.prototype, 'spawnWanderers');
    expect(() => verifyReplay(rp, { world: opened })).toThrow(/limits\.replay\.agents/);
    expect(() => seekReplay(rp, { world: opened }, 0)).toThrow(/limits\.replay\.agents/);
    expect(built).not.toHaveBeenCalled();
  });

  it('a 64 MiB keyframe of 13.4 million empty objects is refused at its count, having created next to nothing', () => {
    const count = Math.floor((64 * 1024 * 1024 - 5) / 5);
    const small = gen.record(rt, 'rugrats-demo', 2, 1, 1, 4);
    const bytes = gen.emptyObjects(small, 1, count);
    const rp = readReplay(bytes, BUTTON_MASK);
    const k = rp.keyframes[1]!;
    expect(k.snapshot.length).toBe(5 + 5 * count);
    const stats: DecodeStats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
    expect(() => decodeValueBytes(k.snapshot, 'keyframe', { stats })).toThrow(/holds more than 1048576 values/);
    // Refused at the array's count, before the array was made.
    expect(stats).toEqual({ values: 1, composites: 0, stringBytes: 0, typedBytes: 0 });
  });

  it('decoding it takes next to no heap (measured in a child process with a forced GC), while 60,000 real objects take megabytes: the measure sees objects', () => {
    const file = join(dir, 'objects.bin');
    const count = Math.floor((64 * 1024 * 1024 - 5) / 5);
    const snap = new Uint8Array(5 + 5 * count);
    new DataView(snap.buffer).setUint32(1, count, true);
    snap[0] = 6;
    for (let i = 0; i < count; i++) snap[5 + 5 * i] = 7;
    writeFileSync(file, snap);
    const codec = JSON.stringify(new URL('../../dist/src/ecs/value-codec.js', import.meta.url).href);
    // 'file': the 64 MiB of empty objects; 'objects': 60,000 objects of eight numbers, within every budget.
    const measure = (what: 'file' | 'objects'): { grown: number; error: string | null; values: number } => {
      const script = `
        import { readFileSync } from 'node:fs';
        const { decodeValueBytes, encodeValueBytes } = await import(${codec});
        const bytes = ${what === 'file' ? `new Uint8Array(readFileSync(${JSON.stringify(file)}))` : 'encodeValueBytes(Array.from({ length: 60000 }, (_, i) => ({ a: i + 0.5, b: i + 0.25, c: -i - 0.5, d: i / 3, e: i / 7, f: i / 9, g: i / 11, h: i / 13 })))'};
        globalThis.gc(); globalThis.gc();
        const before = process.memoryUsage().heapUsed;
        const stats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
        let error = null, kept = null;
        try { kept = decodeValueBytes(bytes, 'keyframe', { stats }); } catch (e) { error = e.message; }
        const grown = process.memoryUsage().heapUsed - before;
        process.stdout.write(JSON.stringify({ grown, error, values: stats.values, kept: kept === null ? 0 : kept.length }));`;
      const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const refused = measure('file');
    expect(refused.error).toMatch(/holds more than 1048576 values/);
    expect(refused.grown).toBeLessThan(32 * 1024 * 1024);
    const decoded = measure('objects');
    expect(decoded.error).toBeNull();
    expect(decoded.values).toBe(1 + 60_000 * 9);
    expect(decoded.grown).toBeGreaterThan(4 * 1024 * 1024);
  });
});

/** Frame `f`'s record made to agree with keyframe `f` (its hash and section hashes), CRC fixed: a forgery of that frame. */
async function forgeFrame(bytes: Uint8Array, f: number): Promise<Uint8Array> {
  const rp = readReplay(bytes, BUTTON_MASK);
  const k = rp.keyframes.find((x) => x.frame === f)!;
  const sim = await simFor(bytes);
  sim.restore(decodeValueBytes(k.snapshot, 'keyframe') as never);
  const h = sim.hash();
  const r = { bytes, hashes: [], world: 'rugrats-demo', sim, interval: 0, make: () => sim } as unknown as gen.Recording;
  let b = gen.editFrameRecord(r, f, 1, () => h.hi);
  b = gen.editFrameRecord({ ...r, bytes: b }, f, 2, () => h.lo);
  for (let s = 0; s < sim.sectionNames().length; s++) b = gen.editFrameRecord({ ...r, bytes: b }, f, 5 + s, () => h.sections[2 * s + 1]!);
  return b;
}

describe('the retrosim command on tampered replays', () => {
  const rugrats = gen.record(rt, 'rugrats-demo', 40, 20, 8, 16);

  it('seek of a forged frame exits 1 with one line on stderr naming the frame and both hashes', async () => {
    const file = join(dir, 'forged-cli.replay');
    writeFileSync(file, await forgeFrame(gen.movedPlayer(rt, rugrats, 20, 1), 20));
    const r = spawnSync(process.execPath, ['bin/retrosim.js', 'replay', 'seek', file, '--frame', '30'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^frame 30: hash 0x[0-9a-f]{16} differs from the recorded 0x[0-9a-f]{16}; sections .*Position/);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^retrosim: seek: frame 30 hashes 0x[0-9a-f]{16}, the replay records 0x[0-9a-f]{16}$/)]);
  });

  it('an absurd header exits 1 with the limit to raise; the --max-* flags raise them one by one', () => {
    const file = join(dir, 'absurd-cli.replay');
    writeFileSync(file, gen.absurdHeader(rt));
    const run = (...flags: string[]) => spawnSync(process.execPath, ['bin/retrosim.js', 'replay', 'verify', file, ...flags], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    const a = run();
    expect(a.status).toBe(1);
    expect(a.stderr.trim()).toMatch(/^retrosim: .*agents 100000 is over the limit of 10000 .*--max-agents N\)$/);
    const b = run('--max-agents', '100000');
    expect(b.status).toBe(1);
    expect(b.stderr).toMatch(/entity capacity 1048576 is over the limit of 16384 .*--max-capacity N/);
    const c = run('--max-agents', '100000', '--max-capacity', '1048576');
    expect(c.status).toBe(1);
    expect(c.stderr).toMatch(/ccRand init count 100000000 is over the limit of 1000000 .*--max-ccrand-init N/);
    const d = run('--max-agents', 'many');
    expect(d.status).toBe(2);
  });
});
