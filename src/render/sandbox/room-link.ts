/**
 * The "Play together" link: `relay=` (the relay's ws:// or wss:// address) and `room=` (the room's name) join
 * that room directly; `players=` (2–4, for creating) and `frames=` (every player stops at that frame) are
 * optional. These parameters are taken out of the address before the view link reads the rest. Also the
 * fresh room names a new room gets. No DOM here: Node tests run it.
 */
import { MAX_PLAYERS, ROOM_PATTERN } from '../../netplay/protocol.js';

/** The link's names for the room's parameters. */
export const ROOM_PARAMS = ['relay', 'room', 'players', 'frames'] as const;

/** Seats a room created in the page offers (the default first). */
export const ROOM_PLAYER_CHOICES = [2, 3, 4] as const;

/** Most frames a link may ask a session to stop at (a day at 60 Hz). */
export const MAX_LINK_FRAMES = 60 * 60 * 60 * 24;

/** What a link says about a room. */
export interface RoomLink {
  /** The relay's address (ws:// or wss://), if given. */
  relay?: string;
  room?: string;
  /** Seats, for a room created from this page (2–4). */
  players?: number;
  /** The frame every player stops at. */
  frames?: number;
}

/** The relay address checked: a ws:// or wss:// URL with a host (the one-line reason otherwise). */
export function checkRelayUrl(text: string): string {
  const t = text.trim();
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw new Error(`relay address ${JSON.stringify(t)} is not a URL: give one like ws://127.0.0.1:PORT`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new Error(`relay address ${JSON.stringify(t)} must start with ws:// or wss://`);
  if (!u.host) throw new Error(`relay address ${JSON.stringify(t)} names no host`);
  return t;
}

/** The room name checked against the protocol's pattern. */
export function checkRoomName(text: string): string {
  const t = text.trim();
  if (!ROOM_PATTERN.test(t)) throw new Error(`room name ${JSON.stringify(t)}: 1–64 letters, digits, "_", "." or "-"`);
  return t;
}

/** Splits a query into the room's parameters (checked; each bad one a line in `errors`) and the rest (for the view link). */
export function parseRoomLink(search: string): { room: RoomLink; rest: string; errors: string[] } {
  const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const room: RoomLink = {};
  const errors: string[] = [];
  const take = (name: string, read: (v: string) => void) => {
    const v = q.get(name);
    q.delete(name);
    if (v === null) return;
    try {
      read(v);
    } catch (e) {
      errors.push(`link parameter ${name}: ${(e as Error).message}: ignored`);
    }
  };
  take('relay', (v) => (room.relay = checkRelayUrl(v)));
  take('room', (v) => (room.room = checkRoomName(v)));
  take('players', (v) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 2 || n > MAX_PLAYERS) throw new Error(`expected 2..${MAX_PLAYERS}, got ${JSON.stringify(v)}`);
    room.players = n;
  });
  take('frames', (v) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > MAX_LINK_FRAMES) throw new Error(`expected a frame in 1..${MAX_LINK_FRAMES}, got ${JSON.stringify(v)}`);
    room.frames = n;
  });
  const rest = q.toString();
  return { room, rest: rest ? `?${rest}` : '', errors };
}

/** The link that joins `room` on `relay` from the page at `page` (its address without a query), with the stop frame if any. */
export function formatRoomLink(page: string, relay: string, room: string, frames?: number): string {
  const q = new URLSearchParams({ relay, room });
  if (frames !== undefined) q.set('frames', String(frames));
  return `${page}?${q.toString()}`;
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A fresh room name, "room-" and 10 characters from `random` (crypto.getRandomValues in the page). */
export function freshRoomName(random: (bytes: Uint8Array) => Uint8Array): string {
  const b = random(new Uint8Array(10));
  let s = 'room-';
  for (const x of b) s += ALPHABET[x % ALPHABET.length];
  return s;
}
