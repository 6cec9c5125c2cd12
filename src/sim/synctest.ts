/**
 * Synctest (after GGPO/ggrs): every frame, roll a second simulation back `depth` frames, re-simulate them
 * with the same inputs and compare each frame's hash with the one first computed. Any difference means the
 * simulation is not a function of (snapshot, inputs): hidden state, an unsaved field, a clock, an unordered
 * iteration. The shadow simulation has its own event bus, so nothing is emitted twice; desyncs are emitted on
 * the main simulation's bus.
 */
import type { Simulation, SimSnapshot } from './simulation.js';
import { hashHex as hex64 } from '../ecs/state-hash.js';

/** A frame the synctest found not deterministic: the hashes, the sections that differ, and the culprit task. */
export interface SyncTestFailure {
  /** The frame whose re-simulated hash differs. */
  frame: number;
  /** The frame the check rolled back to. */
  from: number;
  /** The first hash and the re-simulated one, "0x" + 16 hex digits. */
  expected: string;
  actual: string;
  /** The sections of the state hash that differ. */
  sections: string[];
  /**
   * The task (system) found not to be a function of the state: run twice from the same state at the frame
   * before, the state hash first differs after it. Null when both runs agree (the state the snapshot
   * missed was changed before that frame, or outside any task).
   */
  culprit: string | null;
}

/**
 * Checks that a simulation is deterministic, as GGPO's synctest does: every frame, a second simulation rolls
 * back `depth` frames, re-simulates them with the same inputs and compares each frame's hash. A difference means
 * state the snapshot misses (hidden state, a clock, an unordered iteration); it is reported, and emitted as a
 * `desync` event on the main simulation's bus.
 */
export class SyncTest {
  private readonly snaps: (SimSnapshot | null)[];
  /** Every player's input words of the last depth + 1 frames (players words a frame). */
  private readonly inputs: Uint32Array;
  private readonly players: number;
  private readonly hashes: Uint32Array;
  readonly failures: SyncTestFailure[] = [];
  checkedFrames = 0;

  /**
   * @param main the simulation being run
   * @param shadow a second simulation built the same way (same world file, settings, scenario) on its own
   *   world object: restoring a snapshot restores the world's run-time state too (e.g. Llama tile swaps)
   * @param depth frames re-simulated each frame (≥ 1)
   */
  constructor(
    readonly main: Simulation,
    private readonly shadow: Simulation,
    readonly depth: number,
  ) {
    if (!Number.isInteger(depth) || depth < 1 || depth > 1024) throw new RangeError(`synctest depth must be in 1..1024, got ${depth}`);
    const n = depth + 1;
    this.snaps = new Array(n).fill(null);
    this.players = main.players.length;
    if (shadow.players.length !== this.players) throw new RangeError(`synctest: the shadow simulation has ${shadow.players.length} players, the main one ${this.players}`);
    this.inputs = new Uint32Array(n * this.players);
    this.hashes = new Uint32Array(2 * n);
    this.snaps[main.frame % n] = main.save();
  }

  /**
   * Steps the main simulation (buttons as `Simulation.step` takes them: a number, or one word per player) and
   * checks the last `depth` frames again. Returns false on a desync.
   */
  step(buttons: number | ArrayLike<number>): boolean {
    this.main.step(buttons);
    return this.check();
  }

  /** Checks after the main simulation was stepped by someone else (e.g. a replay recorder). */
  check(): boolean {
    const n = this.depth + 1;
    const main = this.main;
    const f = main.frame;
    const h = main.hash();
    this.inputs.set(main.inputs, (f % n) * this.players);
    this.hashes[2 * (f % n)] = h.hi;
    this.hashes[2 * (f % n) + 1] = h.lo;
    this.snaps[f % n] = main.save();
    const from = f - this.depth;
    if (from < 0 || !this.snaps[from % n] || (this.snaps[from % n] as SimSnapshot).frame !== from) return true;
    const shadow = this.shadow;
    shadow.restore(this.snaps[from % n]!);
    for (let g = from + 1; g <= f; g++) {
      shadow.step(this.inputsOf(g));
      const s = shadow.hash();
      const hi = this.hashes[2 * (g % n)]!;
      const lo = this.hashes[2 * (g % n) + 1]!;
      if (s.hi !== hi || s.lo !== lo) {
        const sections: string[] = [];
        const names = main.sectionNames();
        // Name what differs: the first run's state at g is kept as a snapshot; restore it into the shadow
        // and compare section by section with the re-simulated state.
        const ref = this.snaps[g % n];
        if (ref && ref.frame === g) {
          const sh = s.sections.slice();
          shadow.restore(ref);
          const r = shadow.hash();
          for (let k = 0; k < names.length; k++) if (sh[2 * k] !== r.sections[2 * k] || sh[2 * k + 1] !== r.sections[2 * k + 1]) sections.push(names[k]!);
        }
        const before = this.snaps[(g - 1) % n];
        const culprit = before && before.frame === g - 1 ? this.findCulprit(before, this.inputsOf(g)) : null;
        const fail: SyncTestFailure = { frame: g, from, expected: hex64(hi, lo), actual: hex64(s.hi, s.lo), sections, culprit };
        this.failures.push(fail);
        const who = culprit ? `; system ${culprit} is not deterministic (two runs of frame ${g} from the same state differ right after it)` : '';
        main.events.emit('desync', { frame: g, detail: `synctest: frame ${g} re-simulated from ${from} hashes ${fail.actual}, first run ${fail.expected}${sections.length ? ` (differs in ${sections.join(', ')})` : ''}${who}` });
        return false;
      }
    }
    this.checkedFrames++;
    return true;
  }

  /** The input words of frame `g` (kept for the last depth + 1 frames). */
  private inputsOf(g: number): Uint32Array {
    const at = (g % (this.depth + 1)) * this.players;
    return this.inputs.subarray(at, at + this.players);
  }

  /**
   * Runs the frame after `snap` twice on the shadow, hashing the state after every task; the first task
   * after which the two runs differ is not a function of the state (a clock, Math.random, a module-level
   * variable, an unordered iteration).
   */
  private findCulprit(snap: SimSnapshot, buttons: ArrayLike<number>): string | null {
    const shadow = this.shadow;
    const run = (): { name: string; hash: string }[] => {
      const trail: { name: string; hash: string }[] = [];
      shadow.restore(snap);
      shadow.scheduler.afterTask = (t) => trail.push({ name: t.name, hash: shadow.hashHex() });
      try {
        shadow.step(buttons);
      } finally {
        shadow.scheduler.afterTask = null;
      }
      return trail;
    };
    const a = run();
    const b = run();
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i]!.name !== b[i]!.name || a[i]!.hash !== b[i]!.hash) return a[i]!.name;
    return a.length !== b.length ? (a[Math.min(a.length, b.length)] ?? b[Math.min(a.length, b.length)])!.name : null;
  }
}
