/**
 * What the "Play together" panel says, in words: the room's status lines (players, ping, input delay,
 * rollbacks, frames ahead and waits, the confirmed frame), the desync banner's sentence, the desync report a
 * user downloads (JSON, with our snapshot at that frame as value-codec bytes in base64: the same encoding as a
 * replay's keyframes), and each seat's colour. No DOM here.
 */
import { bytesToBase64 } from '../../netplay/base64.js';
import type { DesyncReport, NetplayStats } from '../../netplay/session.js';
import { encodeValueBytes } from '../../ecs/value-codec.js';
import { SEAT_COLOURS } from '../scene/palette.js';
import type { RoomPhase } from './play-room.js';
import { seatsLine, seatWords } from '../../netplay/seat-words.js';

export { SEAT_COLOURS };

/** A seat's colour as CSS. */
export function seatCss(seat: number): string {
  return `#${(SEAT_COLOURS[seat % SEAT_COLOURS.length] ?? 0xffffff).toString(16).padStart(6, '0')}`;
}

/** The room's status as (label, value) rows. */
export function roomStatusRows(s: NetplayStats, phase: RoomPhase, present: number, lastFrame?: number): [string, string][] {
  const state =
    s.state === 'closed'
      ? `closed: ${s.closeReason ?? 'no reason given'}`
      : phase === 'opening'
        ? 'opening the room’s world'
        : s.state === 'joining'
          ? 'connecting to the relay'
          : s.state === 'waiting'
            ? `waiting until all ${s.players} seats are taken`
            : lastFrame !== undefined && s.confirmedFrame >= lastFrame
              ? `finished at frame ${lastFrame}`
              : 'playing';
  const rows: [string, string][] = [['room', state]];
  if (s.player >= 0) rows.push(['you', `${seatWords(s.player, s.names)} of ${s.players}`], ['players', `${present} present`]);
  if (s.player >= 0 && s.names.length) rows.push(['seats', seatsLine(s.names, s.player)]);
  if (s.hidden.some((k) => k !== s.player)) rows.push(['hidden', `${s.hidden.filter((k) => k !== s.player).map((k) => `${seatWords(k, s.names)}'s tab is hidden`).join('; ')}`]);
  if (s.player >= 0 && (s.state === 'running' || s.state === 'closed')) {
    rows.push(
      ['ping', s.pingMs > 0 ? `${Math.round(s.pingMs)} ms` : '…'],
      ['input delay', `${s.inputDelay} frames`],
      ['rollbacks', `${s.rollbacks} (longest ${s.maxRollback} frames)`],
      ['frames ahead', `${s.framesAhead} (waited ${s.waits} frames)`],
      ['frame', `${s.frame}, confirmed ${s.confirmedFrame}${lastFrame !== undefined ? ` of ${lastFrame}` : ''}`],
      ['desyncs', String(s.desyncs)],
    );
  }
  return rows;
}

/** The desync banner's sentence: the frame, the players that differ, what was found, and whether the session goes on. */
export function desyncText(r: DesyncReport, stats: NetplayStats): string {
  const who = r.players.length ? r.players.map((p) => `player ${p + 1}`).join(' and ') : 'a player';
  const what = r.cause === 'checksum' ? `${who}'s state differs from yours` : r.cause === 'changed' ? `${who} changed an input the relay had already passed on` : `${who} sent a different input for a frame already played`;
  const after = stats.state === 'closed' ? `The session stopped (${stats.closeReason ?? 'closed'}).` : 'The session goes on, but the states may no longer agree.';
  const where = r.sections.length > 0 && r.sections[0] !== 'unknown' ? ` It differs in ${r.sections.join(', ')}.` : '';
  return `Desync at frame ${r.frame}: ${what}.${where} ${after}`;
}

/**
 * The desync report as JSON text: ours and each peer's state that arrived (value-codec bytes, base64), with the
 * hash sections and values that differ.
 */
export function desyncReportJson(r: DesyncReport, room: string): string {
  const encoded = (s: unknown) => (s ? { encoding: 'value-codec+base64', data: bytesToBase64(encodeValueBytes(s)) } : null);
  const states: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(r.states)) states[k] = { ...c, snapshot: encoded(c.snapshot) };
  return JSON.stringify({ room, frame: r.frame, players: r.players, cause: r.cause, ours: r.ours, theirs: r.theirs, sections: r.sections, snapshot: encoded(r.snapshot), states }, null, 2) + '\n';
}

/** Players present: the seats taken, less those that left. */
export function playersPresent(s: NetplayStats, left: number): number {
  if (s.state === 'joining' || s.player < 0) return 0;
  return s.state === 'waiting' ? 1 : Math.max(1, s.players - left);
}
