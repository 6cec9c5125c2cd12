/**
 * The structure-aware replay tamperer of the fuzz harness: reproducible from its seed, every chunk's CRC right
 * after it, one value of a keyframe's tree changed at the path it names, every kind drawn.
 */
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/binary/crc32.js';
import { decodeValueBytes, encodeValueBytes, type PlainValue } from '../../src/ecs/value-codec.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { FuzzRng } from '../../scripts/fuzz/mutate.js';
import { mutateKeyframeSnapshot, mutateReplay, mutateTree, replayChunks, REPLAY_STRUCTURE_MUTATIONS, slotsOf } from '../../scripts/fuzz/replay-structure.js';
import { buttonsFor, makeSim, TEST_WORLD_ID } from '../sim/helpers.js';

function recording(): Uint8Array {
  const sim = makeSim({ agents: 4, capacity: 16 });
  const rec = new ReplayRecorder(sim, TEST_WORLD_ID, 5);
  for (let f = 1; f <= 12; f++) rec.step(buttonsFor(f));
  return rec.finish();
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function crcsRight(bytes: Uint8Array): boolean {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return replayChunks(bytes).every((c) => v.getUint32(c.payload + c.length, true) === crc32(bytes, c.start, c.payload + c.length));
}

describe('structure-aware replay tampering', () => {
  const base = recording();

  it('is a function of the seed, leaves its input alone, and keeps every CRC right', () => {
    const copy = base.slice();
    const kinds = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      const a = mutateReplay(base, new FuzzRng(seed));
      const b = mutateReplay(base, new FuzzRng(seed));
      expect(a).not.toBeNull();
      expect(same(a!.bytes, b!.bytes)).toBe(true);
      expect(crcsRight(a!.bytes)).toBe(true);
      kinds.add(a!.kind);
    }
    expect([...kinds].sort()).toEqual([...REPLAY_STRUCTURE_MUTATIONS].sort());
    expect(same(base, copy)).toBe(true);
  });

  it('changes a keyframe snapshot: the file differs from the recording in one KEYF chunk only', () => {
    let changed = 0;
    for (let seed = 0; seed < 100; seed++) {
      const m = mutateKeyframeSnapshot(base, new FuzzRng(seed))!;
      const before = replayChunks(base);
      const after = replayChunks(m.bytes);
      expect(after.map((c) => c.type)).toEqual(before.map((c) => c.type));
      const differing = after.filter((c, i) => {
        const o = before[i]!;
        const x = m.bytes.subarray(c.start, c.payload + c.length);
        const y = base.subarray(o.start, o.payload + o.length);
        return x.length !== y.length || x.some((v, k) => v !== y[k]);
      });
      expect(differing.length).toBeLessThanOrEqual(1);
      if (differing.length) {
        expect(differing[0]!.type).toBe('KEYF');
        changed++;
      }
    }
    expect(changed).toBeGreaterThan(90);
  });

  it('mutateTree changes the value at the path it names and nothing else', () => {
    const tree = { a: 1, b: [true, 'x', { c: new Float64Array([1, 2]) }], d: null } as unknown as PlainValue;
    const paths = slotsOf(tree).slice(1).map((s) => s.path);
    const seen = new Set<string>();
    for (let seed = 0; seed < 400; seed++) {
      const t = decodeValueBytes(encodeValueBytes(tree), 't');
      const m = mutateTree(t, new FuzzRng(seed));
      seen.add(m.path);
      const before = new Map(slotsOf(tree).map((s) => [s.path, Array.from(encodeValueBytes(s.value))]));
      for (const s of slotsOf(t)) {
        const inside = s.path === m.path || s.path.startsWith(m.path + '.') || s.path.startsWith(m.path + '[') || m.path.startsWith(s.path);
        if (!inside && before.has(s.path)) expect(Array.from(encodeValueBytes(s.value)), `${s.path} after ${m.kind} at ${m.path}`).toEqual(before.get(s.path));
      }
    }
    expect([...seen].sort()).toEqual([...paths].sort());
  });
});
