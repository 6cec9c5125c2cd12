/**
 * The sandbox's simulation session, without any drawing: one Simulation built exactly as Node builds it (the
 * world's default settings and scenario), stepped with the keyboard's buttons, or driven by a loaded replay
 * (play, pause, step, seek), with the recorded hash checked on every frame.
 *
 * The live run is always recorded (a LiveRecord: every frame's inputs and hash, a keyframe every 5 seconds,
 * within its memory budget), so it is a timeline as a replay is: seek back, step back, play on from there with
 * the recorded inputs (keys held there cut the record and the run goes on differently), and write what already
 * happened as a replay file at any time.
 *
 * The session only calls the simulation's public API (`step`, `hash`, `save`/`restore` through the replay
 * functions); the renderer reads the state it exposes and never writes it. No pixi.js or DOM here, so Node
 * tests run it too.
 */
import { frameInputs, hex64, readReplay, type Replay } from '../../replay/format.js';
import type { OpenedWorld } from '../../replay/world-identity.js';
import { InputRuns } from '../scene/link-inputs.js';
import { defaultSettingsFor, simulationFromSettings } from '../../scenarios/builtin.js';
import { BUTTON_MASK } from '../../systems/input.js';
import { isInputWord, NAV_ORDER_FLAG, navOrderSystem, navOrderWords } from '../../systems/nav-orders.js';
import { checkReplaySettings, replaySimulation } from '../../replay/rebuild.js';
import { LiveRecord } from '../../replay/live-record.js';
import { seekReplay } from '../../replay/seek.js';
import type { ScenarioSettings } from '../../sim/scenario.js';
import { Simulation } from '../../sim/simulation.js';

/** Keyframes every 5 seconds: seeking re-simulates at most that many frames. */
export const SANDBOX_KEYFRAME_INTERVAL = 300;

export type SessionMode = 'live' | 'replay';

/** Rebuilds a world from its bytes: each simulation gets a fresh world (worlds may hold run-time state). */
export type WorldOpener = () => Promise<OpenedWorld>;

export interface FrameCheck {
  frame: number;
  /** The state hash after the frame, "0x" + 16 hex digits. */
  hash: string;
  /** For replay playback: whether it equals the recorded hash (null in live mode). */
  matches: boolean | null;
}

export class SandboxSession {
  sim!: Simulation;
  opened!: OpenedWorld;
  mode: SessionMode = 'live';
  /** The replay being played, in replay mode. */
  replay: Replay | null = null;
  /** The first frame whose hash disagreed with the replay's, or -1. */
  desyncFrame = -1;
  /** The live run's record (null: a replay is shown, the session is a room's, or `keepTimeline` is off). */
  private record: LiveRecord | null = null;
  /** The record's buttons as runs, for links (`linkInputs`), and the record they were read from. */
  private runs = new InputRuns();
  private runsOf: LiveRecord | null = null;
  /**
   * Whether a live run is recorded as a timeline (on; the frame-time benchmark turns it off to measure what
   * it costs). Takes effect at the next world, restart or return to live.
   */
  keepTimeline = true;
  /** The loaded replay checked ahead of playback on a second simulation (see `checkAhead`). */
  check: ReplayCheck | null = null;
  private lastHash = '';
  /**
   * Some frame since frame 0 ran with buttons held (keys, or a replay's inputs before going live): a link,
   * which carries no inputs, cannot bring such a run back.
   */
  steered = false;
  /** Order words still to go out, one per live frame (see `sendAgent`). */
  private orders: number[] = [];
  /** Some frame of the live run carried a navigation order (a link, which carries buttons alone, cannot bring it back). */
  private ordered = false;
  /** The simulation is stepped elsewhere (a room's): orders, which go out in this session's steps, cannot be sent. */
  private elsewhere = false;

  private constructor(
    private readonly open: WorldOpener,
    readonly settings: ScenarioSettings,
  ) {}

  /**
   * A session on a fresh copy of the world with its default settings (and `over` on top: settings, or a
   * function of the world opened that gives them).
   */
  static async create(open: WorldOpener, over: Partial<ScenarioSettings> | ((first: OpenedWorld) => Partial<ScenarioSettings>) = {}): Promise<SandboxSession> {
    const first = await open();
    const s = new SandboxSession(open, defaultSettingsFor(first.world, typeof over === 'function' ? over(first) : over));
    s.install(first, s.settings);
    return s;
  }

  /** A live session over a simulation stepped elsewhere (a netplay room's): the page shows it, never steps it. */
  static over(opened: OpenedWorld, sim: Simulation): SandboxSession {
    const s = new SandboxSession(() => Promise.resolve(opened), sim.settings);
    s.opened = opened;
    s.sim = sim;
    s.lastHash = sim.hashHex();
    s.elsewhere = true;
    return s;
  }

  private install(opened: OpenedWorld, settings: ScenarioSettings): void {
    this.opened = opened;
    this.sim = simulationFromSettings(opened.world, settings);
    this.lastHash = this.sim.hashHex();
    this.record = this.keepTimeline ? new LiveRecord(this.sim, opened.identity, { keyframeInterval: SANDBOX_KEYFRAME_INTERVAL }) : null;
  }

  get frame(): number {
    return this.sim.frame;
  }

  /** Whether the live run is being recorded (always, in live mode, unless `keepTimeline` is off). */
  get recording(): boolean {
    return this.record !== null;
  }

  /** The live record (null: none, see `record`), for its figures: frames held, bytes, keyframes. */
  get liveRecord(): LiveRecord | null {
    return this.record;
  }

  /** Hashes of the live frames recorded (index f − 1 − start for frame f), for checks and tests. */
  get recordedHashes(): string[] {
    const r = this.record;
    const out: string[] = [];
    if (r) for (let f = r.start + 1; f <= r.head; f++) out.push(r.hashAt(f));
    return out;
  }

  /**
   * What the timeline spans: a replay's frames 0..length, or the live run's record from its oldest frame held
   * to its last frame (null: nothing to scrub, a room's session or recording off).
   */
  get timeline(): { start: number; end: number; keyframes: number[] } | null {
    if (this.replay) return { start: 0, end: this.replay.frames.count, keyframes: this.replay.keyframes.map((k) => k.frame) };
    const r = this.record;
    return r ? { start: r.start, end: r.head, keyframes: r.keyframes() } : null;
  }

  /** The state hash after the last frame (or of the initial state). */
  get hash(): string {
    return this.lastHash;
  }

  /**
   * Back to frame 0 on a fresh world, in live mode (the record starts again from there). `_record` is what
   * callers once passed to start a recording: the live run is now always recorded.
   */
  async restart(_record?: boolean): Promise<void> {
    this.install(await this.open(), this.settings);
    this.mode = 'live';
    this.replay = null;
    this.desyncFrame = -1;
    this.check = null;
    this.steered = false;
    this.ordered = false;
    this.orders = [];
  }

  /** Whether this session's scenario takes navigation orders (the "navigate" scenario does) and it is live. */
  get canSend(): boolean {
    return this.mode === 'live' && !this.elsewhere && this.sim.scenario.systems.some((s) => s.name === navOrderSystem.name && s.create === navOrderSystem.create);
  }

  /**
   * Sends agent `entity` to node `node` of the world's navigation graph: the order goes out in player 0's input
   * words of the next two live frames (nav-orders.ts), so the record and its replay carry it as they carry keys.
   * Throws when the session cannot send (`canSend`) or the numbers are out of range.
   */
  sendAgent(entity: number, node: number): void {
    if (!this.canSend) throw new Error(this.mode !== 'live' ? 'sendAgent in replay mode: leave the replay first' : this.elsewhere ? 'sendAgent: this simulation is stepped elsewhere (a room\'s)' : `scenario ${this.sim.scenario.name} takes no navigation orders (the "navigate" scenario does)`);
    this.orders.push(...navOrderWords(entity, node));
  }

  /** Whether some frame of the live run carried a navigation order (its link cannot bring the run back). */
  get sent(): boolean {
    return this.ordered;
  }

  /** Whether a navigation order is still going out. */
  get sending(): boolean {
    return this.orders.length > 0;
  }

  /**
   * One live frame with the given buttons, recorded. Behind the record's last frame (after seeking back), a
   * frame with no buttons plays the recorded one (`matches` says whether its hash is the recorded one); a
   * frame with buttons cuts the record there and the run goes on from it.
   */
  stepLive(buttons: number): FrameCheck {
    if (this.mode !== 'live') throw new Error('stepLive in replay mode: leave the replay first');
    const order = this.orders.shift() ?? 0;
    const b = ((buttons & BUTTON_MASK) | order) >>> 0;
    if (order !== 0) this.ordered = true;
    const r = this.record;
    if (r && this.sim.frame < r.head) {
      if (b === 0) {
        const f = this.sim.frame + 1;
        this.sim.step(r.input(f));
        this.lastHash = this.sim.hashHex();
        return { frame: f, hash: this.lastHash, matches: this.lastHash === r.hashAt(f) };
      }
      r.cut(this.sim.frame);
      if (this.runsOf === r) this.runs.truncate(this.sim.frame);
    }
    if (b !== 0) this.steered = true;
    if (r) {
      r.step(b);
      this.lastHash = r.hashAt(r.head);
    } else {
      this.sim.step(b);
      this.lastHash = this.sim.hashHex();
    }
    return { frame: this.sim.frame, hash: this.lastHash, matches: null };
  }

  /**
   * The replay file of the live run so far: frame 0 to the record's last frame (also when the view stands
   * further back). The run goes on, still recorded. Throws when nothing is recorded, or when the record no
   * longer holds frame 0 (a run longer than its memory budget keeps).
   */
  finishRecording(): Uint8Array {
    if (!this.record) throw new Error(this.mode === 'replay' ? 'a replay is shown: its file is the replay itself' : 'this run is not recorded');
    return this.record.replayBytes();
  }

  /**
   * The live run's buttons, frames 1..`frame` (default the frame shown), encoded for a link when any is held
   * (see link-inputs.ts); '' when none is, null when the record cannot say (not recorded, or it no longer holds
   * frame 0).
   */
  linkInputs(frame = this.sim.frame): string | null {
    const r = this.record;
    if (!r || !r.complete || frame > r.head || this.ordered) return null;
    // the runs are kept between calls (the link is written every half second): only new frames are read
    if (this.runsOf !== r) {
      this.runsOf = r;
      this.runs = new InputRuns();
    }
    const runs = this.runs;
    if (runs.frames > frame) runs.truncate(frame);
    while (runs.frames < frame) runs.push(r.input(runs.frames + 1));
    return runs.held ? runs.encode() : '';
  }

  /**
   * Loads a replay of this session's world (the content hash must match) and rewinds to its frame 0. The
   * simulation is rebuilt from the replay's own settings.
   */
  async loadReplay(bytes: Uint8Array): Promise<Replay> {
    // Buttons, or navigation orders with buttons (nav-orders.ts): any other word is refused, naming its frame.
    const rp = readReplay(bytes, isInputWord);
    // A hostile header (unknown scenario, settings out of range) is refused as a FormatError before anything
    // is built from it, as the Node verifier does.
    checkReplaySettings(rp.header);
    const opened = await this.open();
    // The world and the scenario checked against the recorded ones, then the simulation built from them.
    const sim = replaySimulation(rp.header, { world: opened });
    this.opened = opened;
    this.sim = sim;
    this.lastHash = sim.hashHex();
    const k0 = rp.keyframes[0]!;
    const h = this.sim.hash();
    if (h.hi !== k0.hashHi || h.lo !== k0.hashLo) {
      throw new Error(`this runtime's initial state ${hex64(h.hi, h.lo)} differs from the replay's ${hex64(k0.hashHi, k0.hashLo)}`);
    }
    this.mode = 'replay';
    this.orders = [];
    this.replay = rp;
    this.desyncFrame = -1;
    this.steered = false;
    this.record = null;
    this.check = new ReplayCheck(rp, replaySimulation(rp.header, { world: await this.open() }));
    return rp;
  }

  /**
   * Checks up to `frames` more frames of the loaded replay ahead of playback (on its own simulation, so the
   * one on screen is untouched): the timeline can mark the first divergent frame before playback reaches
   * it. True when the whole replay has been checked.
   */
  checkAhead(frames: number): boolean {
    return this.check ? this.check.run(frames) : true;
  }

  /** The first divergent frame known: found in playback or by the check ahead (−1 none). */
  get divergence(): number {
    const a = this.desyncFrame;
    const b = this.check?.divergence ?? -1;
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  /** Frames in the loaded replay (0 in live mode). */
  get replayLength(): number {
    return this.replay ? this.replay.frames.count : 0;
  }

  /** Plays the replay's next frame; null at its end. Checks the hash against the recorded one. */
  stepReplay(): FrameCheck | null {
    const rp = this.replay;
    if (!rp) throw new Error('no replay loaded');
    const f = this.sim.frame;
    if (f >= rp.frames.count) return null;
    this.sim.step(frameInputs(rp.frames, f));
    const h = this.sim.hash();
    this.lastHash = hex64(h.hi, h.lo);
    const matches = h.hi === rp.frames.hashHi[f] && h.lo === rp.frames.hashLo[f];
    if (!matches && this.desyncFrame < 0) this.desyncFrame = f + 1;
    return { frame: f + 1, hash: this.lastHash, matches };
  }

  /**
   * Restores the nearest keyframe at or before `frame` and steps to it: the replay's seek, or in live mode the
   * record's (clamped to the frames it holds).
   */
  seek(frame: number): FrameCheck {
    const rp = this.replay;
    const rec = this.record;
    if (!rp && rec && this.mode === 'live') {
      const target = Math.max(rec.start, Math.min(rec.head, Math.floor(frame)));
      const got = rec.seek(target);
      this.lastHash = got.hash;
      return { frame: target, hash: got.hash, matches: got.verified };
    }
    if (!rp) throw new Error('no replay loaded');
    const target = Math.max(0, Math.min(rp.frames.count, Math.floor(frame)));
    const r = seekReplay(rp, this.sim, target);
    this.lastHash = r.hash;
    // seekReplay compares the hash it reaches with the recorded one (frame 0: keyframe 0's).
    return { frame: target, hash: r.hash, matches: r.verified };
  }

  /** The recorded buttons of the frame about to be played (replay mode; player 0's), else 0. */
  nextReplayInput(): number {
    const rp = this.replay;
    return rp && this.sim.frame < rp.frames.count ? rp.frames.inputs[this.sim.frame * rp.frames.players]! : 0;
  }

  /**
   * Leaves the replay: live from where it stands, the replay's frames up to there kept as the live record
   * (so the timeline, the links and the replay file go on from frame 0).
   */
  goLive(): void {
    const rp = this.replay;
    if (rp) {
      for (let f = 0; f < this.sim.frame * rp.frames.players && f < rp.frames.inputs.length; f++) {
        const w = rp.frames.inputs[f]!;
        if (w !== 0) this.steered = true;
        if (w & NAV_ORDER_FLAG) this.ordered = true;
      }
    }
    if (rp && this.keepTimeline) this.record = LiveRecord.fromReplay(rp, this.sim, this.sim.frame);
    this.mode = 'live';
    this.replay = null;
    this.check = null;
  }
}

/** A replay re-simulated from its frame 0 on a simulation of its own, frame by frame against its hashes. */
export class ReplayCheck {
  /** Frames checked so far. */
  frame = 0;
  /** The first frame whose hash differs from the recorded one (−1: none so far). */
  divergence = -1;

  constructor(
    readonly replay: Replay,
    private readonly sim: Simulation,
  ) {}

  get total(): number {
    return this.replay.frames.count;
  }

  get done(): boolean {
    return this.frame >= this.total || this.divergence >= 0;
  }

  /** Checks up to `frames` more frames; true when done (the end reached, or a divergence found). */
  run(frames: number): boolean {
    const rp = this.replay;
    for (let i = 0; i < frames && !this.done; i++) {
      const f = this.frame;
      this.sim.step(frameInputs(rp.frames, f));
      const h = this.sim.hash();
      this.frame = f + 1;
      if (h.hi !== rp.frames.hashHi[f] || h.lo !== rp.frames.hashLo[f]) this.divergence = f + 1;
    }
    return this.done;
  }
}
