/**
 * Several players in one simulation and replay format 4: each player steered by its own word, recordings of
 * 2 and 4 players that verify and seek, a round-trip property over 1..4 players, tampered and hostile version
 * 4 files, checked snapshots, the synctest and the CLI; and a one-player recording still the bytes it was.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../src/binary/crc32.js';
import { FormatError } from '../../src/binary/format-error.js';
import { decodeValueBytes, encodeValueBytes } from '../../src/ecs/value-codec.js';
import { readReplay, ReplayWriter, type Replay } from '../../src/replay/format.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { seekReplay } from '../../src/replay/seek.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { checkSettings, defineScenario, ScenarioError } from '../../src/sim/scenario.js';
import { Simulation, type SimSnapshot } from '../../src/sim/simulation.js';
import { SyncTest } from '../../src/sim/synctest.js';
import { BUTTON_MASK, Buttons } from '../../src/systems/input.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { runCli } from '../cli/run-cli.js';
import { FlatWorld } from '../sim/flat-world.js';
import { buttonsFor, makeSim, testSettings, TEST_WORLD_ID } from '../sim/helpers.js';

/** Player k's buttons at frame f: the stand-in pattern, shifted per player so that they differ. */
function wordsFor(f: number, players: number): number[] {
  return Array.from({ length: players }, (_, k) => buttonsFor(f + 29 * k));
}

function record(players: number, frames: number, interval: number, agents = 12): { bytes: Uint8Array; hashes: string[] } {
  const sim = makeSim({ agents, ...(players > 1 ? { players } : {}) });
  const rec = new ReplayRecorder(sim, TEST_WORLD_ID, interval);
  const hashes = [sim.hashHex()];
  for (let f = 1; f <= frames; f++) {
    rec.step(players === 1 ? buttonsFor(f) : wordsFor(f, players));
    hashes.push(sim.hashHex());
  }
  return { bytes: rec.finish(), hashes };
}

const target = () => ({ world: { world: new FlatWorld(), identity: TEST_WORLD_ID, bytes: new Uint8Array(0) } });

/** A replay rewritten through ReplayWriter (every CRC right) with `change` applied to its input words. */
function rewrite(rp: Replay, change: (inputs: Uint32Array) => void): Uint8Array {
  const f = rp.frames;
  const P = f.players;
  const S = rp.header.sections.length;
  const inputs = f.inputs.slice();
  change(inputs);
  const w = new ReplayWriter();
  w.header(rp.header);
  const kfs = rp.keyframes;
  for (let k = 0; k < kfs.length; k++) {
    const kf = kfs[k]!;
    w.keyframe(kf.frame, kf.hashHi, kf.hashLo, kf.snapshot);
    const start = kf.frame;
    const end = k + 1 < kfs.length ? kfs[k + 1]!.frame : f.count;
    if (end > start) {
      w.frames(start + 1, end - start, { inputs: inputs.subarray(start * P, end * P), hashHi: f.hashHi.subarray(start, end), hashLo: f.hashLo.subarray(start, end), fieldrand: f.fieldrand.subarray(start, end), ccrand: f.ccrand.subarray(start, end), sections: f.sections.subarray(start * S, end * S) }, S);
    }
  }
  return w.end(rp.final.frames, rp.final.hashHi, rp.final.hashLo);
}

/** The offset of the players word in a version 4 file's HEAD payload (after the capacity), walked by hand. */
function playersOffset(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 12 + 8;
  const str = () => (p += 2 + dv.getUint16(p, true));
  for (let i = 0; i < 4; i++) str(); // runtime, world kind, name, source
  p += 12; // world hash, bytes
  for (let i = 0; i < 3; i++) str(); // scenario name, version, source
  p += 8 + 16; // scenario hash; agents, field seed, ccRand init, capacity
  return p;
}

/** The chunks of a replay file, walked by hand. */
function chunkStarts(bytes: Uint8Array): { type: string; start: number }[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  for (let p = 12; p < bytes.length; p += 12 + dv.getUint32(p + 4, true)) out.push({ type: String.fromCharCode(...bytes.subarray(p, p + 4)), start: p });
  return out;
}

/** Sets the CRC of the chunk at `start` again after its payload was changed. */
function fixCrc(bytes: Uint8Array, start: number): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = dv.getUint32(start + 4, true);
  dv.setUint32(start + 8 + length, crc32(bytes, start, start + 8 + length), true);
}

describe('one player is what it was', () => {
  it('a one-player recording is the same bytes as before players existed (hashes measured on the code before them)', () => {
    // Measured with this very recording on the code before players existed: the length, the SHA-256 of every
    // chunk after HEAD (keyframes with their snapshots, frame records with their hashes, END) and of HEAD's
    // payload after the runtime string (which changes with the package version), and the final state hash.
    const sim = makeSim();
    const rec = new ReplayRecorder(sim, TEST_WORLD_ID, 100);
    for (let f = 1; f <= 250; f++) rec.step(buttonsFor(f));
    const bytes = rec.finish();
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(dv.getUint16(8, true)).toBe(3);
    const headLen = dv.getUint32(16, true);
    const runtimeLen = dv.getUint16(20, true);
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(bytes.length - runtimeLen).toBe(83105 - 14);
    expect(sha(bytes.subarray(12 + 12 + headLen))).toBe('cc702c40e7b8efe502caa0c59d1c593abf0f698e81bee3a13c9ebe422f39a75d');
    expect(sha(bytes.subarray(22 + runtimeLen, 20 + headLen))).toBe('bb91a43792ed4f8198ca3c2f985134368acf3281530f3e8b4dace635854bde39');
    expect(sim.hashHex()).toBe('0xdc0116f419d19bc4');
    expect(JSON.stringify(sim.settings)).toBe('{"scenario":"wander","agents":40,"fieldSeed":4660,"ccRandInit":0,"streamSeed":"retrosim","capacity":256,"params":{}}');
  });

  it('settings with players 1 are those without the key, and a one-player snapshot has no players fields', () => {
    const a = makeSim({ players: 1 });
    const b = makeSim();
    expect('players' in a.settings).toBe(false);
    expect(a.players).toEqual([a.player]);
    expect(a.hashHex()).toBe(b.hashHex());
    const s = a.save();
    expect(Object.keys(s)).toEqual(['format', 'version', 'frame', 'player', 'input', 'ecs', 'rng', 'scheduler', 'world']);
    expect(() => a.restore({ ...s, players: [a.player], inputs: new Uint32Array(1) })).toThrow(/snapshot: expected the keys .*unexpected "players", "inputs"/);
  });
});

describe('several players in one simulation', () => {
  it('spawns every player, steers each by its own word, and takes a number as player 0s', () => {
    const sim = makeSim({ players: 3, agents: 10 });
    expect(sim.players.length).toBe(3);
    expect(new Set(sim.players).size).toBe(3);
    expect(sim.players[0]).toBe(sim.player);
    // Player 0 is where the one player of a one-player run is.
    const one = makeSim({ agents: 10 });
    const P = sim.components.Position;
    expect([P.x[sim.player], P.z[sim.player]]).toEqual([one.components.Position.x[one.player], one.components.Position.z[one.player]]);
    for (const e of sim.players) expect(sim.ecs.has(e, sim.components.Controller)).toBe(true);
    const at = sim.players.map((e) => [P.x[e]!, P.z[e]!]);
    for (let f = 0; f < 10; f++) sim.step([0, Buttons.Up, 0]);
    expect(sim.inputs).toEqual(new Uint32Array([0, Buttons.Up, 0]));
    const moved = sim.players.map((e, k) => Math.hypot(P.x[e]! - at[k]![0]!, P.z[e]! - at[k]![1]!) > 0);
    expect(moved).toEqual([false, true, false]);
    sim.step(Buttons.Up);
    expect(sim.inputs).toEqual(new Uint32Array([Buttons.Up, 0, 0]));
    expect(sim.input).toBe(Buttons.Up);
  });

  it('refuses a step with the wrong number of words, and more players than the scenario has', () => {
    const sim = makeSim({ players: 2 });
    expect(() => sim.step([1, 2, 3])).toThrow(/step needs 2 input words \(one per player\) or a number, got 3 words/);
    expect(() => makeSim().step([1, 2])).toThrow(RangeError);
    const solo = defineScenario({ name: 'solo', version: '1', description: 'one player', systems: DEFAULT_SYSTEMS });
    expect(() => new Simulation(new FlatWorld(), solo, testSettings({ scenario: 'solo', players: 2 }))).toThrow(/scenario solo has at most 1 player .*ask for 2/);
    for (const players of [0, 5, 1.5]) {
      expect(() => defineScenario({ name: 'bad', version: '1', description: '', systems: [], players })).toThrow(ScenarioError);
      expect(() => checkSettings(testSettings({ players }))).toThrow(/setting players must be an integer in 1\.\.4/);
    }
  });

  it('a scenario that places one player gets the other seats spawned after its place()', () => {
    const two = defineScenario({ name: 'two', version: '1', description: '', systems: DEFAULT_SYSTEMS, players: 2, place: (s) => void s.spawnPlayer() });
    const sim = new Simulation(new FlatWorld(), two, testSettings({ scenario: 'two', players: 2, agents: 0 }));
    expect(sim.players.length).toBe(2);
    expect(sim.players.every((e) => e > 0)).toBe(true);
  });

  it('a snapshot of several players restores exactly, and a hostile one is refused naming the field', () => {
    const a = makeSim({ players: 2, agents: 10 });
    for (let f = 1; f <= 20; f++) a.step(wordsFor(f, 2));
    const snap = a.save();
    expect(snap.players).toEqual([...a.players]);
    expect(snap.inputs).toEqual(a.inputs);
    const b = makeSim({ players: 2, agents: 10 });
    b.restore(snap);
    expect(b.hashHex()).toBe(a.hashHex());
    expect([...b.inputs]).toEqual([...a.inputs]);
    for (let f = 21; f <= 30; f++) {
      a.step(wordsFor(f, 2));
      b.step(wordsFor(f, 2));
    }
    expect(b.hashHex()).toBe(a.hashHex());
    const before = b.hashHex();
    const bad: [Partial<SimSnapshot> | Record<string, unknown>, RegExp][] = [
      [{ players: undefined }, /snapshot: expected the keys .*; missing players/],
      [{ players: [snap.player] }, /snapshot\.players: expected 2 elements, got 1/],
      [{ players: [snap.player, snap.player] }, /snapshot\.players\[1\]: entity \d+ is also player 0/],
      [{ players: [snap.player, 1e9] }, /snapshot\.players\[1\]: expected an integer in 1\.\.255/],
      [{ players: [snap.players![1]!, snap.player] }, /snapshot\.players\[0\]: player 0's id \d+ differs from the snapshot's player/],
      [{ inputs: new Float64Array(2) }, /snapshot\.inputs: expected a Uint32Array/],
      [{ inputs: new Uint32Array(3) }, /snapshot\.inputs: expected a Uint32Array of 2 elements/],
      [{ inputs: new Uint32Array([snap.input ^ 1, 0]) }, /snapshot\.inputs\[0\]: player 0's input/],
    ];
    for (const [change, message] of bad) {
      const hostile = { ...snap, ...change } as SimSnapshot;
      if ('players' in change && change.players === undefined) delete hostile.players;
      expect(() => b.restore(hostile)).toThrow(FormatError);
      expect(() => b.restore(hostile)).toThrow(message);
      expect(b.hashHex()).toBe(before);
    }
  });

  it('the synctest passes a run of 2 players and finds hidden state in one', () => {
    const st = new SyncTest(makeSim({ players: 2, agents: 10 }), makeSim({ players: 2, agents: 10 }), 4);
    let ok = true;
    for (let f = 1; f <= 40; f++) ok = st.step(wordsFor(f, 2)) && ok;
    expect(ok).toBe(true);
    expect(st.checkedFrames).toBe(40 - 4 + 1);
    const leaky = () => {
      const sim = makeSim({ players: 2, agents: 10 });
      let hidden = 0; // outside the snapshot
      sim.scheduler.addTask('leaky', 60, () => {
        if (++hidden % 5 === 0) sim.components.Heading.angle[sim.players[1]!] = (sim.components.Heading.angle[sim.players[1]!]! + 100) & 0xffff;
      });
      return sim;
    };
    const bad = new SyncTest(leaky(), leaky(), 3);
    let first = -1;
    for (let f = 1; f <= 30 && first < 0; f++) if (!bad.step(wordsFor(f, 2))) first = f;
    expect(first).toBeGreaterThan(0);
    expect(bad.failures[0]!.sections).toContain('Heading');
  });
});

describe('replay format 4', () => {
  for (const players of [2, 4]) {
    it(`a recording of ${players} players is format 4, reads back every player's input, verifies and seeks`, () => {
      const { bytes, hashes } = record(players, 230, 100);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(8, true)).toBe(4);
      const rp = readReplay(bytes, BUTTON_MASK);
      expect(rp.header.formatVersion).toBe(4);
      expect(rp.header.settings.players).toBe(players);
      expect(rp.frames.players).toBe(players);
      expect(rp.frames.inputs.length).toBe(230 * players);
      for (const f of [1, 57, 230]) expect([...rp.frames.inputs.subarray((f - 1) * players, f * players)]).toEqual(wordsFor(f, players));
      const v = verifyReplay(rp, target());
      expect(v.ok).toBe(true);
      expect(v.keyframes).toBe(3);
      expect(v.finalHash).toBe(hashes[230]);
      for (const f of [0, 1, 99, 100, 150, 230]) {
        const s = seekReplay(rp, target(), f);
        expect(s.verified).toBe(true);
        expect(s.hash).toBe(hashes[f]);
      }
    });
  }

  it('write → read round-trips and verifies for any players 1..4, input words and frame counts (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 40 }).chain((frames) => fc.tuple(fc.constant(frames), fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 4 * frames, maxLength: 4 * frames }))),
        (players, interval, [frames, words]) => {
          const sim = makeSim({ agents: 4, capacity: 64, ...(players > 1 ? { players } : {}) });
          const rec = new ReplayRecorder(sim, TEST_WORLD_ID, interval);
          for (let f = 0; f < frames; f++) rec.step(players === 1 ? words[4 * f]! : words.slice(4 * f, 4 * f + players));
          const bytes = rec.finish();
          const rp = readReplay(bytes, BUTTON_MASK);
          expect(rp.header.formatVersion).toBe(players === 1 ? 3 : 4);
          expect(rp.frames.players).toBe(players);
          for (let f = 0; f < frames; f++) for (let k = 0; k < players; k++) expect(rp.frames.inputs[f * players + k]).toBe(words[4 * f + k]! & BUTTON_MASK);
          expect(rewrite(rp, () => {})).toEqual(bytes);
          expect(verifyReplay(rp, target(), { restoreCheck: frames <= 20 }).ok).toBe(true);
        },
      ),
      { numRuns: 16, seed: 31 },
    );
  });

  it('a changed input of player 1 (CRCs right) is caught at its frame; a raw changed byte by the CRC', () => {
    const { bytes } = record(2, 150, 50);
    const rp = readReplay(bytes, BUTTON_MASK);
    // Frame 95: player 1 walks (Up); recorded as standing, the re-simulation differs right at that frame.
    const f = 95;
    expect(rp.frames.inputs[(f - 1) * 2 + 1]! & Buttons.Up).toBe(Buttons.Up);
    const forged = rewrite(rp, (inputs) => void (inputs[(f - 1) * 2 + 1] = 0));
    const v = verifyReplay(forged, target());
    expect(v.ok).toBe(false);
    expect(v.divergence!.frame).toBe(f);
    expect(v.divergence!.fields).toContain('hash');
    // Undefined bits in player 1's word are refused when reading, naming the frame and the player.
    const foreign = rewrite(rp, (inputs) => void (inputs[(f - 1) * 2 + 1] = 0x100));
    expect(() => readReplay(foreign, BUTTON_MASK)).toThrow(/input 0x100 of frame 95 \(player 1\) has undefined button bits/);
    const raw = bytes.slice();
    const fram = chunkStarts(bytes).filter((c) => c.type === 'FRAM').at(-1)!;
    raw[fram.start + 8 + 8 + 4]! ^= 1; // player 1's word of the chunk's first frame
    expect(() => readReplay(raw, BUTTON_MASK)).toThrow(/replay chunk FRAM #\d+ \(frames from 101 to 150 at most\): CRC-32 mismatch/);
  });

  it('a hostile version 4 header or frame count is refused with a FormatError naming it', () => {
    const { bytes } = record(2, 30, 10);
    const at = playersOffset(bytes);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true)).toBe(2);
    for (const players of [0, 1, 5, 0xffffffff]) {
      const b = bytes.slice();
      new DataView(b.buffer).setUint32(at, players, true);
      fixCrc(b, 12);
      expect(() => readReplay(b, BUTTON_MASK)).toThrow(FormatError);
      expect(() => readReplay(b, BUTTON_MASK)).toThrow(new RegExp(`replay chunk HEAD #0 \\(header\\): players ${players} is outside 2\\.\\.4`));
    }
    // A FRAM chunk whose count asks for more records than its payload holds.
    const framAt = chunkStarts(bytes).find((c) => c.type === 'FRAM')!.start;
    for (const count of [11, 0x7fffffff]) {
      const b = bytes.slice();
      new DataView(b.buffer).setUint32(framAt + 12, count, true);
      fixCrc(b, framAt);
      expect(() => readReplay(b, BUTTON_MASK)).toThrow(new RegExp(`replay chunk FRAM #2 .*${count} frames of \\d+ bytes do not fill the \\d+-byte payload`));
    }
    // Every truncation is a FormatError.
    for (let n = 0; n < bytes.length; n += 97) expect(() => readReplay(bytes.subarray(0, n), BUTTON_MASK)).toThrow(FormatError);
  });

  it('a simulation of another player count is refused by verify and seek', () => {
    const { bytes } = record(2, 20, 10);
    expect(() => verifyReplay(bytes, makeSim({ agents: 12 }))).toThrow(/the replay records 2 players, the simulation given has 1/);
    expect(() => seekReplay(bytes, makeSim({ agents: 12, players: 3 }), 5)).toThrow(/the replay records 2 player\(s\), the simulation given has 3/);
  });

  it('the keyframes of a run of several players hold every player (a snapshot with players and inputs)', () => {
    const { bytes } = record(4, 20, 10);
    const rp = readReplay(bytes, BUTTON_MASK);
    const sim = makeSim({ agents: 12, players: 4 });
    for (let f = 1; f <= 10; f++) sim.step(wordsFor(f, 4));
    expect(encodeValueBytes(sim.save())).toEqual(rp.keyframes[1]!.snapshot);
    const snap = decodeValueBytes(rp.keyframes[1]!.snapshot, 'keyframe') as unknown as SimSnapshot;
    expect(snap.players).toEqual([...sim.players]);
    expect(snap.players!.length).toBe(4);
    expect([...snap.inputs!]).toEqual(wordsFor(10, 4));
  });
});

describe('the CLI with several players', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retrosim-players-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run --players 2 records a format 4 replay that replay verify, seek and info accept; --players 5 is refused', () => {
    const out = join(dir, 'two.replay');
    const run = runCli(['run', '--world', 'rugrats-demo', '--frames', '90', '--agents', '10', '--keyframes', '40', '--players', '2', '--synctest', '2', '--out', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.settings.players).toBe(2);
    expect(summary.synctest.failures).toEqual([]);
    const verify = runCli(['replay', 'verify', out, '--json']);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, frames: 90, keyframes: 3, finalHash: summary.finalHash });
    const seek = runCli(['replay', 'seek', out, '--frame', '55', '--json']);
    expect(seek.code).toBe(0);
    expect(JSON.parse(seek.stdout)).toMatchObject({ frame: 55, verified: true, fromKeyframe: 40 });
    const info = runCli(['replay', 'info', out]);
    expect(info.stdout).toMatch(/replay {6}format 4/);
    expect(info.stdout).toMatch(/players {5}2/);
    const bad = runCli(['run', '--players', '5', '--no-replay']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--players/);
  });
});
