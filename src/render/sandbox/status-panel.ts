/**
 * The status panel: the lines of status-lines.ts from the session, the view and the run loop, rebuilt only
 * when their text changes; falling behind stands out.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { RunLoop } from './run-loop.js';
import type { SandboxSession } from './session.js';
import { BEHIND, statusLines, type StatusInput } from './status-lines.js';

/** The status panel's numbers now. */
export function statusInput(s: SandboxSession, v: WorldView | null, loop: RunLoop): StatusInput {
  const sim = s.sim;
  return {
    world: s.opened.world,
    ambience: v?.ambience ?? null,
    weather: v?.lastAmbient?.counts ?? null,
    frame: sim.frame,
    mode: s.mode,
    recording: s.recording,
    replayLength: s.replayLength,
    fps: loop.fps,
    stepMs: loop.stepMs,
    drawMs: v?.lastDrawMs ?? 0,
    paused: loop.paused,
    speed: loop.clock.speed,
    clock: loop.clock.report(),
    hash: s.hash,
    fieldrand: sim.rng.fieldrand.count,
    ccrand: sim.rng.ccrand.draws,
    agents: sim.agentsPlaced,
    divergence: s.divergence,
    check: s.check ? { frame: s.check.frame, done: s.check.done } : null,
  };
}

export class StatusPanel {
  constructor(private readonly box: HTMLElement) {}

  /** Shows the status of `s` (its view `v`, run by `loop`). */
  show(s: SandboxSession, v: WorldView | null, loop: RunLoop): void {
    this.update(statusLines(statusInput(s, v, loop)));
  }

  update(lines: readonly string[]): void {
    const key = lines.join('\n');
    if (this.box.dataset['text'] === key) return;
    this.box.dataset['text'] = key;
    this.box.replaceChildren(
      ...lines.flatMap((l, i) => {
        const span = document.createElement('span');
        span.textContent = l;
        if (l.startsWith(BEHIND)) span.className = 'behind';
        return i ? [document.createTextNode('\n'), span] : [span];
      }),
    );
  }
}
