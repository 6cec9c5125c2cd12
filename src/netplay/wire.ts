/**
 * STAND-IN for the relay part's `parseRelayMessage` (protocol.ts): the relay → client messages of wire
 * protocol 1 as the session reads them, checked for shape only. The lead swaps `parseIncoming` for the
 * protocol module's parser; the session does its own window checks on top either way.
 */

/** The game a room runs (the replay header's fields) and its netplay intervals. */
export interface NetplayConfig {
  /** The world, as a replay header names it. */
  world: import('../replay/format.js').WorldIdentity;
  /** The scenario, as a replay header names it. */
  scenario: import('../sim/scenario.js').ScenarioIdentity;
  /** The scenario's settings, with `players` (seats in the room, 1–4). */
  settings: import('../sim/scenario.js').ScenarioSettings & { players?: number };
  /** Frames between keyframes (of the session replay, and for spectators joining late). */
  keyframeInterval: number;
  /** Frames between exchanged checksums (every client of the room uses the room's). */
  checkInterval: number;
  /** The room's default input delay, frames. */
  inputDelay: number;
}

/** A checksum on the wire: [frame, "0x" + 16 hex digits]. */
export type WireChecksum = [number, string];

export type Incoming =
  | { t: 'joined'; room: string; role: 'player' | 'spectator'; player: number; players: number; config: NetplayConfig }
  | { t: 'start' }
  | { t: 'input'; p: number; f: number; b: number[]; ack: number[]; c: WireChecksum[]; at: number }
  | { t: 'catchup'; keyframe: { f: number; hash: string; data: string } | null; from: number; inputs: number[][] }
  | { t: 'left'; p: number; from: number; f0: number; b: number[] }
  | { t: 'changed'; p: number; f: number }
  | { t: 'pong'; id: number }
  | { t: 'error'; reason: string };

const HEX64 = /^0x[0-9a-f]{16}$/;

function fail(t: string, why: string): never {
  throw new RangeError(`relay message ${JSON.stringify(t)}: ${why}`);
}

function int(o: Record<string, unknown>, k: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(String(o.t), `${k} must be an integer in ${min}..${max}`);
  return v;
}

function ints(o: Record<string, unknown>, k: string, maxLen: number, min: number, max: number, minLen = 0): number[] {
  const v = o[k];
  if (!Array.isArray(v) || v.length < minLen || v.length > maxLen) fail(String(o.t), `${k} must be an array of ${minLen}..${maxLen} integers`);
  for (const x of v) if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) fail(String(o.t), `${k} holds ${JSON.stringify(x)}, not an integer in ${min}..${max}`);
  return v as number[];
}

function keys(o: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(String(o.t), `unknown field ${JSON.stringify(k)}`);
}

/** Parses and shape-checks one relay → client message; a RangeError names what is wrong. */
export function parseIncoming(text: string, buttonMask: number): Incoming {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    throw new RangeError('relay message is not JSON');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new RangeError('relay message is not a JSON object');
  const m = o as Record<string, unknown>;
  const t = m.t;
  switch (t) {
    case 'joined': {
      keys(m, ['t', 'room', 'role', 'player', 'players', 'config']);
      if (typeof m.room !== 'string' || (m.role !== 'player' && m.role !== 'spectator')) fail(t, 'room or role is wrong');
      int(m, 'player', -1, 3);
      int(m, 'players', 1, 4);
      const c = m.config as Record<string, unknown> | null;
      if (typeof c !== 'object' || c === null || typeof c.world !== 'object' || typeof c.scenario !== 'object' || typeof c.settings !== 'object' || c.world === null || c.scenario === null || c.settings === null) fail(t, 'config must hold world, scenario and settings');
      int(c, 'keyframeInterval', 1, 100000);
      int(c, 'checkInterval', 1, 600);
      if (c.inputDelay !== undefined) int(c, 'inputDelay', 0, 30);
      return m as Incoming;
    }
    case 'start':
      keys(m, ['t']);
      return m as Incoming;
    case 'input': {
      keys(m, ['t', 'p', 'f', 'b', 'ack', 'c', 'at']);
      int(m, 'p', 0, 3);
      int(m, 'f', 1);
      ints(m, 'b', 32, 0, buttonMask, 1);
      ints(m, 'ack', 4, 0, Number.MAX_SAFE_INTEGER, 1);
      int(m, 'at', 0);
      if (!Array.isArray(m.c) || m.c.length > 4) fail(t, 'c must be an array of at most 4 checksums');
      for (const x of m.c as unknown[]) {
        if (!Array.isArray(x) || x.length !== 2 || typeof x[0] !== 'number' || !Number.isInteger(x[0]) || x[0] < 1 || typeof x[1] !== 'string' || !HEX64.test(x[1])) fail(t, `checksum ${JSON.stringify(x)} is not [frame, "0x" + 16 hex digits]`);
      }
      return m as Incoming;
    }
    case 'catchup': {
      keys(m, ['t', 'keyframe', 'from', 'inputs']);
      int(m, 'from', 1);
      const k = m.keyframe as Record<string, unknown> | null;
      if (k !== null) {
        if (typeof k !== 'object' || typeof k.data !== 'string' || typeof k.hash !== 'string' || !HEX64.test(k.hash)) fail(t, 'keyframe must be null or {f, hash, data}');
        int(k, 'f', 0);
      }
      if (!Array.isArray(m.inputs) || m.inputs.length < 1 || m.inputs.length > 4) fail(t, 'inputs must hold one array per player');
      for (let i = 0; i < m.inputs.length; i++) ints({ t, [`inputs[${i}]`]: m.inputs[i] }, `inputs[${i}]`, 1 << 22, 0, buttonMask);
      return m as Incoming;
    }
    case 'left':
      keys(m, ['t', 'p', 'from', 'f0', 'b']);
      int(m, 'p', 0, 3);
      int(m, 'from', 1);
      int(m, 'f0', 1);
      ints(m, 'b', 64, 0, buttonMask);
      return m as Incoming;
    case 'changed':
      keys(m, ['t', 'p', 'f']);
      int(m, 'p', 0, 3);
      int(m, 'f', 1);
      return m as Incoming;
    case 'pong':
      keys(m, ['t', 'id']);
      int(m, 'id', 0);
      return m as Incoming;
    case 'error':
      keys(m, ['t', 'reason']);
      if (typeof m.reason !== 'string') fail(t, 'reason must be a string');
      return { t: 'error', reason: m.reason.slice(0, 200) };
    default:
      throw new RangeError(`relay message has unknown type ${JSON.stringify(typeof t === 'string' ? t.slice(0, 32) : t)}`);
  }
}
