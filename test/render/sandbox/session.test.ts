import { describe, expect, test } from 'vitest';
import { readReplay, ReplayWriter } from '../../../src/replay/format.js';
import { FormatError } from '../../../src/binary/format-error.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { openBuiltinWorld } from '../../../src/node/open-world.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { Simulation } from '../../../src/sim/simulation.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener, read, tamperHash } from '../helpers.js';
import { simulationFromSettings } from '../../../src/scenarios/builtin.js';
import { graphListingHash } from '../../../src/scenarios/graph-listing.js';

/** A fixed key pattern: walk, turn, stand, back. */
const pattern = (f: number): number => [Buttons.Up, Buttons.Up | Buttons.Left, 0, Buttons.Down, Buttons.Right | Buttons.Up][Math.floor(f / 17) % 5]!;

describe('sandbox session', () => {
  test('a recording verifies with the runtime verifier, and plays back with the recorded hash every frame', async () => {
    const s = await SandboxSession.create(opener('piney-default'), { agents: 20 });
    expect(s.settings.scenario).toBe('piney-field');
    await s.restart(true);
    const live: string[] = [];
    for (let f = 0; f < 650; f++) live.push(s.stepLive(pattern(f)).hash);
    expect(s.recordedHashes).toEqual(live);
    const bytes = s.finishRecording();
    // Saving leaves the live run recorded: it goes on.
    expect(s.recording).toBe(true);
    const rp = readReplay(bytes);
    expect(rp.frames.count).toBe(650);
    expect(rp.keyframes.map((k) => k.frame)).toEqual([0, 300, 600]);
    const { world } = await openBuiltinWorld('piney-default', read);
    const v = verifyReplay(rp, simulationFromSettings(world, rp.header.settings));
    expect(v.ok).toBe(true);

    await s.loadReplay(bytes);
    expect(s.mode).toBe('replay');
    for (let f = 0; f < 650; f++) {
      const r = s.stepReplay()!;
      expect(r.matches).toBe(true);
      expect(r.hash).toBe(live[f]);
    }
    expect(s.stepReplay()).toBeNull();
    // Seeking (from keyframe 300) lands on the recorded state.
    for (const f of [0, 1, 299, 300, 451, 650]) {
      const r = s.seek(f);
      expect(r.frame).toBe(f);
      if (f > 0) expect(r.hash).toBe(live[f - 1]);
      expect(r.matches).toBe(true);
    }
    expect(s.desyncFrame).toBe(-1);
    expect(() => s.stepLive(0)).toThrow(/replay mode/);
    s.goLive();
    expect(s.stepLive(0).frame).toBe(651);
  });

  test('a replay of a scenario module is refused, naming the module and its graph: the page never loads one', async () => {
    const a = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    await a.restart(true);
    for (let f = 0; f < 5; f++) a.stepLive(Buttons.Up);
    const rp = readReplay(a.finishRecording());
    const modules = [{ path: 'race.mjs', hash: 'ab'.repeat(32) }];
    const contentHash = `0x${graphListingHash(modules, []).slice(0, 16)}`;
    const w = new ReplayWriter();
    w.header({ ...rp.header, scenario: { ...rp.header.scenario, name: 'race', version: '2.0.0', source: 'file:race/race.mjs', contentHash, modules, packages: [] }, settings: { ...rp.header.settings, scenario: 'race' } });
    for (const k of rp.keyframes) w.keyframe(k.frame, k.hashHi, k.hashLo, k.snapshot);
    const b = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    const err = await b.loadReplay(w.end(0, 0, 0)).then(() => null, (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(FormatError);
    expect(err!.message).toContain(`the replay ran scenario "race" 2.0.0 from the module race/race.mjs (module graph ${contentHash})`);
    expect(err!.message).toContain('--scenario FILE');
    expect(err!.message).toContain('a browser page cannot load one');
  });

  test('a replay whose header names a scenario this runtime does not have is refused as a FormatError', async () => {
    const a = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    await a.restart(true);
    for (let f = 0; f < 5; f++) a.stepLive(Buttons.Up);
    const rp = readReplay(a.finishRecording());
    // The same replay, rewritten with a header naming an unknown scenario (the CRCs are right again).
    const w = new ReplayWriter();
    w.header({ ...rp.header, scenario: { ...rp.header.scenario, name: 'no-such-scenario', source: 'builtin:no-such-scenario' }, settings: { ...rp.header.settings, scenario: 'no-such-scenario' } });
    const k = rp.keyframes[0]!;
    w.keyframe(k.frame, k.hashHi, k.hashLo, k.snapshot);
    const hostile = w.end(0, k.hashHi, k.hashLo);
    const b = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    await expect(b.loadReplay(hostile)).rejects.toBeInstanceOf(FormatError);
    await expect(b.loadReplay(hostile)).rejects.toThrow(/unknown scenario/);
    expect(b.mode).toBe('live');
  });

  test('a replay of another world is refused with the world named', async () => {
    const a = await SandboxSession.create(opener('colbin-demo'), { agents: 3 });
    await a.restart(true);
    for (let f = 0; f < 5; f++) a.stepLive(Buttons.Up);
    const bytes = a.finishRecording();
    const b = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    await expect(b.loadReplay(bytes)).rejects.toThrow(/colbin/);
    expect(b.mode).toBe('live');
  });

  test('a loaded replay is checked ahead of playback on a simulation of its own: a changed hash is found at its frame', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 6 });
    await s.restart(true);
    for (let f = 0; f < 400; f++) s.stepLive(pattern(f));
    const good = s.finishRecording();
    await s.loadReplay(good);
    expect(s.check!.total).toBe(400);
    let calls = 0;
    while (!s.checkAhead(37)) calls++;
    expect(calls).toBe(10);
    expect(s.check!.divergence).toBe(-1);
    expect(s.check!.frame).toBe(400);
    // The checking did not move the replay on screen.
    expect(s.frame).toBe(0);
    const bad = tamperHash(good, 123);
    await s.loadReplay(bad);
    while (!s.checkAhead(50));
    expect(s.check!.divergence).toBe(123);
    expect(s.check!.frame).toBe(123);
    // Playback finds the same frame.
    for (let f = 0; f < 130; f++) s.stepReplay();
    expect(s.desyncFrame).toBe(123);
    s.goLive();
    expect(s.check).toBeNull();
  });

  test('restart goes back to the same initial state on a fresh world', async () => {
    const s = await SandboxSession.create(opener('llama-demo'), { agents: 5 });
    const h0 = s.hash;
    for (let f = 0; f < 30; f++) s.stepLive(Buttons.Up);
    expect(s.hash).not.toBe(h0);
    await s.restart();
    expect(s.frame).toBe(0);
    expect(s.hash).toBe(h0);
  });
});

describe('sandbox session: the first divergence known', () => {
  test('the earlier of playback and the check ahead; −1 while neither found one', async () => {
    const s = await SandboxSession.create(opener('piney-default'), { agents: 10 });
    await s.restart(true);
    for (let f = 0; f < 40; f++) s.stepLive(pattern(f));
    const good = s.finishRecording();
    await s.loadReplay(good);
    while (!s.checkAhead(100));
    expect(s.divergence).toBe(-1);
    // A replay whose hash of frame 25 was changed: the check ahead finds it before playback gets there.
    await s.loadReplay(tamperHash(good, 25));
    for (let f = 0; f < 10; f++) s.stepReplay();
    expect(s.divergence).toBe(-1);
    while (!s.checkAhead(100));
    expect(s.divergence).toBe(25);
    // Playback reaching it agrees.
    while (s.stepReplay());
    expect(s.desyncFrame).toBe(25);
    expect(s.divergence).toBe(25);
  });
});
