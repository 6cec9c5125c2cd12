/**
 * The rollback netplay session (GGPO/GGRS style), transport-agnostic and browser-safe.
 *
 * A player simulates ahead of the confirmed frame (the newest frame every player's input is known for) by
 * predicting a missing input as that player's last known one, up to `maxPrediction` frames; when an input
 * arrives that differs from what was predicted, it restores the saved state before that frame and
 * re-simulates with the corrected inputs. A second, confirmed simulation advances only on confirmed frames:
 * it records the session replay (identical bytes for every player), gives the checksums exchanged every
 * `checkInterval` frames and the keyframes spectators start from. A spectator runs only that one and checks
 * every checksum it receives (a referee).
 */
import type { Simulation, SimSnapshot } from '../sim/simulation.js';
import { ReplayRecorder } from '../replay/recorder.js';
import { encodeValueBytes, decodeValueBytes } from '../ecs/value-codec.js';
import { BUTTON_MASK } from '../systems/input.js';
import { hashHex } from '../ecs/state-hash.js';
import { ChecksumLedger, type ChecksumMismatch } from './checksums.js';
import { Emitter } from './emitter.js';
import { InputQueue } from './input-queue.js';
import { base64ToBytes, bytesToBase64 } from './base64.js';
import { loadState, recordPlayers, saveState, stepPlayers, type RollbackSlot } from './sim-calls.js';
import { checkName, MAX_INPUTS_PER_MESSAGE, parseRelayMessage, PROTOCOL_VERSION, type NetplayConfig, type RelayMessage as Incoming } from './protocol.js';
import { DesyncReporter } from './desync-report.js';
import { DEFAULT_SILENCE_TIMEOUT_MS, Heartbeat, PING_EVERY, SILENCE_TIMEOUT_RANGE } from './heartbeat.js';
import { printable } from './printable.js';
import { RUNTIME_VERSION } from '../replay/format.js';
import type { DesyncReport, NetplayEvents, NetplaySessionOptions, NetplayStats } from './session-types.js';

export type { NetplayConfig } from './protocol.js';
export type { DesyncReport, NetplayEvents, NetplaySessionOptions, NetplayStats } from './session-types.js';

const WINDOW = 256;
const SPECTATOR_WINDOW = 1 << 16;
const INBOX_MAX = 4096;
const FRAME_MS = 1000 / 60;
const REDUNDANCY = 8;
/** Most inputs in one `input` message (the protocol's MAX_INPUTS_PER_MESSAGE). */
const MAX_INPUTS = MAX_INPUTS_PER_MESSAGE;
const EARLY_MAX = 512;

/**
 * A rollback netplay session. Call `setLocalInput` then `tick()` once per display frame.
 *
 * @example
 * const s = new NetplaySession({ transport, build, role: 'player', room: 'demo', config });
 * s.on('desync', (r) => console.log('desync at', r.frame, r.players));
 * // each display frame:
 * s.setLocalInput(buttons); s.tick();
 */
export class NetplaySession {
  private readonly o: NetplaySessionOptions;
  private readonly events = new Emitter<NetplayEvents>();
  private readonly inbox: string[] = [];
  private readonly now: () => number;
  private readonly maxPrediction: number;
  private state: NetplayStats['state'] = 'joining';
  private closeReason: string | undefined;

  private config: NetplayConfig | null = null;
  private me = -1;
  private P = 0;
  private inputDelay: number;
  private checkInterval = 10;
  private keyframeInterval = 600;
  private lastFrame: number;

  private sim: Simulation | null = null;
  private csim: Simulation | null = null;
  private rec: ReplayRecorder | null = null;
  private replayBytes: Uint8Array | null = null;
  private queues: InputQueue[] = [];
  private used = new Uint32Array(0);
  private slots: RollbackSlot[] = [];
  private slotFrame: number[] = [];
  private verifiedUpTo = 0;
  private scratch = new Uint32Array(0);
  private ledger: ChecksumLedger | null = null;
  private confirmedHashes = new Map<number, string>();
  private localButtons = 0;
  private ackOfMe: number[] = [];
  private remoteAt: number[] = [];
  private sentHi = 0;
  private pendingKeyframe: { f: number; hash: string; data: string } | null = null;
  private caughtUp = false;
  /** The frame a spectator's catch-up started after (its keyframe's), 0 when it simulated from frame 1. */
  private caughtUpFrom = 0;
  /** Why the connection ended, while the messages that came before the end wait for the next tick. */
  private closing: string | null = null;
  private early: Incoming[] = [];
  private readonly reporter: DesyncReporter;

  private readonly heartbeat: Heartbeat;
  private ticks = 0;
  private lastSyncWait = -1000;

  private st = { rollbacks: 0, maxRollback: 0, framesAhead: 0, pingMs: 0, waits: 0, desyncs: 0 };
  private names: (string | null)[] = [];
  private hidden = new Set<number>();
  private waitingFor: number[] = [];

  constructor(options: NetplaySessionOptions) {
    this.o = options;
    this.now = options.now ?? (() => globalThis.performance.now());
    this.maxPrediction = checkInt(options.maxPrediction ?? 8, 'maxPrediction', 1, 64);
    this.inputDelay = checkInt(options.inputDelay ?? options.config?.inputDelay ?? 2, 'inputDelay', 0, 30);
    if (options.checkInterval !== undefined) checkInt(options.checkInterval, 'checkInterval', 1, 600);
    this.lastFrame = options.lastFrame === undefined ? Number.POSITIVE_INFINITY : checkInt(options.lastFrame, 'lastFrame', 1, 1 << 30);
    if (options.role !== 'player' && options.role !== 'spectator') throw new RangeError(`role must be "player" or "spectator", not ${JSON.stringify(options.role)}`);
    if (options.name !== undefined) {
      try {
        checkName(options.name);
      } catch (e) {
        throw new RangeError((e as Error).message);
      }
    }
    this.heartbeat = new Heartbeat(this.now, checkInt(options.silenceTimeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS, 'silenceTimeoutMs', SILENCE_TIMEOUT_RANGE.min, SILENCE_TIMEOUT_RANGE.max));
    const runtime = options.runtime ?? { version: RUNTIME_VERSION, kind: 'version' };
    this.reporter = new DesyncReporter({
      csim: () => this.csim,
      players: () => this.P,
      me: () => this.me,
      sendsStates: options.role === 'player',
      send: (text: string) => this.o.transport.send(text),
      emit: this.events,
    });

    options.transport.onMessage((text) => {
      if (this.state === 'closed') return;
      this.heartbeat.heard();
      if (this.inbox.length >= INBOX_MAX) return this.close(`more than ${INBOX_MAX} relay messages waiting for a tick`);
      this.inbox.push(text);
    });
    // The relay refuses by an error message and then closes; the close can arrive before the tick that reads
    // the inbox, and the refusal is the reason worth reporting. A running session's inbox may hold the last
    // inputs of the session when the connection ends (a relay or a program closing it right after): the next
    // tick handles them and runs every frame they confirm before it closes, so that every client ends on the
    // same confirmed frame.
    options.transport.onClose((reason) => {
      const why = this.refusalWaiting() ?? `connection closed: ${reason}`;
      if (this.state === 'running' && this.inbox.length > 0 && this.closing === null) this.closing = why;
      else this.shut(why);
    });
    const join: Record<string, unknown> = { t: 'join', v: PROTOCOL_VERSION, room: options.room, role: options.role, runtime };
    if (options.scenarioGraph !== undefined) join.scenario = options.scenarioGraph;
    if (options.config && options.role === 'player') join.config = { ...options.config, checkInterval: options.config.checkInterval ?? options.checkInterval ?? 10, inputDelay: options.config.inputDelay ?? this.inputDelay };
    if (options.name !== undefined) join.name = options.name;
    options.transport.send(JSON.stringify(join));
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof NetplayEvents>(event: K, cb: (value: NetplayEvents[K]) => void): () => void {
    return this.events.on(event, cb);
  }

  /** The local player's buttons (Buttons bits) from now on; applies `inputDelay` frames later. */
  setLocalInput(buttons: number): void {
    this.localButtons = (buttons >>> 0) & BUTTON_MASK;
  }

  /**
   * Tells the room this player's page is hidden (true) or shown again (false): its peers see why its inputs
   * may come late. Sent only when it changes, and only once seated.
   */
  setHidden(hidden: boolean): void {
    if (this.o.role !== 'player' || this.state === 'closed' || this.state === 'joining' || this.hidden.has(this.me) === hidden) return;
    if (hidden) this.hidden.add(this.me);
    else this.hidden.delete(this.me);
    this.o.transport.send(JSON.stringify({ t: 'away', hidden }));
  }

  /** Where the session is (a fresh object each call). */
  get stats(): NetplayStats {
    const s: NetplayStats = {
      frame: this.o.role === 'spectator' ? (this.csim?.frame ?? 0) : (this.sim?.frame ?? 0),
      confirmedFrame: this.csim?.frame ?? 0,
      ...this.st,
      inputDelay: this.inputDelay,
      player: this.me,
      players: this.P,
      state: this.state,
      names: [...this.names],
      hidden: [...this.hidden].sort((a, b) => a - b),
      waitingFor: [...this.waitingFor],
    };
    if (this.closeReason !== undefined) s.closeReason = this.closeReason;
    return s;
  }

  /** The state hash of the confirmed simulation ("0x" + 16 hex digits), or null before it exists. */
  confirmedHash(): string | null {
    return this.csim ? this.csim.hashHex() : null;
  }

  /** The simulation the player sees (predicted); for a spectator, the confirmed one. */
  get simulation(): Simulation | null {
    return this.o.role === 'spectator' ? this.csim : this.sim;
  }

  /**
   * The session replay: every confirmed frame with every player's input, the same bytes for every client that
   * saw frames 0..N. Ends the recording: later calls return the same bytes.
   */
  replay(): Uint8Array {
    if (this.replayBytes) return this.replayBytes;
    if (!this.rec) throw new Error(this.replayBytes === null && this.csim && this.csim.frame > 0 && this.o.role === 'spectator' ? 'no session replay: a replay starts at frame 0 and this spectator joined later' : 'no session replay: the session has not started');
    this.replayBytes = this.rec.finish();
    this.rec = null;
    return this.replayBytes;
  }

  /** Leaves the session and closes the transport. */
  close(reason = 'closed by the application'): void {
    if (this.state === 'closed') return;
    this.shut(reason);
    this.o.transport.close();
  }

  /** Advances by one display frame: handles what arrived, rolls back if needed, simulates 0, 1 or (catching up) several frames. */
  tick(): void {
    if (this.state === 'closed') return;
    this.ticks++;
    try {
      while (this.inbox.length > 0 && !this.isClosed()) this.handle(this.inbox.shift()!);
      if (this.closing !== null) {
        // The connection ended with messages still waiting: they are handled; run what they confirm, then close.
        if (this.state === 'running' && this.csim && (this.o.role === 'player' || this.caughtUp)) this.advanceConfirmed(Number.POSITIVE_INFINITY);
        return this.shut(this.closing);
      }
      if (this.state === 'joining') return;
      if (this.beat()) return;
      if (this.state !== 'running') return;
      if (this.o.role === 'spectator') {
        if (this.caughtUp) this.advanceConfirmed(this.o.catchupPerTick ?? 64);
        return;
      }
      this.tickPlayer();
    } catch (e) {
      this.close(e instanceof Error ? e.message : String(e));
    }
  }

  /** Sizes of what the session keeps (they must not grow with the frames played). @internal */
  retained(): Record<string, number> {
    return {
      inbox: this.inbox.length,
      inputs: this.queues.reduce((n, q) => n + q.capacity, 0),
      slots: this.slots.length,
      early: this.early.length,
      checksums: this.ledger?.size ?? 0,
      confirmedHashes: this.confirmedHashes.size,
      pings: this.heartbeat.pending,
    };
  }

  // ---- players ----

  private tickPlayer(): void {
    const sim = this.sim!;
    this.rollbackIfNeeded();
    this.advanceConfirmed(Number.POSITIVE_INFINITY);
    if (this.isClosed()) return;
    const confirmed = this.confirmed();
    const next = sim.frame + 1;
    this.st.framesAhead = this.framesAhead();
    if (next > this.lastFrame) return this.sendInputs();
    if (next > confirmed + this.maxPrediction) {
      this.st.waits++;
      this.waitingFor = this.seatsWhere((p) => this.queues[p]!.knownUpTo <= confirmed);
      return this.sendInputs();
    }
    if (this.st.framesAhead >= 2 && this.ticks - this.lastSyncWait >= 3) {
      this.lastSyncWait = this.ticks;
      this.st.waits++;
      const half = this.st.pingMs / 2 / FRAME_MS;
      this.waitingFor = this.seatsWhere((p) => this.queues[p]!.leftFrom === Number.POSITIVE_INFINITY && this.remoteAt[p]! >= 0 && Math.round(sim.frame - this.remoteAt[p]! - half) >= 2);
      return this.sendInputs();
    }
    this.waitingFor = [];
    const mine = this.queues[this.me]!;
    const lf = next + this.inputDelay;
    if (lf === mine.known + 1) mine.put(lf, this.localButtons);
    this.simulate(next);
    this.advanceConfirmed(Number.POSITIVE_INFINITY);
    this.sendInputs();
  }

  /** The other seats for which `test` holds. */
  private seatsWhere(test: (p: number) => boolean): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.P; p++) if (p !== this.me && test(p)) out.push(p);
    return out;
  }

  private inputsAt(f: number): Uint32Array {
    for (let p = 0; p < this.P; p++) this.scratch[p] = this.queues[p]!.get(f);
    return this.scratch;
  }

  private simulate(f: number): void {
    const sim = this.sim!;
    const inputs = this.inputsAt(f);
    this.used.set(inputs, (f & (WINDOW - 1)) * this.P);
    stepPlayers(sim, inputs);
    const i = f % this.slots.length;
    this.slots[i] = saveState(sim, this.slots[i]);
    this.slotFrame[i] = f;
  }

  private confirmed(): number {
    let c = Number.POSITIVE_INFINITY;
    for (const q of this.queues) c = Math.min(c, q.knownUpTo);
    return Math.min(c, this.lastFrame);
  }

  private rollbackIfNeeded(): void {
    const sim = this.sim!;
    const to = sim.frame;
    let first = -1;
    for (let g = this.verifiedUpTo + 1; g <= to && first < 0; g++) {
      const base = (g & (WINDOW - 1)) * this.P;
      for (let p = 0; p < this.P; p++) if (this.used[base + p] !== this.queues[p]!.get(g)) first = g;
    }
    if (first > 0) {
      const i = (first - 1) % this.slots.length;
      if (this.slotFrame[i] !== first - 1) throw new Error(`rollback to frame ${first - 1} is past the kept states (a peer's input changed inside the confirmed frames)`);
      loadState(sim, this.slots[i]);
      for (let g = first; g <= to; g++) this.simulate(g);
      this.st.rollbacks++;
      this.st.maxRollback = Math.max(this.st.maxRollback, to - first + 1);
    }
    this.verifiedUpTo = Math.max(this.verifiedUpTo, Math.min(this.confirmed(), to));
  }

  private framesAhead(): number {
    const half = this.st.pingMs / 2 / FRAME_MS;
    let slowest = Number.POSITIVE_INFINITY;
    for (let p = 0; p < this.P; p++) if (p !== this.me && this.queues[p]!.leftFrom === Number.POSITIVE_INFINITY && this.remoteAt[p]! >= 0) slowest = Math.min(slowest, this.remoteAt[p]! + half);
    return slowest === Number.POSITIVE_INFINITY ? 0 : Math.max(0, Math.round(this.sim!.frame - slowest));
  }

  private sendInputs(): void {
    const mine = this.queues[this.me]!;
    let oldestAck = mine.known;
    for (let p = 0; p < this.P; p++) if (p !== this.me && mine.leftFrom === Number.POSITIVE_INFINITY && this.queues[p]!.leftFrom === Number.POSITIVE_INFINITY) oldestAck = Math.min(oldestAck, this.ackOfMe[p]!);
    if (mine.known < 1) return;
    // resend at least the last REDUNDANCY frames even when acked: spectators never ack, so this is what
    // lets them survive a lost message
    const F0 = Math.max(Math.min(oldestAck + 1, mine.known - REDUNDANCY + 1), mine.known - WINDOW + 1, 1);
    // Frames never sent go first: a peer that withholds its acks must not hold back what everyone else
    // needs (the relay, the other players, the spectators). Unacked older frames fill the rest of the message.
    const unsent = this.sentHi + 1;
    const last = unsent <= mine.known ? Math.min(mine.known, unsent + MAX_INPUTS - 1) : mine.known;
    const F = Math.max(Math.min(F0, unsent), last - MAX_INPUTS + 1);
    const b: number[] = [];
    for (let f = F; f <= last; f++) b.push(mine.get(f));
    this.sentHi = Math.max(this.sentHi, last);
    const ack = this.queues.map((q) => q.known);
    const c = this.ledger!.recent(4, this.sentHi);
    this.o.transport.send(JSON.stringify({ t: 'input', f: F, b, ack, c, at: this.sim!.frame }));
    if (this.pendingKeyframe && this.pendingKeyframe.f <= this.sentHi) {
      this.o.transport.send(JSON.stringify({ t: 'keyframe', ...this.pendingKeyframe }));
      this.pendingKeyframe = null;
    }
  }

  /** Pings the relay now and then; closes the session when the relay has been silent too long (true then). */
  private beat(): boolean {
    const quiet = this.heartbeat.silent();
    if (quiet !== null) {
      this.close(`the relay has been silent for ${Math.round(quiet / 1000)} s (no message and no answer to pings; the silence timeout is ${this.heartbeat.silenceMs / 1000} s)`);
      return true;
    }
    if (this.ticks % PING_EVERY === 1) this.o.transport.send(JSON.stringify({ t: 'ping', id: this.heartbeat.ping() }));
    return false;
  }

  // ---- the confirmed simulation ----

  private advanceConfirmed(budget: number): void {
    const csim = this.csim!;
    const upTo = this.confirmed();
    let n = 0;
    while (csim.frame < upTo && n < budget && !this.isClosed()) {
      const f = csim.frame + 1;
      const inputs = this.inputsAt(f);
      if (this.rec) recordPlayers(this.rec, inputs);
      else stepPlayers(csim, inputs);
      n++;
      const hash = this.rec ? hashHex(this.rec.lastHash.hi, this.rec.lastHash.lo) : csim.hashHex();
      this.confirmedHashes.set(f, hash);
      while (this.confirmedHashes.size > WINDOW) this.confirmedHashes.delete(this.confirmedHashes.keys().next().value as number);
      for (const q of this.queues) q.floor = Math.max(q.floor, Math.min(f + 1, (this.sim?.frame ?? f) - this.maxPrediction - 1));
      this.events.emit('confirmed', { frame: f, hash });
      if (f % this.checkInterval === 0) {
        this.reporter.keepCheckState(csim, f, this.checkInterval);
        for (const m of this.ledger!.addOurs(f, hash)) this.desync('checksum', m.frame, [m], hash);
      }
      if (this.o.role === 'player' && f % this.keyframeInterval === 0 && this.isKeyframeSender()) {
        this.pendingKeyframe = { f, hash, data: bytesToBase64(encodeValueBytes(csim.save())) };
      }
    }
  }

  private isKeyframeSender(): boolean {
    for (let p = 0; p < this.P; p++) if (this.queues[p]!.leftFrom === Number.POSITIVE_INFINITY) return p === this.me;
    return false;
  }

  private desync(cause: DesyncReport['cause'], frame: number, mismatches: ChecksumMismatch[], ours: string | null, players = mismatches.map((m) => m.player)): void {
    this.reporter.desync(cause, frame, mismatches, ours, players);
    this.st.desyncs = this.reporter.count;
  }

  /** The first desync this session reported (filled in as peers' states arrive), or null. */
  get desyncReport(): DesyncReport | null {
    return this.reporter.report;
  }

  // ---- messages ----

  /** `relay refused: …` for a relay error message still waiting in the inbox, else null. */
  private refusalWaiting(): string | null {
    for (const text of this.inbox) {
      try {
        const m = parseRelayMessage(text);
        if (m.t === 'error') return `relay refused: ${m.reason}`;
      } catch {
        // a malformed message is reported when a tick reads it; here only a refusal matters
      }
    }
    return null;
  }

  private handle(text: string): void {
    const m = parseRelayMessage(text);
    switch (m.t) {
      case 'error':
        return this.close(`relay refused: ${m.reason}`);
      case 'joined':
        return this.onJoined(m);
      case 'start':
        if (this.state === 'joining') throw new Error('relay sent start before joined');
        if (this.state === 'waiting') this.setState('running');
        return;
      case 'pong':
        this.heartbeat.pong(m.id);
        this.st.pingMs = this.heartbeat.rttMs;
        return;
      default:
        if (this.state === 'joining') throw new Error(`relay sent ${m.t} before joined`);
        return this.onGame(m);
    }
  }

  private onJoined(m: Extract<Incoming, { t: 'joined' }>): void {
    if (this.state !== 'joining') throw new Error('relay sent joined twice');
    if (m.role !== this.o.role) throw new Error(`relay joined us as ${m.role}, not ${this.o.role}`);
    if (this.o.role === 'player' ? m.player < 0 || m.player >= m.players : m.player !== -1) throw new Error(`relay gave seat ${m.player} of ${m.players}`);
    this.config = m.config;
    this.me = m.player;
    this.P = m.players;
    this.checkInterval = m.config.checkInterval;
    this.keyframeInterval = m.config.keyframeInterval;
    if (this.o.inputDelay === undefined && m.config.inputDelay !== undefined) this.inputDelay = m.config.inputDelay;
    const spectator = this.o.role === 'spectator';
    this.csim = this.o.build(m.config);
    if (!spectator) {
      this.sim = this.o.build(m.config);
      this.rec = this.recorder(this.csim);
      this.slots = new Array(this.maxPrediction + 2).fill(undefined);
      this.slotFrame = new Array(this.maxPrediction + 2).fill(-1);
      this.slots[0] = saveState(this.sim);
      this.slotFrame[0] = 0;
    }
    this.queues = Array.from({ length: this.P }, () => (spectator ? new InputQueue(WINDOW, SPECTATOR_WINDOW) : new InputQueue(WINDOW)));
    this.used = new Uint32Array(WINDOW * this.P);
    this.scratch = new Uint32Array(this.P);
    this.ackOfMe = new Array(this.P).fill(0);
    this.remoteAt = new Array(this.P).fill(-1);
    this.ledger = new ChecksumLedger(this.P);
    if (!spectator) for (let f = 1; f <= this.inputDelay; f++) this.queues[this.me]!.put(f, 0);
    this.setState('waiting');
  }

  private recorder(sim: Simulation): ReplayRecorder {
    return new ReplayRecorder(sim, this.config!.world, { keyframeInterval: this.keyframeInterval, scenario: this.config!.scenario });
  }

  private onGame(m: Exclude<Incoming, { t: 'joined' | 'start' | 'pong' | 'error' }>): void {
    switch (m.t) {
      case 'input': {
        if (this.o.role === 'spectator' && !this.caughtUp) {
          // live inputs may overtake the catch-up: keep them (bounded) until it is in
          if (this.early.length >= EARLY_MAX) throw new Error(`more than ${EARLY_MAX} inputs arrived before the catch-up`);
          this.early.push(m);
          return;
        }
        if (m.p >= this.P || m.p === this.me) throw new Error(`relay forwarded an input of seat ${m.p} (players ${this.P}, ours ${this.me})`);
        if (m.ack.length !== this.P) throw new Error(`input ack has ${m.ack.length} entries for ${this.P} players`);
        const q = this.queues[m.p]!;
        const window = this.o.role === 'spectator' ? SPECTATOR_WINDOW : WINDOW;
        if (m.f > this.confirmedBase() + window) throw new Error(`input of player ${m.p} for frame ${m.f} is beyond the window (confirmed ${this.confirmedBase()})`);
        for (let i = 0; i < m.b.length; i++) {
          const r = q.put(m.f + i, m.b[i]!);
          if (r === 'differs') this.desync('input', m.f + i, [], this.confirmedHashes.get(m.f + i) ?? null, [m.p]);
          if (r === 'beyond' && this.o.role === 'spectator') throw new Error('spectator fell too far behind the players');
        }
        if (this.me >= 0) this.ackOfMe[m.p] = Math.max(this.ackOfMe[m.p]!, m.ack[this.me]!);
        this.remoteAt[m.p] = Math.max(this.remoteAt[m.p]!, m.at);
        for (const [f, h] of m.c) {
          if (f % this.checkInterval !== 0) throw new Error(`checksum of player ${m.p} for frame ${f}, not a multiple of ${this.checkInterval}`);
          const mm = this.ledger!.addTheirs(m.p, f, h, this.csim!.frame);
          if (mm) this.desync('checksum', f, [mm], mm.ours);
        }
        return;
      }
      case 'left': {
        if (m.p >= this.P || m.p === this.me) throw new Error(`relay says seat ${m.p} left (players ${this.P}, ours ${this.me})`);
        const q = this.queues[m.p]!;
        for (let i = 0; i < m.b.length; i++) q.put(m.f0 + i, m.b[i]!);
        // frames up to a catch-up's keyframe were never simulated here: a player may have left before it
        if (m.from <= this.csim!.frame && m.from > this.caughtUpFrom) throw new Error(`relay says player ${m.p} left from frame ${m.from}, inside the confirmed frames (${this.csim!.frame})`);
        if (q.known < m.from - 1) throw new Error(`relay says player ${m.p} left from frame ${m.from} but its inputs from frame ${q.known + 1} never arrived`);
        q.leftFrom = m.from;
        this.events.emit('left', { player: m.p, from: m.from });
        return;
      }
      case 'changed':
        if (m.p >= this.P) throw new Error(`relay says seat ${m.p} changed an input (players ${this.P})`);
        this.desync('changed', m.f, [], this.confirmedHashes.get(m.f) ?? null, [m.p]);
        return;
      case 'catchup':
        return this.onCatchup(m);
      case 'state':
        return this.reporter.onState(m);
      case 'seats':
        if (m.names.length !== this.P) throw new Error(`relay named ${m.names.length} seats, not ${this.P}`);
        this.names = m.names;
        this.events.emit('seats', { names: [...m.names] });
        return;
      case 'away':
        if (m.p >= this.P || m.p === this.me) throw new Error(`relay says seat ${m.p}'s page is hidden (players ${this.P}, ours ${this.me})`);
        if (m.hidden) this.hidden.add(m.p);
        else this.hidden.delete(m.p);
        this.events.emit('away', { player: m.p, hidden: m.hidden });
        return;
    }
  }

  private confirmedBase(): number {
    return this.csim?.frame ?? 0;
  }

  private onCatchup(m: Extract<Incoming, { t: 'catchup' }>): void {
    if (this.o.role !== 'spectator' || this.caughtUp) throw new Error('relay sent catchup to a player or twice');
    if (m.inputs.length !== this.P) throw new Error(`catchup has inputs of ${m.inputs.length} players, not ${this.P}`);
    const csim = this.csim!;
    if (m.keyframe) {
      if (m.from !== m.keyframe.f + 1) throw new Error(`catchup inputs start at ${m.from}, not right after keyframe ${m.keyframe.f}`);
      const bytes = base64ToBytes(m.keyframe.data, 'catchup keyframe');
      csim.restore(decodeValueBytes(bytes, 'keyframe') as unknown as SimSnapshot);
      if (csim.frame !== m.keyframe.f) throw new Error(`catchup keyframe holds frame ${csim.frame}, not ${m.keyframe.f}`);
      if (csim.hashHex() !== m.keyframe.hash) throw new Error(`catchup keyframe of frame ${m.keyframe.f} hashes ${csim.hashHex()}, not ${m.keyframe.hash}`);
    } else if (m.from !== 1) throw new Error(`catchup without keyframe starts at ${m.from}, not 1`);
    for (let p = 0; p < this.P; p++) {
      const q = this.queues[p]!;
      q.known = m.from - 1;
      q.floor = m.from;
      const row = m.inputs[p]!;
      for (let i = 0; i < row.length; i++) if (q.put(m.from + i, row[i]!) === 'beyond') throw new Error('catchup holds more inputs than a spectator keeps');
    }
    this.caughtUpFrom = m.from - 1;
    // a replay file starts at frame 0: a spectator that joins later checks frames but records none
    if (csim.frame === 0) this.rec = this.recorder(csim);
    this.caughtUp = true;
    const early = this.early;
    this.early = [];
    for (const e of early) this.onGame(e as Extract<Incoming, { t: 'input' }>);
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private setState(s: NetplayStats['state']): void {
    this.state = s;
    this.events.emit('state', s);
  }

  private shut(why: string): void {
    if (this.state === 'closed') return;
    // reasons quote what the relay, a room's config or a peer sent: never a control character to a terminal
    const reason = printable(why);
    this.closeReason = reason;
    this.inbox.length = 0;
    this.setState('closed');
    this.events.emit('closed', { reason });
  }
}

function checkInt(v: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, not ${v}`);
  return v;
}
