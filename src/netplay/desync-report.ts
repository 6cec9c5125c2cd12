/**
 * A session's desync report: each desync counted once (a peer repeats its checksums and resends), the first
 * one reported with our state of that frame (from the confirmed states kept at check frames), our state sent
 * to the peers once so that each can name what differs, and the peers' states compared with ours as they
 * arrive (one that arrives before our own report of its frame waits for it).
 */
import type { Simulation, SimSnapshot } from '../sim/simulation.js';
import { encodeValueBytes } from '../ecs/value-codec.js';
import type { ChecksumMismatch } from './checksums.js';
import { compareStates, type DesyncStateComparison } from './desync-states.js';
import type { Emitter } from './emitter.js';
import { bytesToBase64 } from './base64.js';
import { MAX_STATES_PER_CLIENT, type StateForward } from './protocol.js';
import { loadState, saveState, type RollbackSlot } from './sim-calls.js';
import type { DesyncReport, NetplayEvents } from './session-types.js';

/** Confirmed states kept at check frames (reused buffers), for a desync report's snapshot. */
const CHECK_SLOTS = 8;
/** Distinct desyncs remembered, so that a repeated one is not counted again. */
const KEYS_KEPT = 64;

/** What the reporter needs from its session. */
export interface DesyncHost {
  /** The confirmed simulation (null before `joined`). */
  csim(): Simulation | null;
  players(): number;
  /** Our seat (−1 for a spectator). */
  me(): number;
  /** Whether we send our state of a desynced frame (players do; spectators send nothing). */
  sendsStates: boolean;
  send(text: string): void;
  emit: Emitter<NetplayEvents>;
}

export class DesyncReporter {
  private readonly checkSlots: RollbackSlot[] = new Array(CHECK_SLOTS).fill(undefined);
  private readonly checkFrames: number[] = new Array(CHECK_SLOTS).fill(-1);
  /** The first desync reported, filled in as peers' states arrive. */
  report: DesyncReport | null = null;
  /** Desyncs found (each cause, frame and players once). */
  count = 0;
  private statesSent = 0;
  /** Peers' states that arrived before our own report of their frame (a peer may find a desync first). */
  private earlyStates: StateForward[] = [];
  private stateKeep: RollbackSlot | null = null;
  private readonly keys = new Set<string>();

  constructor(private readonly host: DesyncHost) {}

  /** Keeps the confirmed state of check frame `f` (a ring of CHECK_SLOTS reused buffers). */
  keepCheckState(csim: Simulation, f: number, checkInterval: number): void {
    const k = (f / checkInterval) % CHECK_SLOTS;
    this.checkSlots[k] = saveState(csim, this.checkSlots[k]);
    this.checkFrames[k] = f;
  }

  desync(cause: DesyncReport['cause'], frame: number, mismatches: ChecksumMismatch[], ours: string | null, players: number[]): void {
    // a peer repeats its checksums and resends: count each (cause, frame, players) once
    const key = `${cause} ${frame} ${players.join(',')}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    if (this.keys.size > KEYS_KEPT) this.keys.delete(this.keys.values().next().value as string);
    this.count++;
    if (this.report) return;
    const theirs: Record<number, string> = {};
    for (const m of mismatches) theirs[m.player] = m.theirs;
    const snapshot = this.snapshotAt(frame);
    this.report = { frame, players: [...new Set(players)], cause, ours, theirs, sections: ['unknown'], snapshot, states: {} };
    this.host.emit.emit('desync', this.report);
    const early = this.earlyStates;
    this.earlyStates = [];
    for (const m of early) this.onState(m);
    // Our state of that frame goes to the peers once, so each can name what differs.
    if (this.host.sendsStates && cause === 'checksum' && ours !== null && snapshot?.frame === frame && this.statesSent < MAX_STATES_PER_CLIENT) {
      this.statesSent++;
      this.host.send(JSON.stringify({ t: 'state', f: frame, hash: ours, data: bytesToBase64(encodeValueBytes(snapshot)) }));
    }
  }

  /** A peer's state of a desynced frame, forwarded by the relay. */
  onState(m: StateForward): void {
    const P = this.host.players();
    if (m.p >= P || m.p === this.host.me()) throw new Error(`relay forwarded a state of seat ${m.p} (players ${P}, ours ${this.host.me()})`);
    const r = this.report;
    if (!r) {
      // kept until we report that frame ourselves (the relay lets each peer send a few)
      this.earlyStates.push(m);
      if (this.earlyStates.length > MAX_STATES_PER_CLIENT * P) this.earlyStates.shift();
      return;
    }
    // Only the reported frame's states are compared, once per peer.
    if (r.frame !== m.f || r.snapshot?.frame !== m.f || Object.hasOwn(r.states, m.p)) return;
    // Compared on the confirmed simulation, whose state is put back after: a session builds no third simulation
    // (each has a world of its own, which a client opens ahead).
    const csim = this.host.csim()!;
    const keep = saveState(csim, this.stateKeep ?? undefined);
    this.stateKeep = keep;
    let comparison: DesyncStateComparison;
    try {
      comparison = compareStates(csim, r.snapshot, m);
    } finally {
      loadState(csim, keep);
    }
    r.states[m.p] = comparison;
    const names = new Set<string>();
    for (const c of Object.values(r.states)) for (const n of c.sections) names.add(n);
    r.sections = names.size > 0 || !comparison.error ? [...names] : ['unknown'];
    this.host.emit.emit('desyncStates', { report: r, player: m.p, comparison });
  }

  /** Our confirmed state at `frame` as a SimSnapshot: from the check-frame states kept, else the current one. */
  private snapshotAt(frame: number): SimSnapshot | null {
    const csim = this.host.csim();
    if (!csim) return null;
    const k = this.checkFrames.indexOf(frame);
    if (k < 0 || frame === csim.frame) return csim.save();
    const now = saveState(csim);
    loadState(csim, this.checkSlots[k]);
    const snap = csim.save();
    loadState(csim, now);
    return snap;
  }
}
