/**
 * How many simulation frames to run per animation frame, and whether the game keeps up. The simulation runs
 * at a fixed rate of simulated time (60 frames per second times the playback speed); each animation frame
 * adds its real elapsed time and runs the whole frames it owes, at most `maxCatchUp` of them. Time beyond
 * that is dropped, so a slow machine slows the game down instead of spiralling, and the drop is counted:
 * over the last window of real time, `report()` gives the simulated rate against the target, and `behind`
 * when it falls short, so the page can say so rather than run slow silently.
 *
 * Fed only the numbers it is given (tests give it exact ones); it keeps no clock of its own.
 */

/** Simulated frames per second at speed 1. */
export const SIM_HZ = 60;
/** Most simulation frames run in one animation frame at speed 1 (times the speed above 1). */
export const MAX_CATCH_UP = 4;
/** Real milliseconds over which the achieved rate is measured. */
export const RATE_WINDOW_MS = 1000;
/** Below this share of the target rate, the game is reported behind. */
export const BEHIND_RATIO = 0.95;
/** A pause longer than this (a hidden tab) is not counted as owed time. */
export const MAX_FRAME_GAP_MS = 250;

export interface ClockReport {
  /** Simulated frames per second asked for (SIM_HZ × speed). */
  target: number;
  /** Simulated frames per second run over the window. */
  achieved: number;
  /** achieved / target (1 when nothing was asked: paused). */
  ratio: number;
  behind: boolean;
  /** Real milliseconds the window covers. */
  windowMs: number;
  /** Mean real milliseconds between two animation frames over the window (0: none yet). */
  frameMs: number;
  /** Mean simulation frames run per animation frame over the window. */
  ranPerFrame: number;
}

export class SimClock {
  speed = 1;
  private owed = 0;
  // The window: per animation frame, its real milliseconds, frames run, frames asked for.
  private readonly ms: number[] = [];
  private readonly ran: number[] = [];
  private readonly asked: number[] = [];
  private sumMs = 0;
  private sumRan = 0;
  private sumAsked = 0;

  constructor(
    readonly hz = SIM_HZ,
    readonly maxCatchUp = MAX_CATCH_UP,
  ) {}

  /**
   * Called once per animation frame with the real milliseconds since the last: how many simulation frames to
   * run now. `running` false (paused) owes nothing.
   */
  frames(elapsedMs: number, running: boolean): number {
    const dt = Math.max(0, Math.min(MAX_FRAME_GAP_MS, Number.isFinite(elapsedMs) ? elapsedMs : 0));
    if (!running) {
      this.owed = 0;
      this.record(dt, 0, 0);
      return 0;
    }
    const step = 1000 / (this.hz * this.speed);
    this.owed += dt;
    const due = Math.floor(this.owed / step + 1e-9);
    // The cap grows with the speed: 8× owes eight frames per animation frame at 60 of them a second.
    const n = Math.min(due, Math.ceil(this.maxCatchUp * Math.max(1, this.speed)));
    this.owed -= n * step;
    // Time beyond the catch-up limit is dropped (the game runs slow), not kept owing.
    if (due > n) this.owed = 0;
    this.record(dt, n, dt / step);
    return n;
  }

  /** Tells the clock that fewer frames than asked were run (a replay ended, a step failed). */
  ranFewer(by: number): void {
    if (this.ran.length) {
      this.ran[this.ran.length - 1]! -= by;
      this.sumRan -= by;
    }
  }

  private record(ms: number, ran: number, asked: number): void {
    this.ms.push(ms);
    this.ran.push(ran);
    this.asked.push(asked);
    this.sumMs += ms;
    this.sumRan += ran;
    this.sumAsked += asked;
    while (this.ms.length > 1 && this.sumMs - this.ms[0]! >= RATE_WINDOW_MS) {
      this.sumMs -= this.ms.shift()!;
      this.sumRan -= this.ran.shift()!;
      this.sumAsked -= this.asked.shift()!;
    }
  }

  report(): ClockReport {
    const target = this.hz * this.speed;
    const windowMs = this.sumMs;
    const achieved = windowMs > 0 ? (this.sumRan * 1000) / windowMs : 0;
    // Asked for is what real time owed (not what the catch-up limit let through).
    const ratio = this.sumAsked > 0 ? Math.min(1, this.sumRan / this.sumAsked) : 1;
    const frames = this.ms.length;
    return { target, achieved, ratio, behind: windowMs >= RATE_WINDOW_MS / 2 && this.sumAsked > 0 && ratio < BEHIND_RATIO, windowMs, frameMs: frames ? windowMs / frames : 0, ranPerFrame: frames ? this.sumRan / frames : 0 };
  }

  /** Forgets the window and what is owed (a new world, a seek). */
  reset(): void {
    this.owed = 0;
    this.ms.length = this.ran.length = this.asked.length = 0;
    this.sumMs = this.sumRan = this.sumAsked = 0;
  }
}
