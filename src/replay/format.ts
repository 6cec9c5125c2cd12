/**
 * The replay file, format versions 3 (one player) and 4 (2 to 4 players), documented in
 * docs/formats/replay.md. Little-endian throughout.
 *
 *   file   = magic "RSIMRPLY" (8 bytes), u16 format version (3 or 4), u16 reserved (0), chunk*
 *   chunk  = FourCC type, u32 payload length, payload, u32 CRC-32 of (type, length, payload)
 *   order  = HEAD, then KEYF(0), FRAM(1..K), KEYF(K), FRAM(K+1..2K), ..., then END  (K = keyframe interval)
 *
 * Frames are numbered from 1 (frame f is the f-th step); keyframe F holds the state after F frames. Version 4
 * differs only in its header (the number of players, after the capacity) and its frame records (one input
 * word per player, player 0 first, where version 3 has the one).
 * Reading checks every chunk's CRC, every count against the bytes left, and the frame numbering, and throws a
 * FormatError naming the chunk (type, index, frames it covers) and the offset.
 */
import { BinaryReader } from '../binary/reader.js';
import { BinaryWriter } from '../binary/writer.js';
import { crc32 } from '../binary/crc32.js';
import { FormatError } from '../binary/format-error.js';
import { jsonTooDeepAt } from '../binary/json-depth.js';
import type { ScenarioIdentity, ScenarioSettings } from '../sim/scenario.js';
import type { ParamValue } from '../systems/system.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../limits.js';
import { PACKAGE_VERSION } from '../version.js';
import { GRAPH2_PACKAGE, graphListingHash, isGraph2 } from '../scenarios/graph-listing.js';

/** The first 8 bytes of a replay file. */
export const REPLAY_MAGIC = 'RSIMRPLY';
/**
 * The replay file's format version. 3 since the state hash covers the entity capacity, the scheduler's next
 * task id, the field tasks' view and smoke puffs (version 2 files, whose hash leaves those out, are refused).
 */
export const REPLAY_FORMAT_VERSION = 3;
/**
 * The format version of a replay of 2 to 4 players (`settings.players`): version 3's layout with the number
 * of players in the header and every player's input word in each frame record. A replay of one player is
 * always version 3, so it is the same bytes as before players existed.
 */
export const MULTIPLAYER_REPLAY_FORMAT_VERSION = 4;
/** Most players a replay records (a version 4 replay has 2..this). */
export const MAX_REPLAY_PLAYERS = 4;

/** The format version a replay of `players` players is written in: 3 for one, 4 for 2..4. */
export function replayFormatVersion(players: number): number {
  return players > 1 ? MULTIPLAYER_REPLAY_FORMAT_VERSION : REPLAY_FORMAT_VERSION;
}
/** The runtime that wrote a replay ("retrosim " and package.json's version); verify warns (does not fail) when it differs. */
export const RUNTIME_VERSION = `retrosim ${PACKAGE_VERSION}`;
/** Frames between keyframes (snapshots a seek starts from) when a recorder is given no interval. */
export const DEFAULT_KEYFRAME_INTERVAL = 600;
/** Limits that keep a hostile file from asking for absurd work or memory. */
export const MAX_FRAMES = DEFAULT_LIMITS.replay.frames;
export const MAX_SECTIONS = 64;
export const MAX_STRING_BYTES = 4096;
/** Most local modules, and most packages, a header lists for a scenario's module graph. */
export const MAX_SCENARIO_MODULES = 1000;
/**
 * The flag (the u16 after the format version, 0 in earlier files) of a replay whose scenario's module graph
 * is graph 2: each module is listed with the SHA-256 of its bytes, and the list hashes to the scenario's
 * content hash (checked on reading). A replay of a built-in or inline scenario has no flag, so it is the same
 * bytes as before.
 */
export const FLAG_GRAPH2 = 1;

/** Which world a replay ran on: enough to find it again and to check it is the same bytes. */
export interface WorldIdentity {
  kind: string;
  name: string;
  /** Where it came from: "builtin:<id>" for a shipped world, else "file:<name as given>". */
  source: string;
  /** FNV-1a 64 of the world file's bytes, "0x" + 16 hex digits. */
  contentHash: string;
  byteLength: number;
}

/** What a replay ran: the world, the scenario and its settings, and how its frames are recorded. */
export interface ReplayHeader {
  formatVersion: number;
  /** The runtime that wrote it (RUNTIME_VERSION of that version). */
  runtime: string;
  world: WorldIdentity;
  /** The scenario the replay ran: its name, version, where it came from and its content hash. */
  scenario: ScenarioIdentity;
  settings: ScenarioSettings;
  /** Frames between keyframes. */
  keyframeInterval: number;
  /** Names of the state hash's sections (per-frame low words are stored in this order). */
  sections: string[];
}

/** Per-frame records, index f − 1 for frame f. */
export interface ReplayFrames {
  count: number;
  /** Players whose inputs each frame records (1 for a version 3 replay). */
  players: number;
  /**
   * The input (button bits) of each frame and player: frame-major, `players` words per frame (player 0
   * first), so frame f's are at (f − 1) × players ... With one player, index f − 1.
   */
  inputs: Uint32Array;
  /** The state hash after each frame, high and low 32 bits. */
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  /** Cumulative fieldrand count and ccRand draws at the end of each frame. */
  fieldrand: Uint32Array;
  ccrand: Uint32Array;
  /** Low words of each section's hash: frame-major, `sections.length` per frame. */
  sections: Uint32Array;
}

/** A snapshot of the simulation after `frame` frames, with its state hash. */
export interface ReplayKeyframe {
  frame: number;
  hashHi: number;
  hashLo: number;
  /** The encoded snapshot (value-codec bytes) and its offset in the file, for error messages. */
  snapshot: Uint8Array;
  offset: number;
}

/** A replay file read (readReplay): its header, every frame's input and hash, the keyframes, and the final state. */
export interface Replay {
  header: ReplayHeader;
  frames: ReplayFrames;
  keyframes: ReplayKeyframe[];
  /** The frame count and the state hash after the last frame. */
  final: { frames: number; hashHi: number; hashLo: number };
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function putString(w: BinaryWriter, s: string): void {
  const b = utf8.encode(s);
  if (b.length > MAX_STRING_BYTES) throw new RangeError(`replay string longer than ${MAX_STRING_BYTES} bytes`);
  w.u16(b.length).bytes(b);
}

function getString(r: BinaryReader, what: string): string {
  const n = r.u16(`${what} length`);
  const at = r.pos;
  const b = r.bytesView(n, what);
  try {
    return utf8Decoder.decode(b);
  } catch {
    return r.fail(`${what} is not valid UTF-8`, at);
  }
}

function parseHash(hex: string): [number, number] {
  if (!/^0x[0-9a-f]{16}$/.test(hex)) throw new RangeError(`not a 64-bit hash: ${hex}`);
  return [parseInt(hex.slice(2, 10), 16), parseInt(hex.slice(10), 16)];
}

function hex64(hi: number, lo: number): string {
  return '0x' + (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/** The input words of frame index `i` (frame i + 1) as `Simulation.step` takes them: a number for one player. */
export function frameInputs(f: Pick<ReplayFrames, 'players' | 'inputs'>, i: number): number | Uint32Array {
  return f.players === 1 ? f.inputs[i]! : f.inputs.subarray(i * f.players, (i + 1) * f.players);
}

/**
 * Writes a replay file chunk by chunk. The header's `settings.players` picks the format: version 3 for one
 * player (absent), version 4 for 2..4.
 */
export class ReplayWriter {
  private readonly w = new BinaryWriter(1 << 16);
  private started = false;
  /** Players per frame record (the header's; 1 until it is written). */
  private players = 1;

  /** The magic, the version and the flags, written before the first chunk (the header decides them). */
  private start(version: number, flags = 0): void {
    if (this.started) return;
    for (let i = 0; i < 8; i++) this.w.u8(REPLAY_MAGIC.charCodeAt(i));
    this.w.u16(version).u16(flags);
    this.started = true;
  }

  private chunk(type: string, payload: Uint8Array): void {
    this.start(REPLAY_FORMAT_VERSION);
    const head = new BinaryWriter(8).fourcc(type).u32(payload.length).finish();
    const crc = crc32(payload, 0, payload.length, crc32(head));
    this.w.bytes(head).bytes(payload).u32(crc);
  }

  header(h: ReplayHeader): void {
    const players = h.settings.players ?? 1;
    if (!Number.isInteger(players) || players < 1 || players > MAX_REPLAY_PLAYERS) throw new RangeError(`a replay records 1..${MAX_REPLAY_PLAYERS} players, not ${players}`);
    if (this.started && players > 1) throw new RangeError('the header of a replay of several players must be its first chunk');
    const graph2 = isGraph2(h.scenario);
    if (graph2) {
      if (this.started) throw new RangeError('the header of a replay of a scenario module must be its first chunk');
      const listed = `0x${graphListingHash(h.scenario.modules!, h.scenario.packages ?? []).slice(0, 16)}`;
      if (listed !== h.scenario.contentHash) throw new RangeError(`the scenario's module list hashes to ${listed}, not its content hash ${h.scenario.contentHash}`);
      for (const n of h.scenario.packages ?? []) if (!GRAPH2_PACKAGE.test(n)) throw new RangeError(`package ${JSON.stringify(n)} of a graph-2 scenario is not "name@version#<SHA-256>"`);
    }
    this.start(replayFormatVersion(players), graph2 ? FLAG_GRAPH2 : 0);
    this.players = players;
    const p = new BinaryWriter(256);
    putString(p, h.runtime);
    putString(p, h.world.kind);
    putString(p, h.world.name);
    putString(p, h.world.source);
    const [hi, lo] = parseHash(h.world.contentHash);
    p.u32(hi).u32(lo).u32(h.world.byteLength);
    const sc = h.scenario;
    if (sc.name !== h.settings.scenario) throw new RangeError(`the header's scenario ${sc.name} differs from its settings' ${h.settings.scenario}`);
    putString(p, sc.name);
    putString(p, sc.version);
    putString(p, sc.source);
    const [shi, slo] = parseHash(sc.contentHash);
    p.u32(shi).u32(slo);
    const s = h.settings;
    p.u32(s.agents).u32(s.fieldSeed).u32(s.ccRandInit).u32(s.capacity);
    if (players > 1) p.u32(players);
    putString(p, s.streamSeed);
    putString(p, JSON.stringify(s.params));
    p.u32(h.keyframeInterval);
    p.u16(h.sections.length);
    for (const n of h.sections) putString(p, n);
    const modules = sc.modules ?? [];
    const packages = sc.packages ?? [];
    if (modules.length > MAX_SCENARIO_MODULES || packages.length > MAX_SCENARIO_MODULES) throw new RangeError(`a scenario of more than ${MAX_SCENARIO_MODULES} modules or packages`);
    p.u16(modules.length);
    for (const m of modules) {
      putString(p, m.path);
      if (graph2) {
        for (let i = 0; i < 64; i += 2) p.u8(parseInt(m.hash.slice(i, i + 2), 16));
      } else {
        const [mhi, mlo] = parseHash(m.hash);
        p.u32(mhi).u32(mlo);
      }
    }
    p.u16(packages.length);
    for (const n of packages) putString(p, n);
    this.chunk('HEAD', p.finish());
  }

  keyframe(frame: number, hashHi: number, hashLo: number, snapshot: Uint8Array): void {
    const p = new BinaryWriter(snapshot.length + 16);
    p.u32(frame).u32(hashHi).u32(hashLo).bytes(snapshot);
    this.chunk('KEYF', p.finish());
  }

  /**
   * Frames first..first+count−1 from the given arrays (indices 0..count−1; `inputs` holds the header's
   * players words per frame, frame-major).
   */
  frames(first: number, count: number, f: Omit<ReplayFrames, 'count' | 'players'>, sectionCount: number): void {
    const P = this.players;
    const p = new BinaryWriter(8 + count * recordBytes(sectionCount, P));
    p.u32(first).u32(count);
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < P; k++) p.u32(f.inputs[i * P + k]!);
      p.u32(f.hashHi[i]!).u32(f.hashLo[i]!).u32(f.fieldrand[i]!).u32(f.ccrand[i]!);
      for (let k = 0; k < sectionCount; k++) p.u32(f.sections[i * sectionCount + k]!);
    }
    this.chunk('FRAM', p.finish());
  }

  end(frames: number, hashHi: number, hashLo: number): Uint8Array {
    this.start(REPLAY_FORMAT_VERSION);
    this.chunk('END ', new BinaryWriter(12).u32(frames).u32(hashHi).u32(hashLo).finish());
    return this.w.finish();
  }
}

/**
 * Reads and checks a whole replay file. `validInput` says which input words it takes: a mask of the bits they
 * may hold (`BUTTON_MASK`: buttons alone), or a test of each word (`isInputWord`: buttons, or navigation
 * orders with buttons); any other word is refused, naming its frame.
 */
export function readReplay(bytes: Uint8Array, validInput: number | ((word: number) => boolean) = 0xffffffff, limits: Readonly<Limits> = DEFAULT_LIMITS): Replay {
  const validWord = typeof validInput === 'number' ? (w: number) => (w & ~validInput) === 0 : validInput;
  checkFileBytes('replay', bytes.length, limits);
  const r = new BinaryReader(bytes, 'replay');
  if (bytes.length < 12) r.fail(`file is ${bytes.length} bytes, too short for a replay header (12 bytes)`, 0);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== REPLAY_MAGIC) {
    const shown = /^[\x20-\x7e]{8}$/.test(magic) ? JSON.stringify(magic) : Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ');
    r.fail(`not a retrosim replay: starts ${shown}, expected ${JSON.stringify(REPLAY_MAGIC)}`, 0);
  }
  r.pos = 8;
  const version = r.u16('format version');
  if (version === 1) {
    r.fail(`format version 1 (written by retrosim 0.1) is not read by this runtime (it reads versions ${REPLAY_FORMAT_VERSION} and ${MULTIPLAYER_REPLAY_FORMAT_VERSION}): its state hash leaves out parts of the state and its header has no scenario identity, so it cannot be verified; record it again`, 8);
  }
  if (version === 2) {
    r.fail(
      `format version 2 (written by retrosim 0.2.0) is not read by this runtime (it reads versions ${REPLAY_FORMAT_VERSION} and ${MULTIPLAYER_REPLAY_FORMAT_VERSION}): its state hash leaves out the entity capacity, the scheduler's next task id and part of the field tasks' state (the camera view, the smoke puffs), so a verify or a seek of it could not prove its answer; record it again`,
      8,
    );
  }
  if (version !== REPLAY_FORMAT_VERSION && version !== MULTIPLAYER_REPLAY_FORMAT_VERSION) {
    r.fail(`format version ${version} is not supported (this runtime reads versions ${REPLAY_FORMAT_VERSION} and ${MULTIPLAYER_REPLAY_FORMAT_VERSION})`, 8);
  }
  const flags = r.u16('flags');
  if ((flags & ~FLAG_GRAPH2) !== 0) r.fail(`flags are 0x${flags.toString(16)}: bits other than 0x${FLAG_GRAPH2.toString(16)} (graph 2) are reserved and must be 0`, 10);

  let header: ReplayHeader | null = null;
  let final: Replay['final'] | null = null;
  const keyframes: ReplayKeyframe[] = [];
  const blocks: { first: number; count: number; payload: Uint8Array; offset: number }[] = [];
  let frames = 0; // frames read so far
  let index = 0;
  let sectionCount = 0;
  let players = 1;
  while (r.remaining > 0) {
    const start = r.pos;
    if (final) r.fail(`${r.remaining} bytes after the END chunk`, start);
    // Name the chunk by what it should cover, from the frames read so far, before trusting its bytes.
    const expect = expectedName(header, frames, keyframes, index);
    const cr = new BinaryReader(bytes, `replay chunk #${index} (${expect})`);
    cr.pos = start;
    const type = cr.fourcc('chunk type');
    const length = cr.u32('chunk length');
    cr.need(length + 4, `chunk ${JSON.stringify(type)} payload of ${length} bytes and its CRC`);
    const payloadAt = cr.pos;
    const stored = cr.u32At(payloadAt + length, 'CRC');
    const computed = crc32(bytes, payloadAt, payloadAt + length, crc32(bytes, start, payloadAt));
    const shown = /^[A-Z ]{4}$/.test(type) ? type : JSON.stringify(type);
    const pr = new BinaryReader(bytes, `replay chunk ${shown} #${index} (${describeChunk(type, header, frames)})`);
    if (stored !== computed) {
      pr.fail(`CRC-32 mismatch: stored 0x${stored.toString(16).padStart(8, '0')}, computed 0x${computed.toString(16).padStart(8, '0')}`, start);
    }
    pr.pos = payloadAt;
    const payloadEnd = payloadAt + length;
    if (index === 0 && type !== 'HEAD') pr.fail('the first chunk must be HEAD', start);
    switch (type) {
      case 'HEAD': {
        if (header) pr.fail('a second HEAD chunk', start);
        header = readHeader(pr, version, flags);
        if (pr.pos !== payloadAt + length) pr.fail(`the header's fields take ${pr.pos - payloadAt} bytes of its ${length}-byte payload`, payloadAt);
        sectionCount = header.sections.length;
        players = header.settings.players ?? 1;
        break;
      }
      case 'KEYF': {
        const at = pr.pos;
        const frame = pr.u32('keyframe frame');
        if (frame !== frames) pr.fail(`keyframe is for frame ${frame}, expected ${frames} (the frames read so far)`, at);
        if (frame % header!.keyframeInterval !== 0) pr.fail(`keyframe frame ${frame} is not a multiple of the interval ${header!.keyframeInterval}`, at);
        if (keyframes.length && keyframes[keyframes.length - 1]!.frame === frame) pr.fail(`a second keyframe for frame ${frame}`, at);
        const hashHi = pr.u32('keyframe hash');
        const hashLo = pr.u32('keyframe hash');
        const offset = pr.pos;
        checkLimit(pr.format, at, 'keyframes', keyframes.length + 1, limits.replay.keyframes, 'replay.keyframes');
        checkLimit(pr.format, offset, 'keyframe snapshot bytes', payloadEnd - offset, limits.replay.snapshotBytes, 'replay.snapshotBytes');
        const snapshot = pr.bytesView(payloadEnd - pr.pos, 'keyframe snapshot');
        keyframes.push({ frame, hashHi, hashLo, snapshot, offset });
        break;
      }
      case 'FRAM': {
        const at = pr.pos;
        const first = pr.u32('first frame');
        const count = pr.u32('frame count');
        if (first !== frames + 1) pr.fail(`frames start at ${first}, expected ${frames + 1}`, at);
        const rec = recordBytes(sectionCount, players);
        if (count === 0 || count * rec !== length - 8) pr.fail(`${count} frames of ${rec} bytes do not fill the ${length - 8}-byte payload`, at + 4);
        checkLimit(pr.format, at + 4, 'frames', frames + count, limits.replay.frames, 'replay.frames');
        const last = keyframes[keyframes.length - 1];
        if (!last || last.frame !== frames) pr.fail(`frames ${first}.. are not preceded by the keyframe for frame ${frames}`, at);
        if (count > header!.keyframeInterval) pr.fail(`${count} frames exceed the keyframe interval ${header!.keyframeInterval}`, at + 4);
        // Inputs are checked here so a foreign input word is reported with its frame.
        for (let i = 0; i < count; i++) {
          for (let k = 0; k < players; k++) {
            const o = payloadAt + 8 + i * rec + 4 * k;
            const input = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
            if (!validWord(input >>> 0)) pr.fail(`input 0x${(input >>> 0).toString(16)} of frame ${first + i}${players > 1 ? ` (player ${k})` : ''} has undefined button bits`, o);
          }
        }
        blocks.push({ first, count, payload: bytes.subarray(payloadAt + 8, payloadEnd), offset: payloadAt + 8 });
        pr.pos = payloadEnd; // the records are read after the walk, once every chunk has been checked
        frames += count;
        break;
      }
      case 'END ': {
        const at = pr.pos;
        const n = pr.u32('frame count');
        if (n !== frames) pr.fail(`END says ${n} frames, the file holds ${frames}`, at);
        final = { frames: n, hashHi: pr.u32('final hash'), hashLo: pr.u32('final hash') };
        if (n > 0 && (final.hashHi !== lastWord(blocks, recordBytes(sectionCount, players), players) || final.hashLo !== lastWord(blocks, recordBytes(sectionCount, players), players + 1))) {
          pr.fail(`the final hash ${hex64(final.hashHi, final.hashLo)} differs from frame ${n}'s`, at + 4);
        }
        break;
      }
      default:
        pr.fail(`unknown chunk type ${JSON.stringify(type)}`, start);
    }
    if (pr.pos !== payloadEnd) pr.fail(`${payloadEnd - pr.pos} unread bytes at the end of the payload`, pr.pos);
    r.pos = payloadEnd + 4;
    index++;
  }
  if (!header) r.fail('no HEAD chunk', r.pos);
  if (!final) r.fail(`the file ends after frame ${frames} without an END chunk (truncated?)`, r.pos);
  if (!keyframes.length || keyframes[0]!.frame !== 0) r.fail('no keyframe for frame 0', 12);

  const S = sectionCount;
  const P = players;
  const f: ReplayFrames = {
    count: frames,
    players: P,
    inputs: new Uint32Array(frames * P),
    hashHi: new Uint32Array(frames),
    hashLo: new Uint32Array(frames),
    fieldrand: new Uint32Array(frames),
    ccrand: new Uint32Array(frames),
    sections: new Uint32Array(frames * S),
  };
  // Every block's length was checked in the walk (count × record size), so the records are read straight.
  const R = recordBytes(S, P);
  const I = 4 * P; // the input words, then the rest of the record as in version 3
  for (const b of blocks) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset + b.offset, b.count * R);
    for (let i = 0, o = 0; i < b.count; i++, o += R) {
      const k = b.first - 1 + i;
      for (let q = 0; q < P; q++) f.inputs[k * P + q] = dv.getUint32(o + 4 * q, true);
      f.hashHi[k] = dv.getUint32(o + I, true);
      f.hashLo[k] = dv.getUint32(o + I + 4, true);
      f.fieldrand[k] = dv.getUint32(o + I + 8, true);
      f.ccrand[k] = dv.getUint32(o + I + 12, true);
      for (let s = 0; s < S; s++) f.sections[k * S + s] = dv.getUint32(o + I + 16 + 4 * s, true);
    }
  }
  return { header: header!, frames: f, keyframes, final: final! };
}

/** Bytes of one frame record: an input word per player, the hash (2 words), the two draw counts, a word per section. */
function recordBytes(sectionCount: number, players: number): number {
  return 4 * players + 16 + 4 * sectionCount;
}

/** Word `w` (0..players − 1 the inputs, then hash hi, hash lo) of the last frame read. */
function lastWord(blocks: { count: number; payload: Uint8Array }[], recordSize: number, w: number): number {
  const b = blocks[blocks.length - 1]!;
  const at = (b.count - 1) * recordSize + 4 * w;
  return (b.payload[at]! | (b.payload[at + 1]! << 8) | (b.payload[at + 2]! << 16) | (b.payload[at + 3]! << 24)) >>> 0;
}

function expectedName(header: ReplayHeader | null, frames: number, keyframes: ReplayKeyframe[], index: number): string {
  if (index === 0 || !header) return 'expected HEAD';
  const last = keyframes[keyframes.length - 1];
  if (!last || last.frame !== frames) return `expected the keyframe for frame ${frames}`;
  return `expected frames from ${frames + 1} or END`;
}

function describeChunk(type: string, header: ReplayHeader | null, frames: number): string {
  switch (type) {
    case 'HEAD':
      return 'header';
    case 'KEYF':
      return `keyframe at frame ${frames}`;
    case 'FRAM':
      return `frames from ${frames + 1}${header ? ` to ${frames + header.keyframeInterval} at most` : ''}`;
    case 'END ':
      return `end, after frame ${frames}`;
    default:
      return `after frame ${frames}`;
  }
}

function readHeader(r: BinaryReader, version: number, flags = 0): ReplayHeader {
  const graph2 = (flags & FLAG_GRAPH2) !== 0;
  const runtime = getString(r, 'runtime version');
  const kind = getString(r, 'world kind');
  const name = getString(r, 'world name');
  const source = getString(r, 'world source');
  const hi = r.u32('world hash');
  const lo = r.u32('world hash');
  const byteLength = r.u32('world byte length');
  const scenario = getString(r, 'scenario name');
  const scenarioVersion = getString(r, 'scenario version');
  const scenarioSource = getString(r, 'scenario source');
  const shi = r.u32('scenario hash');
  const slo = r.u32('scenario hash');
  const agents = r.u32('agents');
  const fieldSeed = r.u32('field seed');
  const ccRandInit = r.u32('ccRand init count');
  // The settings' ranges are the scenario's to check (checkReplaySettings in src/replay/replay.ts), before any
  // simulation is built from them; reading them costs nothing.
  const capacity = r.u32('capacity');
  // Version 4: the players, 2..4 (a replay of one player is version 3, so each run has one encoding).
  let players = 1;
  if (version === MULTIPLAYER_REPLAY_FORMAT_VERSION) {
    const at = r.pos;
    players = r.u32('players');
    if (players < 2 || players > MAX_REPLAY_PLAYERS) r.fail(`players ${players} is outside 2..${MAX_REPLAY_PLAYERS} (a version ${MULTIPLAYER_REPLAY_FORMAT_VERSION} replay records 2 to ${MAX_REPLAY_PLAYERS} players; one player is version ${REPLAY_FORMAT_VERSION})`, at);
  }
  const streamSeed = getString(r, 'stream seed');
  const pAt = r.pos;
  const params = readParams(r, getString(r, 'scenario parameters'), pAt);
  const kAt = r.pos;
  const keyframeInterval = r.u32('keyframe interval');
  if (keyframeInterval < 1 || keyframeInterval > 1 << 20) r.fail(`keyframe interval ${keyframeInterval} is outside 1..${1 << 20}`, kAt);
  const sAt = r.pos;
  const n = r.u16('section count');
  if (n > MAX_SECTIONS) r.fail(`${n} sections is over the limit ${MAX_SECTIONS}`, sAt);
  const sections: string[] = [];
  for (let i = 0; i < n; i++) sections.push(getString(r, `section ${i} name`));
  const mAt = r.pos;
  const moduleCount = r.u16('scenario module count');
  if (moduleCount > MAX_SCENARIO_MODULES) r.fail(`${moduleCount} scenario modules is over the limit ${MAX_SCENARIO_MODULES}`, mAt);
  const modules: { path: string; hash: string }[] = [];
  const paths = new Set<string>();
  for (let i = 0; i < moduleCount; i++) {
    const at = r.pos;
    const path = getString(r, `scenario module ${i} path`);
    if (paths.has(path)) r.fail(`scenario module ${JSON.stringify(path)} is listed twice`, at);
    paths.add(path);
    if (graph2) {
      let hex = '';
      for (let k = 0; k < 32; k++) hex += r.u8(`scenario module ${i} hash`).toString(16).padStart(2, '0');
      modules.push({ path, hash: hex });
    } else {
      const hi = r.u32(`scenario module ${i} hash`);
      const lo = r.u32(`scenario module ${i} hash`);
      modules.push({ path, hash: hex64(hi, lo) });
    }
  }
  const pAt2 = r.pos;
  const packageCount = r.u16('scenario package count');
  if (packageCount > MAX_SCENARIO_MODULES) r.fail(`${packageCount} scenario packages is over the limit ${MAX_SCENARIO_MODULES}`, pAt2);
  const packages: string[] = [];
  for (let i = 0; i < packageCount; i++) {
    const at = r.pos;
    const name = getString(r, `scenario package ${i}`);
    if (graph2 && !GRAPH2_PACKAGE.test(name)) r.fail(`scenario package ${JSON.stringify(name.slice(0, 80))} is not "name@version#<SHA-256 of its content>"`, at);
    packages.push(name);
  }
  if (moduleCount === 0 && packageCount > 0) r.fail('the scenario lists packages but no module', pAt2);
  if (graph2) {
    // The list must be the graph the scenario hash names: recomputed here, as Node computed it when recording.
    if (moduleCount === 0) r.fail('the flags say the scenario is a module graph, and the header lists no module', mAt);
    const listed = `0x${graphListingHash(modules, packages).slice(0, 16)}`;
    const recorded = hex64(shi, slo);
    if (listed !== recorded) r.fail(`the scenario's module list hashes to ${listed}, not the recorded graph hash ${recorded}: the list was changed`, mAt);
  }
  return {
    formatVersion: version,
    runtime,
    world: { kind, name, source, contentHash: hex64(hi, lo), byteLength },
    scenario: { name: scenario, version: scenarioVersion, source: scenarioSource, contentHash: hex64(shi, slo), ...(moduleCount ? { modules, packages } : {}) },
    settings: { scenario, agents, fieldSeed, ccRandInit, streamSeed, capacity, params, ...(players > 1 ? { players } : {}) },
    keyframeInterval,
    sections,
  };
}

/** The scenario parameters: a JSON object of numbers, strings and booleans (their declarations are the scenario's to check). */
function readParams(r: BinaryReader, text: string, at: number): Record<string, ParamValue> {
  if (jsonTooDeepAt(text, DEFAULT_LIMITS.jsonDepth) >= 0) return r.fail(`scenario parameters nest JSON deeper than ${DEFAULT_LIMITS.jsonDepth} levels (limits.jsonDepth)`, at);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return r.fail('scenario parameters are not JSON', at);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return r.fail('scenario parameters are not a JSON object', at);
  const out: Record<string, ParamValue> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(k)) r.fail(`scenario parameter name ${JSON.stringify(k.slice(0, 64))} is not a parameter name`, at);
    if (typeof x !== 'number' && typeof x !== 'string' && typeof x !== 'boolean') r.fail(`scenario parameter ${JSON.stringify(k.slice(0, 64))} is not a number, string or boolean`, at);
    out[k] = x;
  }
  return out;
}

/** A readable JSON form of a replay (frames included unless `withFrames` is false; snapshots as sizes). */
export function replayToJson(rp: Replay, withFrames = true): Record<string, unknown> {
  const h = rp.header;
  const out: Record<string, unknown> = {
    format: 'retrosim-replay',
    formatVersion: h.formatVersion,
    runtime: h.runtime,
    world: h.world,
    scenario: h.scenario,
    settings: h.settings,
    keyframeInterval: h.keyframeInterval,
    sections: h.sections,
    frames: rp.frames.count,
    finalHash: hex64(rp.final.hashHi, rp.final.hashLo),
    finalDraws: rp.frames.count ? { fieldrand: rp.frames.fieldrand[rp.frames.count - 1], ccrand: rp.frames.ccrand[rp.frames.count - 1] } : { fieldrand: 0, ccrand: 0 },
    keyframes: rp.keyframes.map((k) => ({ frame: k.frame, hash: hex64(k.hashHi, k.hashLo), bytes: k.snapshot.length })),
  };
  if (withFrames) {
    const f = rp.frames;
    const S = h.sections.length;
    const list: Record<string, unknown>[] = [];
    for (let i = 0; i < f.count; i++) {
      const sec: Record<string, string> = {};
      for (let s = 0; s < S; s++) sec[h.sections[s]!] = '0x' + f.sections[i * S + s]!.toString(16).padStart(8, '0');
      const input = f.players === 1 ? { input: f.inputs[i] } : { input: f.inputs[i * f.players], inputs: Array.from(f.inputs.subarray(i * f.players, (i + 1) * f.players)) };
      list.push({ frame: i + 1, ...input, hash: hex64(f.hashHi[i]!, f.hashLo[i]!), fieldrand: f.fieldrand[i], ccrand: f.ccrand[i], sections: sec });
    }
    out['frameList'] = list;
  }
  return out;
}

export { FormatError, hex64 };
