/**
 * The status in the side panel, from the session, the view and the run loop (status-lines.ts says what): the
 * world and what the session does in plain words, the determinism numbers in a panel of their own (folded until
 * asked for), and a quiet indicator in the bar when the machine cannot keep the asked speed. Each part is
 * rebuilt only when its text changes.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { RunLoop } from './run-loop.js';
import type { SandboxSession } from './session.js';
import { behindCause, behindNote, determinismRows, statusSummary, type StatusInput } from './status-lines.js';

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
    renderMs: loop.renderMs,
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

/** Where the status is shown. */
export interface StatusElements {
  world: HTMLElement;
  session: HTMLElement;
  /** The determinism panel's body (a table of rows). */
  numbers: HTMLElement;
  /** The behind indicator (hidden while the game keeps up). */
  paceDot: HTMLElement;
}

/** Sets `el`'s content with `fill` only when `key` differs from what it shows. */
function once(el: HTMLElement, key: string, fill: () => void): void {
  if (el.dataset['text'] === key) return;
  el.dataset['text'] = key;
  fill();
}

/** The weight of the newest frame in the costs the behind note's cause is judged on (a moving average). */
export const COST_WEIGHT = 0.25;

export class StatusPanel {
  /** The page's costs averaged over the last frames: one slow frame (a world just opened) is not the cause. */
  private readonly cost = { stepMs: NaN, drawMs: NaN, renderMs: NaN };

  constructor(private readonly el: StatusElements) {}

  /** Shows the status of `s` (its view `v`, run by `loop`). */
  show(s: SandboxSession, v: WorldView | null, loop: RunLoop): void {
    this.update(statusInput(s, v, loop));
  }

  update(input: StatusInput): void {
    const { world, session, numbers, paceDot } = this.el;
    const sum = statusSummary(input);
    once(world, sum.world, () => (world.textContent = sum.world));
    once(session, `${sum.alarm}:${sum.session}`, () => {
      session.textContent = sum.session;
      session.classList.toggle('alarm', sum.alarm);
    });
    const c = this.cost;
    for (const k of ['stepMs', 'drawMs', 'renderMs'] as const) c[k] = Number.isFinite(c[k]) ? c[k] + COST_WEIGHT * (input[k] - c[k]) : input[k];
    const cause = input.clock.behind ? behindCause({ ...c, clock: input.clock }) : undefined;
    const rows = determinismRows(input, cause);
    // The table is made again only when its rows change; each frame only sets the values that changed.
    once(numbers, rows.map((r) => r.label).join('\n'), () => {
      const t = document.createElement('table');
      for (const r of rows) {
        const tr = document.createElement('tr');
        const k = document.createElement('td');
        k.textContent = r.label;
        tr.append(k, document.createElement('td'));
        t.append(tr);
      }
      numbers.replaceChildren(t);
    });
    const trs = numbers.querySelectorAll('tr');
    rows.forEach((r, i) => {
      const tr = trs[i]!;
      const cell = tr.lastElementChild!;
      if (cell.textContent !== r.value) cell.textContent = r.value;
      if (tr.classList.contains('alarm') !== !!r.alarm) tr.classList.toggle('alarm', !!r.alarm);
    });
    const note = behindNote(input.paused, input.speed, input.clock, cause);
    once(paceDot, note ?? '', () => {
      paceDot.hidden = note === null;
      paceDot.title = note ?? '';
      paceDot.setAttribute('aria-label', note ?? '');
    });
  }
}
