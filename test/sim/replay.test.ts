import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReplay, replayToJson, REPLAY_MAGIC } from '../../src/replay/format.js';
import { FormatError } from '../../src/binary/format-error.js';
import { crc32 } from '../../src/binary/crc32.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { checkReplaySettings } from '../../src/replay/rebuild.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { seekReplay } from '../../src/replay/seek.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { buttonsFor, makeSim, TEST_WORLD_ID } from './helpers.js';

const FRAMES = 250;
const INTERVAL = 100;

/** A task that does nothing until `from`, then nudges agent 3 and draws ccRand: a simulation bug. */
function addSaboteur(sim: ReturnType<typeof makeSim>, from: number): void {
  sim.scheduler.addTask('saboteur', 99, (ctx) => {
    if (ctx.frame >= from) {
      sim.ecs.components.Position.x[3]! += 0.25;
      ctx.rng.ccrand.next();
    }
  });
}

function record(frames = FRAMES, interval = INTERVAL, saboteurFrom = Infinity): { bytes: Uint8Array; hashes: string[] } {
  const sim = makeSim();
  addSaboteur(sim, saboteurFrom);
  const rec = new ReplayRecorder(sim, TEST_WORLD_ID, interval);
  const hashes = [sim.hashHex()];
  for (let f = 1; f <= frames; f++) {
    rec.step(buttonsFor(f));
    hashes.push(sim.hashHex());
  }
  return { bytes: rec.finish(), hashes };
}

/** Offsets and types of the chunks of a replay file, walked independently of the reader. */
function chunks(bytes: Uint8Array): { type: string; start: number; payload: number; length: number }[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let p = 12;
  while (p < bytes.length) {
    const type = String.fromCharCode(...bytes.subarray(p, p + 4));
    const length = dv.getUint32(p + 4, true);
    out.push({ type, start: p, payload: p + 8, length });
    p += 12 + length;
  }
  return out;
}

describe('replay', () => {
  const { bytes, hashes } = record();

  it('is laid out as HEAD, KEYF, FRAM ..., END with CRC-32 on every chunk', () => {
    expect(String.fromCharCode(...bytes.subarray(0, 8))).toBe(REPLAY_MAGIC);
    const cs = chunks(bytes);
    expect(cs.map((c) => c.type)).toEqual(['HEAD', 'KEYF', 'FRAM', 'KEYF', 'FRAM', 'KEYF', 'FRAM', 'END ']);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    for (const c of cs) expect(dv.getUint32(c.payload + c.length, true)).toBe(crc32(bytes, c.start, c.payload + c.length));
  });

  it('reads back the header, inputs, hashes and keyframes that were recorded', () => {
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.header.world).toEqual(TEST_WORLD_ID);
    expect(rp.header.settings.agents).toBe(40);
    expect(rp.header.keyframeInterval).toBe(INTERVAL);
    expect(rp.frames.count).toBe(FRAMES);
    expect(rp.keyframes.map((k) => k.frame)).toEqual([0, 100, 200]);
    for (let f = 1; f <= FRAMES; f++) {
      expect(rp.frames.inputs[f - 1]).toBe(buttonsFor(f));
      expect('0x' + rp.frames.hashHi[f - 1]!.toString(16).padStart(8, '0') + rp.frames.hashLo[f - 1]!.toString(16).padStart(8, '0')).toBe(hashes[f]);
    }
    const json = replayToJson(rp);
    expect(json['frames']).toBe(FRAMES);
    expect(json['finalHash']).toBe(hashes[FRAMES]);
    expect((json['frameList'] as unknown[]).length).toBe(FRAMES);
  });

  it('record then verify passes', () => {
    const rp = readReplay(bytes, BUTTON_MASK);
    const sim = makeSim(rp.header.settings);
    addSaboteur(sim, Infinity);
    const v = verifyReplay(rp, sim);
    expect(v.ok).toBe(true);
    expect(v.frames).toBe(FRAMES);
    expect(v.finalHash).toBe(hashes[FRAMES]);
  });

  it('verify reports the first divergent frame with every field that differs, and stops there', () => {
    const rp = readReplay(bytes, BUTTON_MASK);
    // Recorded with an idle saboteur task; verified with one that strikes from frame 120.
    const sim = makeSim(rp.header.settings);
    addSaboteur(sim, 120);
    const desyncs: number[] = [];
    sim.events.on('desync', (e) => desyncs.push(e.frame));
    const v = verifyReplay(rp, sim);
    expect(desyncs).toEqual([120]);
    expect(v.ok).toBe(false);
    const d = v.divergence!;
    expect(d.frame).toBe(120);
    expect(d.sections).toContain('Position');
    expect(d.sections).toContain('rng');
    expect(d.sections).not.toContain('Heading');
    expect(d.rng).toEqual([{ name: 'ccrand', recorded: 0, replayed: 1 }]);
    expect(d.fields).toEqual(expect.arrayContaining(['hash', 'section Position', 'section rng', 'ccrand']));
    expect(d.fields).not.toContain('fieldrand');
    // The keyframe of frame 100 matched value by value; nothing past frame 120 was simulated.
    expect(d.lastGoodKeyframe).toBe(100);
    expect(d.detail).toBeNull();
    expect(sim.frame).toBe(120);
    expect(v.keyframes).toBe(2);
  });

  it('a divergence at a keyframe lists the values that differ, from the state verify already has', () => {
    // The keyframe of frame 200 edited (agent 3's x, found by its bytes; CRC made right): every frame record
    // still matches, so the keyframe is what differs, and its values are compared with the state at 200.
    const copy = bytes.slice();
    const key = chunks(copy).filter((c) => c.type === 'KEYF')[2]!; // frame 200
    const rp0 = readReplay(bytes, BUTTON_MASK);
    const probe = makeSim(rp0.header.settings);
    addSaboteur(probe, Infinity);
    for (let f = 1; f <= 200; f++) probe.step(rp0.frames.inputs[f - 1]!);
    const x = new Uint8Array(new Float64Array([probe.ecs.components.Position.x[3]!]).buffer);
    const snap = copy.subarray(key.payload, key.payload + key.length);
    let p = -1;
    for (let i = 0; i + 8 <= snap.length && p < 0; i++) if (x.every((b, j) => snap[i + j] === b)) p = key.payload + i;
    expect(p).toBeGreaterThan(0);
    copy[p] = copy[p]! ^ 0x01;
    new DataView(copy.buffer).setUint32(key.payload + key.length, crc32(copy, key.start, key.payload + key.length), true);
    const rp = readReplay(copy, BUTTON_MASK);
    const sim = makeSim(rp.header.settings);
    addSaboteur(sim, Infinity);
    const v = verifyReplay(rp, sim);
    expect(v.ok).toBe(false);
    const d = v.divergence!;
    expect(d.frame).toBe(200);
    expect(d.fields).toEqual(['keyframe snapshot']);
    expect(d.lastGoodKeyframe).toBe(100);
    expect(d.detail!.frame).toBe(200);
    expect(d.detail!.differences).toEqual([expect.stringMatching(/^Position\.x of entity 3: recorded -?[\d.]+, replayed -?[\d.]+$/)]);
    expect(d.detail!.total).toBe(1);
    expect(sim.frame).toBe(200);
  });

  it('verify catches a replay whose inputs were changed (CRC fixed up)', () => {
    const copy = bytes.slice();
    const fram = chunks(copy).filter((c) => c.type === 'FRAM')[1]!; // frames 101..200
    const rp0 = readReplay(bytes, BUTTON_MASK);
    const S = rp0.header.sections.length;
    const frame = 150;
    const at = fram.payload + 8 + (frame - 101) * (20 + 4 * S);
    copy[at] = copy[at]! ^ 2; // down ↔ not down
    new DataView(copy.buffer).setUint32(fram.payload + fram.length, crc32(copy, fram.start, fram.payload + fram.length), true);
    const rp = readReplay(copy, BUTTON_MASK);
    const sim = makeSim(rp.header.settings);
    addSaboteur(sim, Infinity);
    const v = verifyReplay(rp, sim);
    expect(v.ok).toBe(false);
    expect(v.divergence!.frame).toBe(frame);
  });

  it('seek equals straight-through stepping at every frame tried (property)', () => {
    const rp = readReplay(bytes, BUTTON_MASK);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: FRAMES }), (f) => {
        const sim = makeSim(rp.header.settings);
        addSaboteur(sim, Infinity);
        const r = seekReplay(rp, sim, f);
        expect(r.hash).toBe(hashes[f]);
        expect(r.fromKeyframe).toBe(Math.floor(f / INTERVAL) * INTERVAL);
      }),
      { numRuns: 25 },
    );
  });

  it('a flipped bit anywhere in a chunk is reported as that chunk (every chunk, several bits)', () => {
    const cs = chunks(bytes);
    cs.forEach((c, index) => {
      for (const rel of [0, 5, 9, Math.floor(c.length / 2), c.length + 8 + 2]) {
        const pos = c.start + Math.min(rel, c.length + 11);
        const copy = bytes.slice();
        copy[pos] = copy[pos]! ^ 0x10;
        let err: unknown;
        try {
          readReplay(copy, BUTTON_MASK);
        } catch (e) {
          err = e;
        }
        expect(err, `bit flip at ${pos} in chunk #${index} ${c.type}`).toBeInstanceOf(FormatError);
        expect((err as FormatError).message).toContain(`#${index}`);
        if (rel >= 8) expect((err as FormatError).message).toContain(`chunk ${c.type}`);
      }
    });
  });

  it('names the frames of a corrupted FRAM chunk and the frame of a corrupted keyframe', () => {
    const cs = chunks(bytes);
    const fram = cs.filter((c) => c.type === 'FRAM')[1]!;
    const copy = bytes.slice();
    copy[fram.payload + 40]! ^= 1;
    expect(() => readReplay(copy, BUTTON_MASK)).toThrow(/chunk FRAM #4 \(frames from 101.*CRC-32 mismatch/);
    const key = cs.filter((c) => c.type === 'KEYF')[2]!;
    const copy2 = bytes.slice();
    copy2[key.payload + 100]! ^= 1;
    expect(() => readReplay(copy2, BUTTON_MASK)).toThrow(/chunk KEYF #5 \(keyframe at frame 200\).*CRC-32/);
  });

  it('every truncation gives a FormatError, never another exception', () => {
    const step = Math.max(1, Math.floor(bytes.length / 400));
    for (let n = 0; n < bytes.length; n += step) {
      expect(() => readReplay(bytes.subarray(0, n), BUTTON_MASK)).toThrow(FormatError);
    }
    expect(() => readReplay(bytes.subarray(0, bytes.length - 1), BUTTON_MASK)).toThrow(FormatError);
  });

  it('rejects foreign files, other versions, and inputs with undefined bits', () => {
    expect(() => readReplay(new TextEncoder().encode('PK\u0003\u0004 this is a zip file'), BUTTON_MASK)).toThrow(/not a retrosim replay/);
    const v5 = bytes.slice();
    v5[8] = 5;
    expect(() => readReplay(v5, BUTTON_MASK)).toThrow(/format version 5 is not supported/);
    // Version 4 (several players) is read, but a one-player file relabelled so is refused: its header has no players.
    const v4 = bytes.slice();
    v4[8] = 4;
    expect(() => readReplay(v4, BUTTON_MASK)).toThrow(/replay chunk HEAD #0 \(header\): players \d+ is outside 2\.\.4/);
    const v2 = bytes.slice();
    v2[8] = 2;
    expect(() => readReplay(v2, BUTTON_MASK)).toThrow(/format version 2 \(written by retrosim 0\.2\.0\).*record it again/);
    const v1 = bytes.slice();
    v1[8] = 1;
    expect(() => readReplay(v1, BUTTON_MASK)).toThrow(/format version 1 .*record it again/);
    const sim = makeSim();
    const rec = new ReplayRecorder(sim, TEST_WORLD_ID, 10);
    for (let f = 1; f <= 5; f++) rec.step(1);
    const ok = rec.finish();
    expect(readReplay(ok, BUTTON_MASK).frames.count).toBe(5);
    // Forge an input with bit 31 set and a correct CRC: still refused, naming the frame.
    const cs = chunks(ok);
    const fram = cs.find((c) => c.type === 'FRAM')!;
    const forged = ok.slice();
    forged[fram.payload + 8 + 3 + 2 * (20 + 4 * readReplay(ok).header.sections.length)] = 0x80;
    new DataView(forged.buffer).setUint32(fram.payload + fram.length, crc32(forged, fram.start, fram.payload + fram.length), true);
    expect(() => readReplay(forged, BUTTON_MASK)).toThrow(/frame 3 has undefined button bits/);
  });

  it('a keyframe whose snapshot was altered (CRC fixed up) is refused by seek, which says so and seeks from the one before', () => {
    const copy = bytes.slice();
    const key = chunks(copy).filter((c) => c.type === 'KEYF')[1]!; // frame 100
    // Change one agent's x (found by its bytes) and fix the CRC: it decodes, but hashes differently.
    const probe = makeSim();
    addSaboteur(probe, Infinity);
    for (let f = 1; f <= 100; f++) probe.step(buttonsFor(f));
    const x = new Uint8Array(new Float64Array([probe.ecs.components.Position.x[5]!]).buffer);
    const snap = copy.subarray(key.payload, key.payload + key.length);
    let p = -1;
    for (let i = 0; i + 8 <= snap.length && p < 0; i++) if (x.every((b, j) => snap[i + j] === b)) p = key.payload + i;
    expect(p).toBeGreaterThan(0);
    copy[p] = copy[p]! ^ 0x01;
    new DataView(copy.buffer).setUint32(key.payload + key.length, crc32(copy, key.start, key.payload + key.length), true);
    const rp = readReplay(copy, BUTTON_MASK);
    const sim = makeSim(rp.header.settings);
    addSaboteur(sim, Infinity);
    const r = seekReplay(rp, sim, 150);
    expect(r.fromKeyframe).toBe(0);
    expect(r.skippedKeyframes).toEqual([{ frame: 100, reason: expect.stringMatching(/KEYF \(keyframe at frame 100\).*restored state hashes/) }]);
    expect(r.verified).toBe(true);
    expect(r.hash).toBe(hashes[150]);
  });
});

describe('replay: hostile bytes', () => {
  const { bytes } = record(120, 50);

  it('random byte changes anywhere give a FormatError or a clean read, never another exception (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(), v: fc.nat(255) }), { minLength: 1, maxLength: 4 }), (edits) => {
        const copy = bytes.slice();
        for (const e of edits) copy[e.at % copy.length] = e.v;
        try {
          readReplay(copy, BUTTON_MASK);
        } catch (err) {
          expect(err).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random changes to a keyframe snapshot (CRC fixed up) are refused or harmless: seek still answers the recorded hash (property)', () => {
    const key = chunks(bytes).filter((c) => c.type === 'KEYF')[1]!; // frame 50
    const truth = record(120, 50).hashes;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const copy = bytes.slice();
        const p = key.payload + 12 + (at % (key.length - 12));
        copy[p] = copy[p]! ^ x;
        new DataView(copy.buffer).setUint32(key.payload + key.length, crc32(copy, key.start, key.payload + key.length), true);
        const rp = readReplay(copy, BUTTON_MASK);
        const sim = makeSim(rp.header.settings);
        addSaboteur(sim, Infinity);
        const r = seekReplay(rp, sim, 60);
        // A change the state does not see (e.g. an undefined turned null) may restore cleanly; any other is
        // refused, named, and the seek goes from keyframe 0.
        if (r.skippedKeyframes.length) {
          refused++;
          expect(r.skippedKeyframes[0]!.reason).toContain('KEYF (keyframe at frame 50)');
          expect(r.fromKeyframe).toBe(0);
        }
        expect(r.verified).toBe(true);
        expect(r.hash).toBe(truth[60]);
      }),
      { numRuns: 150 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('a header asking for absurd work is refused before any of it is done', () => {
    const cs = chunks(bytes);
    const head = cs[0]!;
    const rp = readReplay(bytes, BUTTON_MASK);
    // Find the agents field: it follows the scenario's identity after the world fields.
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    let p = head.payload;
    for (let i = 0; i < 4; i++) p += 2 + dv.getUint16(p, true); // runtime, kind, name, source
    p += 12; // hash and byte length
    for (let i = 0; i < 3; i++) p += 2 + dv.getUint16(p, true); // scenario name, version, source
    p += 8; // scenario hash
    expect(dv.getUint32(p, true)).toBe(rp.header.settings.agents);
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint32(p, 5_000_000, true);
    new DataView(copy.buffer).setUint32(head.payload + head.length, crc32(copy, head.start, head.payload + head.length), true);
    const forged = readReplay(copy, BUTTON_MASK); // reading costs nothing ...
    expect(() => checkReplaySettings(forged.header)).toThrow(FormatError); // ... building is refused first
    expect(() => checkReplaySettings(forged.header)).toThrow(/chunk HEAD #0.*agents/);
    expect(checkReplaySettings(rp.header)).toEqual(rp.header.settings);
  });
});
