/**
 * A live run kept as a timeline: every frame's inputs, state hash, section hashes and draw counts, and a
 * keyframe snapshot every N frames, held in memory in blocks of one keyframe interval each, so that the run
 * can be sought back into (restore the nearest keyframe, step on with the recorded inputs), cut at a frame to
 * go on differently from there, and written as a replay file at any time (the same bytes a ReplayRecorder of
 * the same run writes).
 *
 * A keyframe is taken as the simulation's rollback copy (`Simulation.saveInto`, a copy into typed arrays, a
 * fraction of a millisecond), not as an encoded snapshot (`save` and the value codec, tens of milliseconds with
 * 1,000 agents): a live frame stays cheap. The snapshot's bytes are made when a replay file is written, by
 * putting each copy back and saving it, and kept.
 *
 * The record is bounded by a memory budget. Past it, the oldest keyframes' copies go first (never frame 0's,
 * never those of the last `minFrames` frames): their frame records stay (about 60 bytes a frame), so the whole
 * run can still be written as a replay file, its missing keyframes made again by stepping from the one before
 * with the recorded inputs (and checked against their recorded hashes); only the frames from the oldest copy
 * kept on can be sought quickly (`start`). Only when the frame records alone pass the budget (hours of play)
 * do the oldest blocks go entirely: such a record can still be sought and scrubbed, but no longer written as a
 * replay file (a replay starts at frame 0).
 */
import { encodeValueBytes } from '../ecs/value-codec.js';
import { RollbackState } from '../sim/rollback.js';
import type { Simulation } from '../sim/simulation.js';
import type { ScenarioIdentity } from '../sim/scenario.js';
import { scenarioIdentity } from '../scenarios/identity.js';
import { recordedInputWord } from '../systems/nav-orders.js';
import { hex64, replayFormatVersion, ReplayWriter, RUNTIME_VERSION, type Replay, type ReplayHeader, type WorldIdentity } from './format.js';
import { restoreKeyframe } from './seek.js';

/** Frames a live record always keeps: 10 minutes at 60 frames a second. */
export const LIVE_RECORD_MIN_FRAMES = 36_000;
/**
 * Bytes a live record may hold before it drops its oldest blocks (never below `minFrames`): 128 MiB. A block
 * (a keyframe's rollback copy and 300 frames' records) of the sandbox's default field takes about 0.4 MB with
 * 100 agents, 0.55 MB with 1,000 and 1 MB with 4,000, so 10 minutes fit with any agent count it allows.
 */
export const LIVE_RECORD_BUDGET_BYTES = 128 * 1024 * 1024;

/** Options of a LiveRecord. */
export interface LiveRecordOptions {
  /** Frames between keyframes; default 300. */
  keyframeInterval?: number;
  /** Frames always kept, whatever the budget; default LIVE_RECORD_MIN_FRAMES. */
  minFrames?: number;
  /** Bytes held before the oldest blocks go; default LIVE_RECORD_BUDGET_BYTES. */
  budgetBytes?: number;
  /** The scenario's identity, when it is not the one `scenarioIdentity(sim.scenario)` gives. */
  scenario?: ScenarioIdentity;
}

/** One keyframe and the frames after it (up to the next keyframe). */
interface Block {
  frame: number;
  hashHi: number;
  hashLo: number;
  /** The state at `frame` as the simulation's own copy (null: only the snapshot's bytes, from a replay). */
  state: RollbackState | null;
  /** The snapshot's encoded bytes (null: not made yet, see `replayBytes`). */
  snapshot: Uint8Array | null;
  /** Frames recorded in the block (frames frame+1 .. frame+n). */
  n: number;
  inputs: Uint32Array;
  hashHi_: Uint32Array;
  hashLo_: Uint32Array;
  fieldrand: Uint32Array;
  ccrand: Uint32Array;
  sections: Uint32Array;
}

/** Where a seek in the record ended. */
export interface LiveSeek {
  frame: number;
  /** The state hash reached, "0x" + 16 hex digits. */
  hash: string;
  /** Whether it is the hash recorded for that frame. */
  verified: boolean;
}

/**
 * A bounded, seekable recording of a simulation as it runs.
 *
 * @example
 * const rec = new LiveRecord(sim, identity);
 * for (let f = 1; f <= 900; f++) rec.step(f < 400 ? Buttons.Up : 0);
 * rec.seek(120); // the simulation is back at frame 120, checked against the recorded hash
 * writeFileSync('run.replay', rec.replayBytes());
 */
export class LiveRecord {
  readonly sim: Simulation;
  readonly keyframeInterval: number;
  readonly minFrames: number;
  readonly budgetBytes: number;
  /** The replay header the file is written with. */
  readonly header: ReplayHeader;
  private readonly S: number;
  private readonly P: number;
  private readonly masked: Uint32Array;
  private blocks: Block[] = [];
  private held = 0;
  /** Blocks 1..thin-1 have lost their keyframe copies (0: none has). */
  private thin = 0;

  /**
   * @param sim the simulation to record, at a frame that is a multiple of the keyframe interval
   * @param world the identity of its world
   * @param options the keyframe interval, the frames always kept, the budget, the scenario's identity
   */
  constructor(sim: Simulation, world: WorldIdentity, options: LiveRecordOptions = {}) {
    const K = options.keyframeInterval ?? 300;
    if (!Number.isInteger(K) || K < 1 || K > 1 << 20) throw new RangeError(`keyframe interval must be in 1..${1 << 20}`);
    if (sim.frame % K !== 0) throw new RangeError(`a live record must start on a keyframe frame, not ${sim.frame}`);
    this.sim = sim;
    this.keyframeInterval = K;
    this.minFrames = options.minFrames ?? LIVE_RECORD_MIN_FRAMES;
    this.budgetBytes = options.budgetBytes ?? LIVE_RECORD_BUDGET_BYTES;
    const sections = [...sim.sectionNames()];
    this.S = sections.length;
    this.P = sim.players.length;
    this.masked = new Uint32Array(this.P);
    const scenario = options.scenario ?? scenarioIdentity(sim.scenario);
    this.header = { formatVersion: replayFormatVersion(this.P), runtime: RUNTIME_VERSION, world, scenario, settings: { ...sim.settings, params: { ...sim.settings.params } }, keyframeInterval: K, sections };
    this.keyframe();
  }

  /**
   * A record holding a replay's frames up to `frame` (its keyframes and frame records, the replay's keyframe
   * interval), over `sim`, which must stand at that frame of the replay: the run goes on live from there.
   */
  static fromReplay(rp: Replay, sim: Simulation, frame: number, options: Omit<LiveRecordOptions, 'keyframeInterval' | 'scenario'> = {}): LiveRecord {
    if (sim.frame !== frame || frame > rp.frames.count) throw new RangeError(`the simulation stands at frame ${sim.frame}, not at frame ${frame} of the replay`);
    const r: LiveRecord = Object.create(LiveRecord.prototype);
    const K = rp.header.keyframeInterval;
    Object.assign(r, {
      sim,
      keyframeInterval: K,
      minFrames: options.minFrames ?? LIVE_RECORD_MIN_FRAMES,
      budgetBytes: options.budgetBytes ?? LIVE_RECORD_BUDGET_BYTES,
      header: rp.header,
      S: rp.header.sections.length,
      P: rp.frames.players,
      masked: new Uint32Array(rp.frames.players),
      blocks: [],
      held: 0,
      thin: 0,
    });
    const f = rp.frames;
    const S = r.S;
    const P = r.P;
    for (const k of rp.keyframes) {
      if (k.frame > frame) break;
      const b = r.newBlock(k.frame, k.hashHi, k.hashLo, null, k.snapshot);
      const n = Math.min(K, frame - k.frame);
      b.n = n;
      b.inputs.set(f.inputs.subarray(k.frame * P, (k.frame + n) * P));
      b.hashHi_.set(f.hashHi.subarray(k.frame, k.frame + n));
      b.hashLo_.set(f.hashLo.subarray(k.frame, k.frame + n));
      b.fieldrand.set(f.fieldrand.subarray(k.frame, k.frame + n));
      b.ccrand.set(f.ccrand.subarray(k.frame, k.frame + n));
      b.sections.set(f.sections.subarray(k.frame * S, (k.frame + n) * S));
    }
    r.prune();
    return r;
  }

  /**
   * The oldest frame that can be sought (a keyframe's): 0 until the budget drops keyframe copies, then the
   * oldest keyframe whose copy is kept with all after it.
   */
  get start(): number {
    return this.blocks[this.thin]!.frame;
  }

  /** The oldest frame whose record is held: 0 while the record can be written as a replay file. */
  private get first(): number {
    return this.blocks[0]!.frame;
  }

  /** The last frame recorded. */
  get head(): number {
    const b = this.blocks[this.blocks.length - 1]!;
    return b.frame + b.n;
  }

  /** Whether the record still holds every frame from frame 0, so that it can be written as a replay file. */
  get complete(): boolean {
    return this.first === 0;
  }

  /** Bytes held: the frame records' arrays and the keyframes' snapshots. */
  get bytes(): number {
    return this.held;
  }

  /** The keyframes held, oldest first. */
  keyframes(): number[] {
    return this.blocks.map((b) => b.frame);
  }

  private newBlock(frame: number, hashHi: number, hashLo: number, state: RollbackState | null, snapshot: Uint8Array | null): Block {
    const K = this.keyframeInterval;
    const b: Block = {
      frame,
      hashHi,
      hashLo,
      state,
      snapshot,
      n: 0,
      inputs: new Uint32Array(K * this.P),
      hashHi_: new Uint32Array(K),
      hashLo_: new Uint32Array(K),
      fieldrand: new Uint32Array(K),
      ccrand: new Uint32Array(K),
      sections: new Uint32Array(K * this.S),
    };
    this.blocks.push(b);
    this.held += blockBytes(b);
    return b;
  }

  private keyframe(): void {
    const h = this.sim.hash();
    this.newBlock(this.sim.frame, h.hi, h.lo, this.sim.saveInto(new RollbackState()), null);
  }

  /**
   * While over the budget: drops the oldest keyframe copy that frame 0 and the last `minFrames` frames do not
   * need (its frame records stay); when none is left to drop, the oldest blocks go entirely (and with them
   * frame 0), never so many that less than `minFrames` frames remain.
   */
  private prune(): void {
    const B = this.blocks;
    while (this.held > this.budgetBytes) {
      const i = Math.max(1, this.thin);
      if (this.complete && i + 1 < B.length && this.head - B[i + 1]!.frame >= this.minFrames) {
        const b = B[i]!;
        this.held -= blockBytes(b);
        b.state = null;
        b.snapshot = null;
        this.held += blockBytes(b);
        this.thin = i + 1;
        continue;
      }
      // the frame records alone are over the budget: the oldest blocks go, down to one with its copy
      const from = Math.max(1, this.thin);
      if (from >= B.length || this.head - B[from]!.frame < this.minFrames) break;
      for (let k = 0; k < from; k++) this.held -= blockBytes(B.shift()!);
      this.thin = 0;
    }
  }

  /**
   * Steps the simulation one frame with these buttons (bits outside BUTTON_MASK dropped unless the word is a
   * navigation order's, see nav-orders.ts; a number is player 0's, a list one word per player) and records it. The simulation must stand at the record's head.
   */
  step(buttons: number | ArrayLike<number>): void {
    const sim = this.sim;
    if (sim.frame !== this.head) throw new RangeError(`the simulation stands at frame ${sim.frame}, the record's head is ${this.head}: seek there or cut the record first`);
    if (typeof buttons === 'number') sim.step(recordedInputWord(buttons));
    else if (buttons !== null && typeof buttons === 'object' && buttons.length === this.P) {
      for (let k = 0; k < this.P; k++) this.masked[k] = recordedInputWord(buttons[k]!);
      sim.step(this.masked);
    } else sim.step(buttons); // refused there, naming the count it needs
    const h = sim.hash();
    const d = sim.scheduler.drawCounts();
    const b = this.blocks[this.blocks.length - 1]!;
    const i = b.n++;
    const P = this.P;
    const S = this.S;
    for (let k = 0; k < P; k++) b.inputs[i * P + k] = sim.inputs[k]!;
    b.hashHi_[i] = h.hi;
    b.hashLo_[i] = h.lo;
    b.fieldrand[i] = d.fieldrand;
    b.ccrand[i] = d.ccrand;
    for (let s = 0; s < S; s++) b.sections[i * S + s] = h.sections[2 * s + 1]!;
    if (sim.frame % this.keyframeInterval === 0) {
      this.keyframe();
      this.prune();
    }
  }

  /** The block holding frame `f`'s record (first < f ≤ head), and its index in it. */
  private at(f: number): [Block, number] {
    if (!Number.isInteger(f) || f <= this.first || f > this.head) throw new RangeError(`frame ${f} is not held (the record holds frames ${this.first + 1}..${this.head})`);
    const K = this.keyframeInterval;
    const b = this.blocks[Math.floor((f - 1 - this.first) / K)]!;
    return [b, f - 1 - b.frame];
  }

  /** Player `player`'s buttons in frame `f` (from the oldest frame held, see `complete`, to the head). */
  input(f: number, player = 0): number {
    const [b, i] = this.at(f);
    return b.inputs[i * this.P + player]!;
  }

  /** The state hash recorded after frame `f` (its record held, or the oldest keyframe's frame). */
  hashAt(f: number): string {
    if (f === this.first) return hex64(this.blocks[0]!.hashHi, this.blocks[0]!.hashLo);
    const [b, i] = this.at(f);
    return hex64(b.hashHi_[i]!, b.hashLo_[i]!);
  }

  /** Player 0's buttons of frames 1..`to` (null when the record no longer holds frame 0). */
  inputs(to = this.head): Uint32Array | null {
    if (!this.complete) return null;
    const out = new Uint32Array(Math.max(0, Math.min(to, this.head)));
    for (let f = 1; f <= out.length; f++) out[f - 1] = this.input(f);
    return out;
  }

  /**
   * Brings the simulation to frame `frame` of the record (start ≤ frame ≤ head): on from where it stands when
   * that is on the way, else from the nearest keyframe at or before it (its snapshot checked against its
   * hash), stepping with the recorded inputs; says whether the hash reached is the recorded one.
   */
  seek(frame: number): LiveSeek {
    if (!Number.isInteger(frame) || frame < this.start || frame > this.head) throw new RangeError(`frame ${frame} is outside the record's ${this.start}..${this.head}`);
    const sim = this.sim;
    const K = this.keyframeInterval;
    const b = this.blocks[Math.min(this.blocks.length - 1, Math.floor((frame - this.first) / K))]!;
    if (!(sim.frame >= b.frame && sim.frame <= frame)) {
      if (b.state) sim.restoreFrom(b.state);
      else restoreKeyframe(sim, { frame: b.frame, hashHi: b.hashHi, hashLo: b.hashLo, snapshot: b.snapshot!, offset: -1 });
    }
    while (sim.frame < frame) sim.step(this.P === 1 ? this.input(sim.frame + 1) : this.frameInputs(sim.frame + 1));
    const hash = sim.hashHex();
    return { frame, hash, verified: hash === this.hashAt(frame) };
  }

  private frameInputs(f: number): Uint32Array {
    const [b, i] = this.at(f);
    return b.inputs.subarray(i * this.P, (i + 1) * this.P);
  }

  /** Forgets the frames after `frame` (start ≤ frame ≤ head): the run goes on differently from there. */
  cut(frame: number): void {
    if (!Number.isInteger(frame) || frame < this.start || frame > this.head) throw new RangeError(`frame ${frame} is outside the record's ${this.start}..${this.head}`);
    const K = this.keyframeInterval;
    const keep = Math.floor((frame - this.first) / K) + 1;
    while (this.blocks.length > keep) this.held -= blockBytes(this.blocks.pop()!);
    const b = this.blocks[this.blocks.length - 1]!;
    b.n = frame - b.frame;
  }

  /**
   * The snapshot bytes of every keyframe, oldest first: those made before are kept; a rollback copy is put
   * back and saved as `Simulation.save` and the value codec do (and kept); a keyframe whose copy the budget
   * dropped is reached again by stepping from the one before with the recorded inputs, checked against its
   * recorded hash (and not kept). The simulation is put back where it stood.
   */
  private snapshots(): Uint8Array[] {
    const sim = this.sim;
    const out: Uint8Array[] = [];
    let now: RollbackState | null = null;
    try {
      for (let i = 0; i < this.blocks.length; i++) {
        const b = this.blocks[i]!;
        if (b.snapshot) {
          out.push(b.snapshot);
          continue;
        }
        now ??= sim.saveInto(new RollbackState());
        if (b.state) {
          sim.restoreFrom(b.state);
          this.held -= blockBytes(b);
          b.snapshot = encodeValueBytes(sim.save());
          this.held += blockBytes(b);
          out.push(b.snapshot);
          continue;
        }
        const prev = this.blocks[i - 1]!;
        // the simulation stands at the previous keyframe when that one was thin too (stepped to just now)
        if (prev.state || prev.snapshot) {
          if (prev.state) sim.restoreFrom(prev.state);
          else restoreKeyframe(sim, { frame: prev.frame, hashHi: prev.hashHi, hashLo: prev.hashLo, snapshot: prev.snapshot!, offset: -1 });
        }
        while (sim.frame < b.frame) sim.step(this.P === 1 ? this.input(sim.frame + 1) : this.frameInputs(sim.frame + 1));
        const h = sim.hash();
        if (h.hi !== b.hashHi || h.lo !== b.hashLo) throw new Error(`the live record's keyframe ${b.frame} was stepped to again and hashed ${hex64(h.hi, h.lo)}, not the ${hex64(b.hashHi, b.hashLo)} recorded`);
        out.push(encodeValueBytes(sim.save()));
      }
    } finally {
      if (now) sim.restoreFrom(now);
    }
    return out;
  }

  /**
   * The replay file of the run held, frame 0 to the head (the bytes a ReplayRecorder of the same run writes).
   * Keyframes whose copies the budget dropped are made again by stepping: a long run takes a while to write.
   */
  replayBytes(): Uint8Array {
    if (!this.complete) throw new Error(`the live record no longer holds frame 0 (it holds frames ${this.first}..${this.head}, the last ${this.minFrames} at least): a replay file starts at frame 0`);
    const snapshots = this.snapshots();
    const w = new ReplayWriter();
    w.header(this.header);
    let hi = 0;
    let lo = 0;
    for (const [k, b] of this.blocks.entries()) {
      w.keyframe(b.frame, b.hashHi, b.hashLo, snapshots[k]!);
      if (b.n > 0) {
        w.frames(b.frame + 1, b.n, { inputs: b.inputs, hashHi: b.hashHi_, hashLo: b.hashLo_, fieldrand: b.fieldrand, ccrand: b.ccrand, sections: b.sections }, this.S);
        hi = b.hashHi_[b.n - 1]!;
        lo = b.hashLo_[b.n - 1]!;
      }
    }
    return w.end(this.head, hi, lo);
  }
}

/** Bytes of the typed arrays an object holds (a rollback copy's buffers), a few levels down. */
function typedBytes(v: unknown, depth = 0): number {
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (v === null || typeof v !== 'object' || depth > 4) return 0;
  let n = 0;
  for (const k of Object.keys(v)) if (k !== 'owner') n += typedBytes((v as Record<string, unknown>)[k], depth + 1);
  return n;
}

function blockBytes(b: Block): number {
  return (b.snapshot?.byteLength ?? 0) + (b.state ? typedBytes(b.state) : 0) + b.inputs.byteLength + b.hashHi_.byteLength + b.hashLo_.byteLength + b.fieldrand.byteLength + b.ccrand.byteLength + b.sections.byteLength;
}
