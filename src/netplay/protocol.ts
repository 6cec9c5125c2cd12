/**
 * The netplay wire protocol (version 2): one JSON object per WebSocket text message, between the relay and
 * its clients (players and spectators). This module holds the message types, the bounds both sides enforce,
 * validating parsers and small encoders. It has no Node imports: browsers use it as they are.
 *
 * Frames are numbered as in replays: frame f is the f-th step (the inputs of frame f are the buttons `step`
 * gets), frame 0 is the state right after building.
 *
 * The parsers trust nothing: they check the size before `JSON.parse`, the nesting depth, then every field's
 * presence, type and range, and refuse unknown fields. A refusal is a `ProtocolError` whose message names the
 * field, e.g. `input.b[3]: expected an integer in 0..63, got 64`. What the parsers cannot know (a room's player
 * count, its confirmed frame) the relay checks. Every string a refusal quotes is made printable first (no
 * control characters reach a log or a terminal through it).
 *
 * Version 2 added to version 1: the `join` names the client's runtime (`runtime`) and the scenario module graph
 * it brings (`scenario`), which the relay compares with the room's; a config's keyframe interval is a multiple
 * of its check interval (the relay keeps a keyframe only once every player's checksum of its frame agrees).
 *
 * Version 3 added to version 2: a player's `join.name` must be printable (no control or bidirectional
 * character, see printable.ts); the relay tells every client of a room who holds each seat (`seats`, with the
 * names) whenever a player takes one; a player says when its page is hidden or shown again (`away`), which the
 * relay forwards to the others with its seat.
 */
import { jsonTooDeepAt } from '../binary/json-depth.js';
import type { WorldIdentity } from '../replay/format.js';
import type { ScenarioIdentity, ScenarioSettings } from '../sim/scenario.js';
import { BUTTON_MASK } from '../systems/input.js';
import { isPrintable, printable } from './printable.js';

/** The protocol version a `join` names (`v`). */
export const PROTOCOL_VERSION = 3;
/** Longest text message, in UTF-16 code units here and in bytes at the relay (a `keyframe` may be longer). */
export const MAX_MESSAGE_LENGTH = 16 * 1024;
/** Longest `keyframe` message. A message longer than MAX_MESSAGE_LENGTH must start with `{"t":"keyframe"`. */
export const MAX_KEYFRAME_LENGTH = 8 * 1024 * 1024;
/** Most frames of inputs per player the relay keeps for a room (about 18 minutes at 60 frames per second). */
export const MAX_LOG_FRAMES = 65_536;
/**
 * Longest `catchup` message (relay to spectator): a keyframe plus up to MAX_LOG_FRAMES inputs per player.
 * A message longer than MAX_MESSAGE_LENGTH from the relay must start with `{"t":"catchup"`. Clients should
 * accept WebSocket payloads of this size.
 */
export const MAX_CATCHUP_LENGTH = MAX_KEYFRAME_LENGTH + 2 * 1024 * 1024;
/** Longest `config`, as JSON. */
export const MAX_CONFIG_LENGTH = 8 * 1024;
/** Deepest nesting of arrays and objects in a message (a config's scenario modules are 5 deep). */
export const MAX_JSON_DEPTH = 8;
/** Room names: 1–64 of these characters. */
export const ROOM_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** Longest room name. */
export const MAX_ROOM_LENGTH = 64;
/** Longest player or spectator name. */
export const MAX_NAME_LENGTH = 32;
/** Most players in a room (the config's `settings.players`, 1..MAX_PLAYERS). */
export const MAX_PLAYERS = 4;
/** Most spectators in a room. */
export const MAX_SPECTATORS = 8;
/** Most inputs in one `input` message. */
export const MAX_INPUTS_PER_MESSAGE = 32;
/** How far past its own last logged input a player's `input` may reach (F + len − 1 ≤ logged + MAX_INPUT_LEAD). */
export const MAX_INPUT_LEAD = 32;
/**
 * How far past the room's confirmed frame a player's inputs may reach. A peer's prediction keeps honest
 * players within a few frames of it; the bound keeps the relay's input log finite when one player stalls.
 */
export const MAX_AHEAD_OF_CONFIRMED = 600;
/** Most checksums in one `input` message. */
export const MAX_CHECKSUMS = 4;
/** Most inputs a `left` message repeats. */
export const MAX_LEFT_INPUTS = 64;
/** A client's sustained message rate (token bucket refill per second). */
export const RATE_PER_SECOND = 120;
/** A client's burst: most messages in any one second. */
export const RATE_BURST = 240;
/** A client's first message must be `join`, within this many milliseconds of connecting. */
export const JOIN_TIMEOUT_MS = 10_000;
/** Largest frame number any message may carry. */
export const MAX_FRAME = 0x7fff_ffff;
/** Range of `keyframeInterval` in a config. */
export const KEYFRAME_INTERVAL_RANGE = Object.freeze({ min: 1, max: 100_000 });
/** Range of `checkInterval` in a config. */
export const CHECK_INTERVAL_RANGE = Object.freeze({ min: 1, max: 600 });
/** Range of `inputDelay` in a config. */
export const INPUT_DELAY_RANGE = Object.freeze({ min: 0, max: 30 });
/** Most `state` messages a client may send in a room (one per desync it reports; more are refused). */
export const MAX_STATES_PER_CLIENT = 4;
/** Longest `error` reason. */
export const MAX_REASON_LENGTH = 512;
/** Longest runtime version a `join` names. */
export const MAX_RUNTIME_VERSION_LENGTH = 64;
export { BUTTON_MASK };

/** A client's part in a room. */
export type Role = 'player' | 'spectator';

/** A checksum of a confirmed frame: the frame and its state hash, "0x" + 16 lower-case hex digits. */
export type Checksum = [frame: number, hash: string];

/**
 * What every peer of a room builds its simulation from (the replay header's fields), given by the room's first
 * player. The relay checks its shape only; it never simulates.
 */
export interface NetplayConfig {
  world: WorldIdentity;
  scenario: ScenarioIdentity;
  /** The scenario's settings, with `players` (1..MAX_PLAYERS): the room's seats. */
  settings: ScenarioSettings & { players: number };
  /** Frames between keyframes (a replay's keyframe interval; the keyframes spectators start from). */
  keyframeInterval: number;
  /** Frames between exchanged checksums. */
  checkInterval: number;
  /** Frames of input delay. */
  inputDelay: number;
}

/**
 * The runtime a client runs, as its `join` names it. The relay seats a client only when its runtime is the
 * room's: the same version, and, when both name a hash of the same kind, the same hash (a browser and a Node
 * client, whose hashes are of different things, are compared by version only). It identifies code, it does
 * not prove it: a client can name any runtime.
 */
export interface RuntimeIdentity {
  /** The runtime's version, as a replay records it (`retrosim 1.2.3`): 1..MAX_RUNTIME_VERSION_LENGTH characters. */
  version: string;
  /**
   * What `hash` is a hash of: `files`, the runtime's built files and the packages it loads (Node, from
   * `nodeRuntimeIdentity`); `build`, the sources a browser bundle was built from (fixed at build time);
   * `version`, nothing (no `hash`): a program that did not say.
   */
  kind: 'files' | 'build' | 'version';
  /** SHA-256, 64 lower-case hex digits; absent for kind `version`. */
  hash?: string;
}

/** Client → relay: the first message. A room's first player gives `config`; later clients adopt the room's. */
export interface JoinMessage {
  t: 'join';
  v: number;
  room: string;
  role: Role;
  /** The client's runtime: it must be the room's (see RuntimeIdentity). */
  runtime: RuntimeIdentity;
  /**
   * The content hash of the scenario module graph the client brings ("0x" + 16 hex digits), absent when it
   * plays built-in scenarios only. A room that plays a module seats only clients bringing its graph; a room
   * that plays a built-in scenario, none that brings a module.
   */
  scenario?: string;
  config?: NetplayConfig;
  /** The player's display name: up to MAX_NAME_LENGTH characters, all printable (see `checkName`). */
  name?: string;
}

/** Client → relay: this player's buttons for frames f..f+b.length−1, with acks, checksums and its frame. */
export interface InputMessage {
  t: 'input';
  /** The first frame of `b` (≥ 1). */
  f: number;
  /** Button words, 1..MAX_INPUTS_PER_MESSAGE, each in 0..BUTTON_MASK. */
  b: number[];
  /** ack[j]: the highest frame up to which the sender has every input of player j (one per player). */
  ack: number[];
  /** Up to MAX_CHECKSUMS checksums of the sender's confirmed frames (multiples of checkInterval). */
  c: Checksum[];
  /** The frame the sender has simulated up to (time sync). */
  at: number;
}

/** Client → relay: a round-trip probe, answered by a `pong` with the same id. */
export interface PingMessage {
  t: 'ping';
  id: number;
}

/** A keyframe: the snapshot after frame f (value-codec bytes, base64) and its state hash. */
export interface Keyframe {
  f: number;
  hash: string;
  data: string;
}

/** Client → relay: a keyframe of a confirmed frame (a multiple of keyframeInterval), kept for spectators. */
export interface KeyframeMessage extends Keyframe {
  t: 'keyframe';
}

/**
 * Client → relay: this player's state at a checked frame (value-codec snapshot, base64), sent once when it finds
 * a desync there, so that every peer can name the hash sections and the values that differ. Players only; at
 * most MAX_STATES_PER_CLIENT.
 */
export interface StateMessage extends Keyframe {
  t: 'state';
}

/** Relay → client: a player's `state` forwarded, stamped with its seat `p`. */
export interface StateForward extends Keyframe {
  t: 'state';
  p: number;
}

/**
 * Client → relay: this player's page was hidden (`hidden` true) or shown again (false). A hidden page may tick
 * less often (a browser slows a background tab's timers), so its peers may wait for its inputs: they are told
 * why. Players only.
 */
export interface AwayMessage {
  t: 'away';
  hidden: boolean;
}

/** Relay → client: player p's `away`, forwarded to every other client of the room. */
export interface AwayForward extends AwayMessage {
  p: number;
}

/**
 * Relay → client: who holds each seat, sent to every client of the room whenever a player takes one.
 * `names[k]` is seat k's player's name ('' when it gave none), null while the seat is free.
 */
export interface SeatsMessage {
  t: 'seats';
  names: (string | null)[];
}

/** Any message a client sends. */
export type ClientMessage = JoinMessage | InputMessage | PingMessage | KeyframeMessage | StateMessage | AwayMessage;

/** Relay → client: the answer to `join`: the seat (players 0-based; spectators −1) and the room's config. */
export interface JoinedMessage {
  t: 'joined';
  room: string;
  role: Role;
  player: number;
  players: number;
  config: NetplayConfig;
}

/** Relay → client: every seat is taken; frame 1 may be simulated. */
export interface StartMessage {
  t: 'start';
}

/** Relay → client: player p's `input`, forwarded with the relay's logged buttons. */
export interface InputForward extends Omit<InputMessage, 't'> {
  t: 'input';
  p: number;
}

/**
 * Relay → spectator joining after `start`: the latest keyframe (null: start from frame 0) and every logged
 * input of each player from frame `from` on (keyframe.f + 1, or 1).
 */
export interface CatchupMessage {
  t: 'catchup';
  keyframe: Keyframe | null;
  from: number;
  /** inputs[j]: player j's buttons of frames from, from+1, … */
  inputs: number[][];
}

/**
 * Relay → client: player p's connection ended; its inputs of frames ≥ `from` are 0. `b` repeats its last logged
 * inputs, frames f0..from−1 (up to MAX_LEFT_INPUTS).
 */
export interface LeftMessage {
  t: 'left';
  p: number;
  from: number;
  f0: number;
  b: number[];
}

/** Relay → client: player p resent frame f's input with other buttons than logged (the log wins). */
export interface ChangedMessage {
  t: 'changed';
  p: number;
  f: number;
}

/** Relay → client: the answer to a `ping`. */
export interface PongMessage {
  t: 'pong';
  id: number;
}

/** Relay → client: why the relay is about to close this connection. */
export interface ErrorMessage {
  t: 'error';
  reason: string;
}

/** Any message the relay sends. */
export type RelayMessage = JoinedMessage | StartMessage | InputForward | CatchupMessage | LeftMessage | ChangedMessage | PongMessage | StateForward | ErrorMessage | SeatsMessage | AwayForward;

/**
 * A refused message: the message names the field and what was wrong. `code` is the WebSocket close code the
 * relay closes with: 1009 for a message too big, else 1008.
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    message: string,
    readonly code: 1008 | 1009 = 1008,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Field checks

type Obj = Record<string, unknown>;

/** A received value as a refusal quotes it: short, and printable (protocol strings are the senders'). */
function show(v: unknown): string {
  let s: string;
  if (v === undefined) s = 'nothing';
  else if (Array.isArray(v)) s = `an array of ${v.length}`;
  else if (v !== null && typeof v === 'object') s = 'an object';
  else s = JSON.stringify(v) ?? String(v);
  return printable(s.length > 40 ? `${s.slice(0, 37)}...` : s);
}

function fail(where: string, expected: string, v: unknown): never {
  throw new ProtocolError(`${where}: expected ${expected}, got ${show(v)}`);
}

function object(v: unknown, where: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(where, 'an object', v);
  return v as Obj;
}

/** Refuses a field outside `required` and `optional`, and a missing required one. */
function fields(o: Obj, where: string, required: readonly string[], optional: readonly string[] = []): void {
  for (const k of Object.keys(o)) {
    if (!required.includes(k) && !optional.includes(k)) throw new ProtocolError(`${where}: unknown field ${show(k)}`);
  }
  for (const k of required) if (!Object.hasOwn(o, k)) throw new ProtocolError(`${where}.${k}: missing`);
}

function int(v: unknown, where: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(where, `an integer in ${min}..${max}`, v);
  return v === 0 ? 0 : v; // -0 reads as 0
}

function str(v: unknown, where: string, maxLength = Infinity): string {
  if (typeof v !== 'string') fail(where, 'a string', v);
  if (v.length > maxLength) throw new ProtocolError(`${where}: longer than ${maxLength} characters (${v.length})`);
  return v;
}

function bool(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') fail(where, 'true or false', v);
  return v;
}

function array(v: unknown, where: string, minLength: number, maxLength: number): unknown[] {
  if (!Array.isArray(v)) fail(where, 'an array', v);
  if (v.length < minLength || v.length > maxLength) fail(where, `an array of ${minLength}..${maxLength} items`, v);
  return v;
}

function buttons(v: unknown, where: string, minLength: number, maxLength: number): number[] {
  return array(v, where, minLength, maxLength).map((x, i) => int(x, `${where}[${i}]`, 0, BUTTON_MASK));
}

const HASH = /^0x[0-9a-f]{16}$/;
function hash(v: unknown, where: string): string {
  if (typeof v !== 'string' || !HASH.test(v)) fail(where, 'a hash ("0x" + 16 lower-case hex digits)', v);
  return v;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
function base64(v: unknown, where: string): string {
  if (typeof v !== 'string') fail(where, 'a base64 string', v);
  if (v.length === 0 || v.length % 4 !== 0 || !BASE64.test(v)) fail(where, 'non-empty base64 (A–Z a–z 0–9 + /, padded with =)', v);
  return v;
}

function frame(v: unknown, where: string, min = 0): number {
  return int(v, where, min, MAX_FRAME);
}

function room(v: unknown, where: string): string {
  const s = str(v, where, MAX_ROOM_LENGTH);
  if (!ROOM_PATTERN.test(s)) fail(where, `a room name of 1..${MAX_ROOM_LENGTH} characters A-Z a-z 0-9 _ . -`, s);
  return s;
}

/**
 * A player's display name checked: a string of at most MAX_NAME_LENGTH characters, none of which `printable`
 * would escape (no control, bidirectional or lone surrogate character). Throws a ProtocolError naming `where`.
 */
export function checkName(v: unknown, where = 'name'): string {
  const s = str(v, where, MAX_NAME_LENGTH);
  if (!isPrintable(s)) fail(where, 'a name without control or bidirectional characters', s);
  return s;
}

const SHA256 = /^[0-9a-f]{64}$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z .+_-]*$/;

/** Checks a `join`'s runtime identity (see RuntimeIdentity). */
export function parseRuntimeIdentity(v: unknown, where = 'runtime'): RuntimeIdentity {
  const o = object(v, where);
  fields(o, where, ['version', 'kind'], ['hash']);
  const version = str(o.version, `${where}.version`, MAX_RUNTIME_VERSION_LENGTH);
  if (!VERSION.test(version)) fail(`${where}.version`, 'a version of letters, digits, spaces and . + _ -', version);
  const kind = o.kind;
  if (kind !== 'files' && kind !== 'build' && kind !== 'version') fail(`${where}.kind`, '"files", "build" or "version"', kind);
  if (kind === 'version') {
    if (o.hash !== undefined) throw new ProtocolError(`${where}.hash: a runtime of kind "version" names no hash`);
    return { version, kind };
  }
  if (typeof o.hash !== 'string' || !SHA256.test(o.hash)) fail(`${where}.hash`, 'a SHA-256 (64 lower-case hex digits)', o.hash);
  return { version, kind, hash: o.hash };
}

function role(v: unknown, where: string): Role {
  if (v !== 'player' && v !== 'spectator') fail(where, '"player" or "spectator"', v);
  return v;
}

function keyframe(v: unknown, where: string): Keyframe {
  const o = object(v, where);
  fields(o, where, ['f', 'hash', 'data']);
  return { f: frame(o.f, `${where}.f`), hash: hash(o.hash, `${where}.hash`), data: base64(o.data, `${where}.data`) };
}

function stringFields(v: unknown, where: string, names: readonly string[]): Record<string, string> {
  const o = object(v, where);
  const out: Record<string, string> = {};
  for (const n of names) out[n] = str(o[n], `${where}.${n}`);
  return out;
}

function worldIdentity(v: unknown, where: string): WorldIdentity {
  const o = object(v, where);
  fields(o, where, ['kind', 'name', 'source', 'contentHash', 'byteLength']);
  const s = stringFields(o, where, ['kind', 'name', 'source', 'contentHash']);
  return { kind: s.kind!, name: s.name!, source: s.source!, contentHash: s.contentHash!, byteLength: int(o.byteLength, `${where}.byteLength`, 0, Number.MAX_SAFE_INTEGER) };
}

function scenarioIdentity(v: unknown, where: string): ScenarioIdentity {
  const o = object(v, where);
  fields(o, where, ['name', 'version', 'source', 'contentHash'], ['modules', 'packages']);
  const s = stringFields(o, where, ['name', 'version', 'source', 'contentHash']);
  const id: ScenarioIdentity = { name: s.name!, version: s.version!, source: s.source!, contentHash: s.contentHash! };
  if (o.modules !== undefined) {
    id.modules = array(o.modules, `${where}.modules`, 0, MAX_CONFIG_LENGTH).map((m, i) => {
      const at = `${where}.modules[${i}]`;
      fields(object(m, at), at, ['path', 'hash']);
      const ms = stringFields(m, at, ['path', 'hash']);
      return { path: ms.path!, hash: ms.hash! };
    });
  }
  if (o.packages !== undefined) {
    id.packages = array(o.packages, `${where}.packages`, 0, MAX_CONFIG_LENGTH).map((p, i) => str(p, `${where}.packages[${i}]`));
  }
  return id;
}

/** A plain JSON value copied (the depth is already bounded by the message's pre-scan). */
function copyJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copyJson);
  if (v !== null && typeof v === 'object') {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: copyJson(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/**
 * Checks a netplay config's shape: world and scenario identities with their string fields, settings an object
 * with `players` in 1..MAX_PLAYERS, the intervals in range, at most MAX_CONFIG_LENGTH as JSON. Returns a copy.
 * The settings' other fields are the simulation's to check when a peer builds it.
 */
export function parseConfig(v: unknown, where = 'config'): NetplayConfig {
  const o = object(v, where);
  const length = JSON.stringify(o).length;
  if (length > MAX_CONFIG_LENGTH) throw new ProtocolError(`${where}: longer than ${MAX_CONFIG_LENGTH} characters as JSON (${length})`);
  fields(o, where, ['world', 'scenario', 'settings', 'keyframeInterval', 'checkInterval', 'inputDelay']);
  const settings = object(o.settings, `${where}.settings`);
  const players = int(settings.players, `${where}.settings.players`, 1, MAX_PLAYERS);
  const keyframeInterval = int(o.keyframeInterval, `${where}.keyframeInterval`, KEYFRAME_INTERVAL_RANGE.min, KEYFRAME_INTERVAL_RANGE.max);
  const checkInterval = int(o.checkInterval, `${where}.checkInterval`, CHECK_INTERVAL_RANGE.min, CHECK_INTERVAL_RANGE.max);
  // a keyframe's frame is then a check frame: the relay compares its hash with every player's checksum there
  if (keyframeInterval % checkInterval !== 0) fail(`${where}.keyframeInterval`, `a multiple of the check interval ${checkInterval}`, keyframeInterval);
  return {
    world: worldIdentity(o.world, `${where}.world`),
    scenario: scenarioIdentity(o.scenario, `${where}.scenario`),
    settings: { ...(copyJson(settings) as ScenarioSettings), players },
    keyframeInterval,
    checkInterval,
    inputDelay: int(o.inputDelay, `${where}.inputDelay`, INPUT_DELAY_RANGE.min, INPUT_DELAY_RANGE.max),
  };
}

function inputBody(o: Obj, where: string): Omit<InputMessage, 't'> {
  const c = array(o.c, `${where}.c`, 0, MAX_CHECKSUMS).map((pair, i) => {
    const at = `${where}.c[${i}]`;
    const p = array(pair, at, 2, 2);
    return [frame(p[0], `${at}[0]`), hash(p[1], `${at}[1]`)] as Checksum;
  });
  return {
    f: frame(o.f, `${where}.f`, 1),
    b: buttons(o.b, `${where}.b`, 1, MAX_INPUTS_PER_MESSAGE),
    ack: array(o.ack, `${where}.ack`, 1, MAX_PLAYERS).map((x, i) => frame(x, `${where}.ack[${i}]`)),
    c,
    at: frame(o.at, `${where}.at`),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

/** Size, depth and JSON checks shared by both directions; returns the parsed object and its `t`. */
function parseEnvelope(text: unknown, bigKinds: Readonly<Record<string, number>>): { o: Obj; t: string } {
  if (typeof text !== 'string') throw new ProtocolError(`message: expected text, got ${show(text)}`);
  if (text.length > MAX_MESSAGE_LENGTH) {
    const kind = /^\s*\{\s*"t"\s*:\s*"([a-z]+)"/.exec(text.slice(0, 64))?.[1];
    const limit = kind !== undefined && Object.hasOwn(bigKinds, kind) ? bigKinds[kind]! : 0;
    if (limit === 0) throw new ProtocolError(`message: ${text.length} characters, more than ${MAX_MESSAGE_LENGTH} (only a ${Object.keys(bigKinds).join(' or a ')} may be longer)`, 1009);
    if (text.length > limit) throw new ProtocolError(`${kind}: ${text.length} characters, more than ${limit}`, 1009);
  }
  const deep = jsonTooDeepAt(text, MAX_JSON_DEPTH);
  if (deep >= 0) throw new ProtocolError(`message: nested deeper than ${MAX_JSON_DEPTH} levels (at character ${deep})`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ProtocolError('message: not JSON');
  }
  const o = object(v, 'message');
  if (typeof o.t !== 'string') fail('message.t', 'a string', o.t);
  return { o, t: o.t };
}

/**
 * Parses and validates a message a client sent (what the relay receives). Throws a ProtocolError naming the
 * field for anything malformed; what depends on the room (player count, window, confirmed frame) is left to the
 * relay.
 */
export function parseClientMessage(text: string): ClientMessage {
  const { o, t } = parseEnvelope(text, { keyframe: MAX_KEYFRAME_LENGTH, state: MAX_KEYFRAME_LENGTH });
  switch (t) {
    case 'join': {
      // the version first: a client of another version is told that, not what its join lacks
      if (o.v !== PROTOCOL_VERSION) fail('join.v', `protocol version ${PROTOCOL_VERSION}`, o.v);
      fields(o, 'join', ['t', 'v', 'room', 'role', 'runtime'], ['scenario', 'config', 'name']);
      const m: JoinMessage = { t, v: PROTOCOL_VERSION, room: room(o.room, 'join.room'), role: role(o.role, 'join.role'), runtime: parseRuntimeIdentity(o.runtime, 'join.runtime') };
      if (o.scenario !== undefined) m.scenario = hash(o.scenario, 'join.scenario');
      if (o.config !== undefined) m.config = parseConfig(o.config, 'join.config');
      if (o.name !== undefined) m.name = checkName(o.name, 'join.name');
      return m;
    }
    case 'input':
      fields(o, 'input', ['t', 'f', 'b', 'ack', 'c', 'at']);
      return { t, ...inputBody(o, 'input') };
    case 'ping':
      fields(o, 'ping', ['t', 'id']);
      return { t, id: int(o.id, 'ping.id', 0, Number.MAX_SAFE_INTEGER) };
    case 'keyframe':
      fields(o, 'keyframe', ['t', 'f', 'hash', 'data']);
      return { t, ...keyframe({ f: o.f, hash: o.hash, data: o.data }, 'keyframe') };
    case 'state':
      fields(o, 'state', ['t', 'f', 'hash', 'data']);
      return { t, ...keyframe({ f: o.f, hash: o.hash, data: o.data }, 'state') };
    case 'away':
      fields(o, 'away', ['t', 'hidden']);
      return { t, hidden: bool(o.hidden, 'away.hidden') };
    default:
      throw new ProtocolError(`message.t: unknown message type ${show(t)}`);
  }
}

/** Parses and validates a message the relay sent (what a client receives). Throws a ProtocolError naming the field. */
export function parseRelayMessage(text: string): RelayMessage {
  const { o, t } = parseEnvelope(text, { catchup: MAX_CATCHUP_LENGTH, state: MAX_KEYFRAME_LENGTH + 64 });
  switch (t) {
    case 'joined': {
      fields(o, 'joined', ['t', 'room', 'role', 'player', 'players', 'config']);
      const r = role(o.role, 'joined.role');
      const config = parseConfig(o.config, 'joined.config');
      const players = int(o.players, 'joined.players', 1, MAX_PLAYERS);
      if (players !== config.settings.players) fail('joined.players', `the config's ${config.settings.players} players`, players);
      const player = r === 'spectator' ? int(o.player, 'joined.player', -1, -1) : int(o.player, 'joined.player', 0, players - 1);
      return { t, room: room(o.room, 'joined.room'), role: r, player, players, config };
    }
    case 'start':
      fields(o, 'start', ['t']);
      return { t };
    case 'input':
      fields(o, 'input', ['t', 'p', 'f', 'b', 'ack', 'c', 'at']);
      return { t, p: int(o.p, 'input.p', 0, MAX_PLAYERS - 1), ...inputBody(o, 'input') };
    case 'catchup': {
      fields(o, 'catchup', ['t', 'keyframe', 'from', 'inputs']);
      const kf = o.keyframe === null ? null : keyframe(o.keyframe, 'catchup.keyframe');
      const from = frame(o.from, 'catchup.from', 1);
      if (kf ? from !== kf.f + 1 : from !== 1) fail('catchup.from', kf ? `the keyframe's frame + 1 (${kf.f + 1})` : '1 (no keyframe)', from);
      const inputs = array(o.inputs, 'catchup.inputs', 1, MAX_PLAYERS).map((b, j) => buttons(b, `catchup.inputs[${j}]`, 0, MAX_LOG_FRAMES));
      return { t, keyframe: kf, from, inputs };
    }
    case 'left': {
      fields(o, 'left', ['t', 'p', 'from', 'f0', 'b']);
      const from = frame(o.from, 'left.from', 1);
      const f0 = frame(o.f0, 'left.f0', 1);
      const b = buttons(o.b, 'left.b', 0, MAX_LEFT_INPUTS);
      if (f0 + b.length !== from) fail('left.f0', `from − ${b.length} inputs (${from - b.length})`, f0);
      return { t, p: int(o.p, 'left.p', 0, MAX_PLAYERS - 1), from, f0, b };
    }
    case 'changed':
      fields(o, 'changed', ['t', 'p', 'f']);
      return { t, p: int(o.p, 'changed.p', 0, MAX_PLAYERS - 1), f: frame(o.f, 'changed.f', 1) };
    case 'pong':
      fields(o, 'pong', ['t', 'id']);
      return { t, id: int(o.id, 'pong.id', 0, Number.MAX_SAFE_INTEGER) };
    case 'state':
      fields(o, 'state', ['t', 'p', 'f', 'hash', 'data']);
      return { t, p: int(o.p, 'state.p', 0, MAX_PLAYERS - 1), ...keyframe({ f: o.f, hash: o.hash, data: o.data }, 'state') };
    case 'error':
      fields(o, 'error', ['t', 'reason']);
      return { t, reason: str(o.reason, 'error.reason', MAX_REASON_LENGTH) };
    case 'seats':
      fields(o, 'seats', ['t', 'names']);
      return { t, names: array(o.names, 'seats.names', 1, MAX_PLAYERS).map((n, k) => (n === null ? null : checkName(n, `seats.names[${k}]`))) };
    case 'away':
      fields(o, 'away', ['t', 'p', 'hidden']);
      return { t, p: int(o.p, 'away.p', 0, MAX_PLAYERS - 1), hidden: bool(o.hidden, 'away.hidden') };
    default:
      throw new ProtocolError(`message.t: unknown message type ${show(t)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

/** The JSON text of a client message, `t` first (a long `keyframe` must start with it). No validation. */
export function encodeClientMessage(m: ClientMessage): string {
  const { t, ...rest } = m;
  return JSON.stringify({ t, ...rest });
}

/** The JSON text of a relay message, `t` first (a long `catchup` must start with it). No validation. */
export function encodeRelayMessage(m: RelayMessage): string {
  const { t, ...rest } = m;
  return JSON.stringify({ t, ...rest });
}
