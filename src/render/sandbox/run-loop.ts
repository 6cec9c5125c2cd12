/**
 * The page's run loop, without any DOM: each animation frame asks the SimClock how many simulation frames it
 * owes (a few at most, so a slow machine slows the game down rather than spiral), steps them (the keyboard's
 * buttons live, the recorded ones in a replay, which pauses at its end), checks a loaded replay ahead of
 * playback, and has the page draw. It also measures what the status panel shows: render frames per second and
 * the last step's cost; and paces the player's footsteps.
 *
 * No DOM or pixi.js here: Node tests run it on a real session with the times they choose.
 */
import { SimClock, SIM_HZ } from '../scene/sim-clock.js';
import type { SandboxSession } from './session.js';

/** Frames between footsteps while the player walks. */
export const FOOTSTEP_FRAMES = 18;
/** Replay frames checked ahead of playback per animation frame. */
export const CHECK_FRAMES_PER_TICK = 8;

/** What the loop needs of the page. */
export interface RunLoopHost {
  /** The session shown (null before the first world opens). */
  session(): SandboxSession | null;
  /** The buttons held now (live play). */
  buttons(): number;
  footstep(): void;
  /** Draws the current state (after the frame's steps). */
  draw(): void;
  /** A room's tick for this frame with the buttons held; false when the page is in no room (it steps its own world). */
  roomStep?(buttons: number): boolean;
  /** In a room: frames run even when the page was paused (every player's session must keep up). */
  inRoom?(): boolean;
}

export class RunLoop {
  paused = false;
  readonly clock = new SimClock();
  /** Render frames per second, measured over the last second. */
  fps = 0;
  /** The last simulation step's cost, milliseconds. */
  stepMs = 0;
  /** The last render's cost on the CPU, milliseconds (the page sets it: MapCanvas.measureRender). */
  renderMs = 0;
  private last = 0;
  private fpsFrames = 0;
  private fpsStart = 0;
  private lastPlayer: [number, number, number] = [NaN, NaN, NaN];
  private walkFrames = 0;

  constructor(
    private readonly host: RunLoopHost,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** One simulation frame: the keyboard's buttons live, the recorded ones in a replay. False when none ran. */
  stepOnce(): boolean {
    const s = this.host.session();
    if (!s) return false;
    const t0 = this.now();
    if (this.host.roomStep?.(this.host.buttons())) {
      this.stepMs = this.now() - t0;
      return true;
    }
    if (s.mode === 'live') s.stepLive(this.host.buttons());
    else if (!s.stepReplay()) {
      this.paused = true;
      return false;
    }
    this.stepMs = this.now() - t0;
    this.footsteps(s);
    return true;
  }

  /** The animation frame's call: a frame with the real time elapsed since the last (`draw` false: a hidden page's, not drawn). */
  tick(draw = true): void {
    const now = this.now();
    const dt = this.last ? now - this.last : 1000 / SIM_HZ;
    this.last = now;
    this.frame(dt, draw);
  }

  /** One animation frame with `dt` real milliseconds since the last: step what the clock owes, draw (unless `draw` is false). Returns frames run. */
  frame(dt: number, draw = true): number {
    const now = this.now();
    this.fpsFrames++;
    if (now - this.fpsStart >= 1000) {
      this.fps = (this.fpsFrames * 1000) / (now - this.fpsStart);
      this.fpsFrames = 0;
      this.fpsStart = now;
    }
    const s = this.host.session();
    const n = this.clock.frames(dt, (!this.paused || this.host.inRoom?.() === true) && s !== null);
    let ran = 0;
    for (; ran < n; ran++) if (!this.stepOnce()) break;
    if (ran < n) this.clock.ranFewer(n - ran);
    if (s?.mode === 'replay') s.checkAhead(CHECK_FRAMES_PER_TICK);
    if (draw) this.host.draw();
    return ran;
  }

  /** A new simulation shown: the player's last place is forgotten (a jump is no footstep). */
  forgetPlayer(): void {
    this.lastPlayer = [NaN, NaN, NaN];
  }

  /** A footstep every FOOTSTEP_FRAMES simulated frames while the player's position changes. */
  private footsteps(s: SandboxSession): void {
    const sim = s.sim;
    const P = sim.ecs.components.Position;
    const p: [number, number, number] = [P.x[sim.player]!, P.y[sim.player]!, P.z[sim.player]!];
    const l = this.lastPlayer;
    const moved = Number.isFinite(l[0]) && (p[0] !== l[0] || p[1] !== l[1] || p[2] !== l[2]);
    this.lastPlayer = p;
    if (!moved) {
      this.walkFrames = 0;
      return;
    }
    if (this.walkFrames++ % FOOTSTEP_FRAMES === 0) this.host.footstep();
  }
}
