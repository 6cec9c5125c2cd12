/**
 * Structure-aware tampering with replay files, as an attacker who knows the format would do it: a keyframe's
 * snapshot decoded, one value of its tree changed (field by field over the whole tree), encoded again; a
 * keyframe's hash; one field of one frame's record (input, hash, section hash, draw counts); a header
 * setting. Every chunk's CRC-32 is made right again, so the change reaches the checks behind the CRC.
 * Seeded by the fuzz generator, so a case is reproducible.
 */
import { crc32 } from '../../src/binary/crc32.js';
import { BinaryReader } from '../../src/binary/reader.js';
import { decodeValue, encodeValueBytes, type PlainValue } from '../../src/ecs/value-codec.js';
import type { FuzzRng } from './mutate.js';

/** One chunk of a replay file: its type, where it starts, where its payload starts, its payload length. */
export interface ChunkAt {
  type: string;
  start: number;
  payload: number;
  length: number;
}

/** The chunks of a replay file, as far as the chunk walk holds (no other check). */
export function replayChunks(bytes: Uint8Array): ChunkAt[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: ChunkAt[] = [];
  let at = 12;
  while (at + 8 <= bytes.length) {
    const length = v.getUint32(at + 4, true);
    if (at + 8 + length + 4 > bytes.length) break;
    out.push({ type: String.fromCharCode(...bytes.subarray(at, at + 4)), start: at, payload: at + 8, length });
    at += 12 + length;
  }
  return out;
}

/** A copy of a replay file with each chunk's CRC-32 recomputed, as far as the chunk walk holds. */
export function fixReplayCrcs(bytes: Uint8Array): Uint8Array {
  const b = bytes.slice();
  const v = new DataView(b.buffer);
  for (const c of replayChunks(b)) v.setUint32(c.payload + c.length, crc32(b, c.start, c.payload + c.length), true);
  return b;
}

/** A copy of `bytes` with chunk `c`'s payload replaced (its length and CRC-32 written anew). */
export function replaceChunk(bytes: Uint8Array, c: ChunkAt, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - c.length + payload.length);
  out.set(bytes.subarray(0, c.start));
  out.set(bytes.subarray(c.start, c.start + 4), c.start);
  const v = new DataView(out.buffer);
  v.setUint32(c.start + 4, payload.length, true);
  out.set(payload, c.payload);
  v.setUint32(c.payload + payload.length, crc32(out, c.start, c.payload + payload.length), true);
  out.set(bytes.subarray(c.payload + c.length + 4), c.payload + payload.length + 4);
  return out;
}

/** A keyframe chunk's parts: frame, hash, and the decoded snapshot. */
export function readKeyframe(bytes: Uint8Array, c: ChunkAt): { frame: number; hashHi: number; hashLo: number; snapshot: PlainValue } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new BinaryReader(bytes.subarray(c.payload + 12, c.payload + c.length), 'keyframe');
  return { frame: v.getUint32(c.payload, true), hashHi: v.getUint32(c.payload + 4, true), hashLo: v.getUint32(c.payload + 8, true), snapshot: decodeValue(r) };
}

/** A KEYF payload. */
export function keyframePayload(frame: number, hashHi: number, hashLo: number, snapshot: Uint8Array): Uint8Array {
  const p = new Uint8Array(12 + snapshot.length);
  const v = new DataView(p.buffer);
  v.setUint32(0, frame, true);
  v.setUint32(4, hashHi >>> 0, true);
  v.setUint32(8, hashLo >>> 0, true);
  p.set(snapshot, 12);
  return p;
}

/** Where one value sits in a decoded tree (its parent and key), for changing it in place. */
interface Slot {
  parent: PlainValue[] | Record<string, PlainValue> | null;
  key: string | number;
  value: PlainValue;
  path: string;
}

/** Every value of the tree (typed arrays as one value each), root first. */
export function slotsOf(v: PlainValue, out: Slot[] = [], parent: Slot['parent'] = null, key: string | number = '', path = ''): Slot[] {
  out.push({ parent, key, value: v, path });
  if (Array.isArray(v)) v.forEach((x, i) => slotsOf(x, out, v, i, `${path}[${i}]`));
  else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) for (const k of Object.keys(v)) slotsOf(v[k], out, v as Record<string, PlainValue>, k, path ? `${path}.${k}` : k);
  return out;
}

const HOSTILE_NUMBERS = [0, -0, 1, -1, 2, 0.5, -0.5, 31, 32, 33, 40, 255, 256, 600, 4095, 4096, 4097, 65535, 65536, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2e9, 2 ** 53, 1e15, -1e15, 1e308, 5e-324, NaN, Infinity, -Infinity];

type TypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
const TYPED = [Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array] as const;

function hostileNumber(v: number, rng: FuzzRng): number {
  switch (rng.int(4)) {
    case 0:
      return v + (rng.int(2) ? 1 : -1) * (1 + rng.int(3));
    case 1:
      return rng.int(2) ? v * 2 : -v;
    default:
      return rng.pick(HOSTILE_NUMBERS);
  }
}

/** A value of another type than `v`. */
function otherType(v: PlainValue, rng: FuzzRng): PlainValue {
  const options: PlainValue[] = [null, undefined, true, 0, 7, 'x', [], {}, new Uint8Array(3), new Float64Array(2), [1, 2, 3]];
  let o = rng.pick(options);
  if (typeof o === typeof v && Array.isArray(o) === Array.isArray(v) && ArrayBuffer.isView(o) === ArrayBuffer.isView(v)) o = null;
  return o;
}

/** A changed copy of one value: the kind of change depends on its type. */
function changed(v: PlainValue, rng: FuzzRng): { value: PlainValue; kind: string } {
  if (rng.int(8) === 0) return { value: otherType(v, rng), kind: 'type' };
  if (typeof v === 'number') return { value: hostileNumber(v, rng), kind: 'number' };
  if (typeof v === 'boolean') return { value: !v, kind: 'boolean' };
  if (typeof v === 'string') return { value: rng.int(2) ? v + 'x' : rng.int(2) ? '' : 'x'.repeat(300 + rng.int(5000)), kind: 'string' };
  if (v === null || v === undefined) return { value: rng.pick([0, 1, {}, [], [null, null, null], true] as PlainValue[]), kind: 'null' };
  if (ArrayBuffer.isView(v)) {
    const a = v as TypedArray;
    const Cls = a.constructor as (typeof TYPED)[number];
    switch (rng.int(5)) {
      case 0:
      case 1: {
        const c = a.slice();
        if (c.length) c[rng.int(c.length)] = hostileNumber(c[rng.int(c.length)]!, rng);
        return { value: c, kind: 'typed-element' };
      }
      case 2: {
        const n = rng.int(2) ? Math.max(0, a.length - 1 - rng.int(4)) : a.length + 1 + rng.int(rng.int(4) ? 4 : 5000);
        const c = new Cls(n);
        c.set(a.subarray(0, Math.min(n, a.length)));
        return { value: c, kind: 'typed-length' };
      }
      case 3: {
        const Other = rng.pick(TYPED.filter((t) => t !== Cls));
        const c = new Other(a.length);
        for (let i = 0; i < a.length; i++) c[i] = a[i]!;
        return { value: c, kind: 'typed-class' };
      }
      default:
        return { value: Array.from(a as unknown as ArrayLike<number>), kind: 'typed-to-array' };
    }
  }
  if (Array.isArray(v)) {
    const c = v.slice();
    switch (rng.int(5)) {
      case 0:
        if (c.length) c.splice(rng.int(c.length), 1);
        return { value: c, kind: 'array-drop' };
      case 1:
        if (c.length) c.splice(rng.int(c.length), 0, structuredClone(c[rng.int(c.length)]!));
        return { value: c, kind: 'array-duplicate' };
      case 2:
        c.push(rng.int(2) ? null : 0);
        return { value: c, kind: 'array-push' };
      case 3: {
        // Many small values, or a few more copies of an element (which may be large).
        const many = rng.int(2) === 0;
        const n = 1 + rng.int(many ? 5000 : 8);
        const x = many ? rng.pick([null, 0, 1, true] as PlainValue[]) : c.length ? c[rng.int(c.length)]! : null;
        for (let i = 0; i < n; i++) c.push(x);
        return { value: c, kind: 'array-grow' };
      }
      default:
        return { value: [], kind: 'array-empty' };
    }
  }
  const o: Record<string, PlainValue> = { ...(v as Record<string, PlainValue>) };
  const keys = Object.keys(o);
  switch (rng.int(3)) {
    case 0:
      if (keys.length) delete o[rng.pick(keys)];
      return { value: o, kind: 'object-delete' };
    case 1:
      o[rng.int(2) && keys.length ? rng.pick(keys) + 'x' : 'extra'] = rng.int(2) ? 0 : null;
      return { value: o, kind: 'object-add' };
    default: {
      // The same keys in another order.
      const r: Record<string, PlainValue> = {};
      for (const k of keys.reverse()) r[k] = o[k];
      return { value: r, kind: 'object-order' };
    }
  }
}

/**
 * One value of `tree` (any node, uniformly over the whole tree) changed in place; returns the path and the
 * kind of change. The root itself is never replaced.
 */
export function mutateTree(tree: PlainValue, rng: FuzzRng): { path: string; kind: string } {
  const slots = slotsOf(tree).slice(1);
  if (!slots.length) return { path: '', kind: 'none' };
  const s = slots[rng.int(slots.length)]!;
  const c = changed(s.value, rng);
  if (Array.isArray(s.parent)) s.parent[s.key as number] = c.value;
  else if (s.parent) s.parent[s.key as string] = c.value;
  return { path: s.path, kind: c.kind };
}

export const REPLAY_STRUCTURE_MUTATIONS = ['structure-snapshot', 'structure-keyframe-hash', 'structure-frame', 'structure-header'] as const;

/** Offsets of the u32 settings in a HEAD payload (after the strings before them), or null. */
function headerSettingsAt(bytes: Uint8Array, c: ChunkAt): number | null {
  let at = c.payload;
  const u16 = (p: number) => bytes[p]! | (bytes[p + 1]! << 8);
  const skip = () => {
    at += 2 + u16(at);
  };
  for (let i = 0; i < 4; i++) skip(); // runtime, world kind, name, source
  at += 12; // world hash, byte length
  for (let i = 0; i < 3; i++) skip(); // scenario name, version, source
  at += 8; // scenario hash
  return at + 16 <= c.payload + c.length ? at : null;
}

/**
 * One keyframe's snapshot decoded, one to three values of its tree changed, encoded again, the chunk's CRC
 * made right (see `mutateReplay` for `rehash`); null when the file has no keyframe the walk can reach.
 */
export function mutateKeyframeSnapshot(bytes: Uint8Array, rng: FuzzRng, rehash?: (snapshot: Uint8Array, frame: number, replay: Uint8Array) => [number, number] | null): { bytes: Uint8Array; kind: 'structure-snapshot' } | null {
  const keyframes = replayChunks(bytes).filter((c) => c.type === 'KEYF');
  if (!keyframes.length) return null;
  const c = rng.pick(keyframes);
  const k = readKeyframe(bytes, c);
  const steps = 1 + (rng.int(4) === 0 ? rng.int(3) : 0);
  for (let i = 0; i < steps; i++) mutateTree(k.snapshot, rng);
  const snap = encodeValueBytes(k.snapshot);
  let [hi, lo] = [k.hashHi, k.hashLo];
  if (rehash && rng.int(2) === 0) [hi, lo] = rehash(snap, k.frame, bytes) ?? [hi, lo];
  return { bytes: replaceChunk(bytes, c, keyframePayload(k.frame, hi, lo, snap)), kind: 'structure-snapshot' };
}

/**
 * A structure-aware tampering of a replay file (see the module comment), CRCs made right; null when the file
 * has no chunk of the kind drawn. `rehash`, when given, turns a changed snapshot into the hash its state has
 * (or null when it does not restore), for the attack that recomputes a keyframe's hash after editing it.
 */
export function mutateReplay(bytes: Uint8Array, rng: FuzzRng, rehash?: (snapshot: Uint8Array, frame: number, replay: Uint8Array) => [number, number] | null): { bytes: Uint8Array; kind: (typeof REPLAY_STRUCTURE_MUTATIONS)[number] } | null {
  const chunks = replayChunks(bytes);
  const keyframes = chunks.filter((c) => c.type === 'KEYF');
  const frames = chunks.filter((c) => c.type === 'FRAM');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const what = rng.int(10);
  if (what < 6 && keyframes.length) return mutateKeyframeSnapshot(bytes, rng, rehash);
  if (what < 7 && keyframes.length) {
    const c = rng.pick(keyframes);
    const out = bytes.slice();
    new DataView(out.buffer).setUint32(c.payload + 4 + 4 * rng.int(2), rng.u32(), true);
    return { bytes: fixReplayCrcs(out), kind: 'structure-keyframe-hash' };
  }
  if (what < 9 && frames.length) {
    // One field of one frame record: input, hash hi, hash lo, fieldrand, ccRand, or a section word.
    const c = rng.pick(frames);
    const count = v.getUint32(c.payload + 4, true);
    const rec = count > 0 ? (c.length - 8) / count : 0;
    if (!Number.isInteger(rec) || rec < 20) return null;
    const out = bytes.slice();
    const ov = new DataView(out.buffer);
    const at = c.payload + 8 + rng.int(count) * rec + 4 * rng.int(rec / 4);
    const old = ov.getUint32(at, true);
    ov.setUint32(at, rng.int(2) ? (old + 1 + rng.int(3)) >>> 0 : old ^ (1 << rng.int(32)), true);
    return { bytes: fixReplayCrcs(out), kind: 'structure-frame' };
  }
  const head = chunks.find((c) => c.type === 'HEAD');
  if (!head) return null;
  const at = headerSettingsAt(bytes, head);
  if (at === null) return null;
  // agents, field seed, ccRand init, capacity.
  const out = bytes.slice();
  const ov = new DataView(out.buffer);
  const field = at + 4 * rng.int(4);
  ov.setUint32(field, rng.int(2) ? rng.pick([0, 1, 2, 3, 63, 64, 65, 100, 4096, 100_000, 1 << 20, 1e8, 0xffffffff]) : ov.getUint32(field, true) + 1, true);
  return { bytes: fixReplayCrcs(out), kind: 'structure-header' };
}
