/**
 * Recording a replay of a Simulation as it runs (the file format is src/replay/format.ts): each frame's
 * input (every player's), state hash with its sections and RNG draw counts, and a keyframe snapshot every N
 * frames. A simulation of one player gives a version 3 file, one of several a version 4 file.
 */
import { DEFAULT_KEYFRAME_INTERVAL, replayFormatVersion, ReplayWriter, RUNTIME_VERSION, type WorldIdentity } from './format.js';
import { encodeValueBytes } from '../ecs/value-codec.js';
import { BUTTON_MASK } from '../systems/input.js';
import type { Simulation } from '../sim/simulation.js';
import type { ScenarioIdentity } from '../sim/scenario.js';
import { scenarioIdentity } from '../scenarios/identity.js';

/** Options of a ReplayRecorder. */
export interface RecorderOptions {
  /** Frames between keyframes (full snapshots that seek starts from); default 600. */
  keyframeInterval?: number;
  /** The scenario's identity, when it is not the one `scenarioIdentity(sim.scenario)` gives. */
  scenario?: ScenarioIdentity;
}

/**
 * Records a simulation as it runs: call `step(buttons)` instead of `sim.step`, then `finish()` for the
 * replay file's bytes.
 *
 * @example
 * const rec = new ReplayRecorder(sim, identity);
 * for (let f = 1; f <= 600; f++) rec.step(Buttons.Up);
 * writeFileSync('run.replay', rec.finish());
 */
export class ReplayRecorder {
  private readonly w = new ReplayWriter();
  private readonly S: number;
  /** Players (input words per frame). */
  private readonly P: number;
  /** The masked input words of a step of several players (reused). */
  private readonly masked: Uint32Array;
  private readonly block: { inputs: Uint32Array; hashHi: Uint32Array; hashLo: Uint32Array; fieldrand: Uint32Array; ccrand: Uint32Array; sections: Uint32Array };
  private n = 0;
  private first = 1;
  lastHash = { hi: 0, lo: 0 };
  readonly sim: Simulation;

  readonly keyframeInterval: number;

  /**
   * @param sim the simulation to record, at a frame that is a multiple of the keyframe interval (frame 0)
   * @param world the identity of its world (`openWorld` gives it)
   * @param options the keyframe interval (default 600 frames), or options: `keyframeInterval`, and the
   *   scenario's identity when it is not the one `scenarioIdentity(sim.scenario)` finds
   */
  constructor(sim: Simulation, world: WorldIdentity, options: number | RecorderOptions = {}) {
    const o: RecorderOptions = typeof options === 'number' ? { keyframeInterval: options } : options;
    const keyframeInterval = o.keyframeInterval ?? DEFAULT_KEYFRAME_INTERVAL;
    this.sim = sim;
    this.keyframeInterval = keyframeInterval;
    if (!Number.isInteger(keyframeInterval) || keyframeInterval < 1 || keyframeInterval > 1 << 20) throw new RangeError(`keyframe interval must be in 1..${1 << 20}`);
    if (sim.frame % keyframeInterval !== 0) throw new RangeError(`recording must start on a keyframe frame, not ${sim.frame}`);
    const sections = [...sim.sectionNames()];
    this.S = sections.length;
    this.P = sim.players.length;
    this.masked = new Uint32Array(this.P);
    const scenario = o.scenario ?? scenarioIdentity(sim.scenario);
    this.w.header({ formatVersion: replayFormatVersion(this.P), runtime: RUNTIME_VERSION, world, scenario, settings: { ...sim.settings, params: { ...sim.settings.params } }, keyframeInterval, sections });
    const K = keyframeInterval;
    this.block = {
      inputs: new Uint32Array(K * this.P),
      hashHi: new Uint32Array(K),
      hashLo: new Uint32Array(K),
      fieldrand: new Uint32Array(K),
      ccrand: new Uint32Array(K),
      sections: new Uint32Array(K * this.S),
    };
    this.first = sim.frame + 1;
    this.keyframe();
  }

  private keyframe(): void {
    const h = this.sim.hash();
    this.w.keyframe(this.sim.frame, h.hi, h.lo, encodeValueBytes(this.sim.save()));
  }

  /**
   * Steps the simulation one frame with these buttons (Buttons bits; bits outside BUTTON_MASK are dropped) and
   * records the frame: a number is player 0's (the others' are 0), a list one word per player (see
   * `Simulation.step`).
   */
  step(buttons: number | ArrayLike<number>): void {
    const sim = this.sim;
    if (typeof buttons === 'number') sim.step(buttons & BUTTON_MASK);
    else if (buttons !== null && typeof buttons === 'object' && buttons.length === this.P) {
      for (let k = 0; k < this.P; k++) this.masked[k] = buttons[k]! & BUTTON_MASK;
      sim.step(this.masked);
    } else sim.step(buttons); // refused there, naming the count it needs
    const P = this.P;
    const h = sim.hash();
    const d = sim.scheduler.drawCounts();
    const b = this.block;
    const i = this.n++;
    for (let k = 0; k < P; k++) b.inputs[i * P + k] = sim.inputs[k]!;
    b.hashHi[i] = h.hi;
    b.hashLo[i] = h.lo;
    b.fieldrand[i] = d.fieldrand;
    b.ccrand[i] = d.ccrand;
    for (let s = 0; s < this.S; s++) b.sections[i * this.S + s] = h.sections[2 * s + 1]!;
    this.lastHash = { hi: h.hi, lo: h.lo };
    if (sim.frame % this.keyframeInterval === 0) {
      this.flush();
      this.keyframe();
    }
  }

  private flush(): void {
    if (this.n === 0) return;
    this.w.frames(this.first, this.n, this.block, this.S);
    this.first += this.n;
    this.n = 0;
  }

  /** Ends the recording: the replay file's bytes. */
  finish(): Uint8Array {
    this.flush();
    return this.w.end(this.sim.frame, this.lastHash.hi, this.lastHash.lo);
  }
}
