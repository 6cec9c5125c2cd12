/**
 * Generators of hostile replay files: each attack on the replay tools, made as an attacker would make it,
 * from a genuine recording edited in place with every chunk's CRC-32 recomputed. The regression tests
 * (attacks.test.ts) run each one; the generators take the runtime they record with as an argument, so the
 * same attacks can be made against another build of it (the figures in docs/reliability.md).
 *
 * Recordings run on the shipped worlds (`builtin:rugrats-demo`, `builtin:piney-default`), so the CLI can
 * open them by their recorded source.
 */
import { crc32 } from '../../src/binary/crc32.js';

/** What the generators need of a runtime build (the same names in src/ and in a built dist/). */
export interface Runtime {
  loadWorldFile(path: string): { world: unknown; bytes: Uint8Array };
  defaultSettingsFor(world: unknown, over: object): object;
  simulationFromSettings(world: unknown, settings: object): Sim;
  ReplayRecorder: new (sim: Sim, world: object, interval: number) => { step(b: number): void; finish(): Uint8Array };
  worldIdentity(world: unknown, bytes: Uint8Array, source: string): object;
  demoButtons(f: number): number;
  encodeValueBytes(v: unknown): Uint8Array;
  decodeValueBytes(b: Uint8Array, format: string): unknown;
  /** Where the shipped world files are (assets/worlds/...). */
  assetPath(rel: string): string;
}

/** The part of a simulation the generators use. */
export interface Sim {
  step(b: number): void;
  save(): unknown;
  restore(s: unknown): void;
  hash(): { hi: number; lo: number; sections: Uint32Array };
  hashHex(): string;
  sectionNames(): readonly string[];
  readonly frame: number;
  readonly player: number;
}

/** A genuine recording, with the hash of every frame and the simulation that recorded it. */
export interface Recording {
  bytes: Uint8Array;
  hashes: string[];
  world: 'rugrats-demo' | 'piney-default';
  sim: Sim;
  interval: number;
  make(): Sim;
}

const WORLD_FILES = { 'rugrats-demo': 'worlds/rugrats/demo.col', 'piney-default': 'worlds/piney/default.field.json' } as const;

/** Records `frames` frames of the world's default scenario with the demo buttons. */
export function record(rt: Runtime, world: Recording['world'], frames: number, interval: number, agents: number, capacity = 64): Recording {
  const opened = rt.loadWorldFile(rt.assetPath(WORLD_FILES[world]));
  const settings = rt.defaultSettingsFor(opened.world, { agents, capacity });
  const make = () => rt.simulationFromSettings(opened.world, settings);
  const sim = make();
  const rec = new rt.ReplayRecorder(sim, rt.worldIdentity(opened.world, opened.bytes, `builtin:${world}`), interval);
  const hashes = [sim.hashHex()];
  for (let f = 1; f <= frames; f++) {
    rec.step(rt.demoButtons(f));
    hashes.push(sim.hashHex());
  }
  return { bytes: rec.finish(), hashes, world, sim, interval, make };
}

/** One chunk of a replay file. */
export interface Chunk {
  type: string;
  start: number;
  payload: number;
  length: number;
}

export function chunksOf(bytes: Uint8Array): Chunk[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Chunk[] = [];
  for (let at = 12; at + 12 <= bytes.length; ) {
    const length = v.getUint32(at + 4, true);
    out.push({ type: String.fromCharCode(...bytes.subarray(at, at + 4)), start: at, payload: at + 8, length });
    at += 12 + length;
  }
  return out;
}

/** Recomputes chunk `c`'s CRC-32 in place. */
export function fixCrc(bytes: Uint8Array, c: Chunk): void {
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setUint32(c.payload + c.length, crc32(bytes, c.start, c.payload + c.length), true);
}

/** A copy of `bytes` with chunk `c`'s payload replaced (length and CRC written anew). */
export function withPayload(bytes: Uint8Array, c: Chunk, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - c.length + payload.length);
  out.set(bytes.subarray(0, c.payload));
  new DataView(out.buffer).setUint32(c.start + 4, payload.length, true);
  out.set(payload, c.payload);
  out.set(bytes.subarray(c.payload + c.length + 4), c.payload + payload.length + 4);
  fixCrc(out, { ...c, length: payload.length });
  return out;
}

function keyframeChunk(bytes: Uint8Array, frame: number): Chunk {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = chunksOf(bytes).find((x) => x.type === 'KEYF' && v.getUint32(x.payload, true) === frame);
  if (!c) throw new Error(`no keyframe for frame ${frame}`);
  return c;
}

interface Snapshot {
  frame: number;
  ecs: { capacity: number; fields: { component: string; field: string; values: Float64Array }[] };
  scheduler: { tasks: { name: string; body: Record<string, unknown> }[] };
  [k: string]: unknown;
}

/**
 * A copy of the replay with keyframe `frame`'s snapshot changed by `edit`; with `rehash`, the keyframe's
 * hash is recomputed from the changed state (restored into a fresh simulation), as an attacker would.
 */
export function editKeyframe(rt: Runtime, r: Recording, frame: number, edit: (s: Snapshot) => void, rehash = false): Uint8Array {
  const c = keyframeChunk(r.bytes, frame);
  const v = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  const snap = rt.decodeValueBytes(r.bytes.subarray(c.payload + 12, c.payload + c.length), 'keyframe') as Snapshot;
  edit(snap);
  const enc = rt.encodeValueBytes(snap);
  let hi = v.getUint32(c.payload + 4, true);
  let lo = v.getUint32(c.payload + 8, true);
  if (rehash) {
    const sim = r.make();
    sim.restore(snap);
    const h = sim.hash();
    hi = h.hi;
    lo = h.lo;
  }
  const p = new Uint8Array(12 + enc.length);
  const pv = new DataView(p.buffer);
  pv.setUint32(0, frame, true);
  pv.setUint32(4, hi >>> 0, true);
  pv.setUint32(8, lo >>> 0, true);
  p.set(enc, 12);
  return withPayload(r.bytes, c, p);
}

/** A copy with keyframe `frame`'s snapshot bytes replaced outright (its hash kept). */
export function replaceKeyframeBytes(r: Recording, frame: number, snapshot: Uint8Array): Uint8Array {
  const c = keyframeChunk(r.bytes, frame);
  const p = new Uint8Array(12 + snapshot.length);
  p.set(r.bytes.subarray(c.payload, c.payload + 12));
  p.set(snapshot, 12);
  return withPayload(r.bytes, c, p);
}

/** The task body named `name` in a snapshot. */
export function taskBody(s: Snapshot, name: string): Record<string, unknown> {
  const t = s.scheduler.tasks.find((x) => x.name === name);
  if (!t) throw new Error(`no task ${name} in the snapshot`);
  return t.body;
}

/** The line-of-sight task's matrix size set to `n` in keyframe `frame` (the keyframe's hash left as it was). */
export function losMatrixSize(rt: Runtime, r: Recording, frame: number, n: number): Uint8Array {
  return editKeyframe(rt, r, frame, (s) => void (taskBody(s, 'line-of-sight')['n'] = n));
}

/** The player's x moved by `dx` in keyframe `frame`, and the keyframe's hash recomputed from that state. */
export function movedPlayer(rt: Runtime, r: Recording, frame: number, dx: number): Uint8Array {
  return editKeyframe(
    rt,
    r,
    frame,
    (s) => {
      const x = s.ecs.fields.find((f) => f.component === 'Position' && f.field === 'x')!;
      x.values[r.sim.player] = x.values[r.sim.player]! + dx;
    },
    true,
  );
}

/**
 * The Piney display task's camera walk moved to x = 8000 (a float's bits; still in the field) in keyframe
 * `frame`, nothing else: on the default field this changes the frames after it (the hash of version 2 did
 * not see the walk, so only later frames' hashes could tell).
 */
export function movedCameraView(rt: Runtime, r: Recording, frame: number): Uint8Array {
  return editKeyframe(rt, r, frame, (s) => {
    const view = taskBody(s, 'ccThFieldDisp')['view'] as { x: number };
    view.x = 0x45fa0000;
  });
}

/** Word `word` (0 input, 1 hash hi, 2 hash lo, 3 fieldrand, 4 ccRand, 5.. sections) of frame `frame`'s record, changed by `f`. */
export function editFrameRecord(r: Recording, frame: number, word: number, f: (old: number) => number): Uint8Array {
  const out = r.bytes.slice();
  const v = new DataView(out.buffer);
  for (const c of chunksOf(out)) {
    if (c.type !== 'FRAM') continue;
    const first = v.getUint32(c.payload, true);
    const count = v.getUint32(c.payload + 4, true);
    if (frame < first || frame >= first + count) continue;
    const rec = (c.length - 8) / count;
    const at = c.payload + 8 + (frame - first) * rec + 4 * word;
    v.setUint32(at, f(v.getUint32(at, true)) >>> 0, true);
    fixCrc(out, c);
    return out;
  }
  throw new Error(`no record of frame ${frame}`);
}

/** The offset of the header's u32 settings (agents, field seed, ccRand init, capacity). */
export function settingsOffset(bytes: Uint8Array): number {
  const head = chunksOf(bytes)[0]!;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = head.payload;
  for (let i = 0; i < 4; i++) p += 2 + v.getUint16(p, true); // runtime, world kind, name, source
  p += 12; // world hash, byte length
  for (let i = 0; i < 3; i++) p += 2 + v.getUint16(p, true); // scenario name, version, source
  return p + 8; // scenario hash
}

/** A copy with the header's settings changed: `{ agents, ccRandInit, capacity }` as given. */
export function editSettings(bytes: Uint8Array, s: { agents?: number; ccRandInit?: number; capacity?: number }): Uint8Array {
  const out = bytes.slice();
  const v = new DataView(out.buffer);
  const p = settingsOffset(out);
  if (s.agents !== undefined) v.setUint32(p, s.agents, true);
  if (s.ccRandInit !== undefined) v.setUint32(p + 8, s.ccRandInit, true);
  if (s.capacity !== undefined) v.setUint32(p + 12, s.capacity, true);
  fixCrc(out, chunksOf(out)[0]!);
  return out;
}

/** Just the header, keyframe 0 and END of a recording of 0 frames, with absurd settings (a few hundred bytes). */
export function absurdHeader(rt: Runtime): Uint8Array {
  const r = record(rt, 'rugrats-demo', 0, 1, 1, 4);
  const cs = chunksOf(r.bytes);
  const key = cs.find((c) => c.type === 'KEYF')!;
  // Keyframe 0 emptied to a null snapshot: the file is the header's settings and little else.
  const small = withPayload(r.bytes, key, (() => {
    const p = new Uint8Array(13);
    p.set(r.bytes.subarray(key.payload, key.payload + 12));
    p[12] = 0;
    return p;
  })());
  return editSettings(small, { agents: 100_000, capacity: 1 << 20, ccRandInit: 100_000_000 });
}

/**
 * A replay whose frame 1 diverges and whose next keyframe is `frames` later: keyframe interval 2^20, frame
 * records for every frame (copied from frame 1's, the first one's hash flipped), and a keyframe at the last
 * frame (keyframe 0's snapshot under the last frame's number).
 */
export function farKeyframe(rt: Runtime, frames = 1 << 20): Uint8Array {
  const r = record(rt, 'rugrats-demo', 1, 1 << 20, 8, 16);
  const cs = chunksOf(r.bytes);
  const fram = cs.find((c) => c.type === 'FRAM')!;
  const rec = r.bytes.subarray(fram.payload + 8, fram.payload + fram.length);
  const payload = new Uint8Array(8 + frames * rec.length);
  const pv = new DataView(payload.buffer);
  pv.setUint32(0, 1, true);
  pv.setUint32(4, frames, true);
  for (let i = 0; i < frames; i++) payload.set(rec, 8 + i * rec.length);
  pv.setUint32(8 + 4, pv.getUint32(8 + 4, true) ^ 1, true); // frame 1's hash hi
  let out = withPayload(r.bytes, fram, payload);
  // KEYF(frames) before END: keyframe 0's chunk under the last frame's number.
  const k0 = chunksOf(out).find((c) => c.type === 'KEYF')!;
  const last = out.slice(k0.start, k0.payload + k0.length + 4);
  new DataView(last.buffer).setUint32(8, frames, true);
  fixCrc(last, { type: 'KEYF', start: 0, payload: 8, length: k0.length });
  const endAt = chunksOf(out).find((c) => c.type === 'END ')!.start;
  const joined = new Uint8Array(out.length + last.length);
  joined.set(out.subarray(0, endAt));
  joined.set(last, endAt);
  joined.set(out.subarray(endAt), endAt + last.length);
  out = joined;
  // END: the frame count and the last frame's hash.
  const end = chunksOf(out).find((c) => c.type === 'END ')!;
  const ev = new DataView(out.buffer);
  ev.setUint32(end.payload, frames, true);
  ev.setUint32(end.payload + 4, pv.getUint32(8 + (frames - 1) * rec.length + 4, true), true);
  ev.setUint32(end.payload + 8, pv.getUint32(8 + (frames - 1) * rec.length + 8, true), true);
  fixCrc(out, end);
  return out;
}

/** Keyframe `frame`'s snapshot replaced by an array of `count` empty objects (count × 5 bytes + 5). */
export function emptyObjects(r: Recording, frame: number, count: number): Uint8Array {
  const snap = new Uint8Array(5 + 5 * count);
  const v = new DataView(snap.buffer);
  snap[0] = 6; // array
  v.setUint32(1, count, true);
  for (let i = 0; i < count; i++) snap[5 + 5 * i] = 7; // object of 0 keys
  return replaceKeyframeBytes(r, frame, snap);
}

/** Keyframe `frame`'s snapshot bytes replaced by text (its first byte 32, a space: "unknown value tag 32"). */
export function garbageKeyframe(r: Recording, frame: number): Uint8Array {
  return replaceKeyframeBytes(r, frame, new TextEncoder().encode(' this is not a snapshot'));
}
