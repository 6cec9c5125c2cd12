/**
 * What each page action of shortcuts.ts does (the keys and the bars' buttons share it), said in terms of the
 * page's parts; no DOM here, so Node tests run it against any host.
 */
import { RAY_DENSITIES, type RayDensity } from '../scene/view-link.js';
import { faster, slower } from '../scene/timeline.js';
import type { PageAction } from './shortcuts.js';

/** The view group's toggles and the help, as the actions use them (view-controls.ts has them). */
export interface ViewToggles {
  readonly helpShown: boolean;
  showHelp(shown: boolean): void;
  readonly heat: boolean;
  setHeat(on: boolean): void;
  readonly rays: RayDensity;
  setRays(d: RayDensity): void;
  readonly legend: boolean;
  setLegend(on: boolean): void;
  readonly overlay: boolean;
  setOverlay(on: boolean): void;
  toggleMute(): void;
  /** Walking relative to the screen (absent: the page offers none). */
  readonly screenWalk?: boolean;
  setScreenWalk?(on: boolean): void;
}

/** What the actions need of the page. */
export interface ActionHost {
  toggles: ViewToggles;
  clearSelection(): void;
  /** Ends choosing a place to send the selected agent, if it was being chosen: whether it was. */
  cancelSend(): boolean;
  paused: boolean;
  /** Steps one frame (paused) and draws it. */
  stepForward(): void;
  /** The frame shown and the end of the timeline (a replay's length, or the live run's last frame); null with no timeline. */
  replay(): { frame: number; length: number } | null;
  /** Shows a frame of the timeline (a replay's, or the live run's record). */
  seek(frame: number): void;
  speed(): number;
  setSpeed(speed: number): void;
  /** The camera shown, if any. */
  camera(): { zoomAt(factor: number): void; follow(): void } | null;
  /** The whole world again. */
  overview(): void;
  /** The view changed: the address bar shows it. */
  syncUrl(): void;
}

/** Zoom factors of the keys (the wheel uses the same). */
export const ZOOM_IN = 1.25;
export const ZOOM_OUT = 0.8;

/** The ray density after `d` (off, few, many, all, off, ...). */
export function nextRays(d: RayDensity): RayDensity {
  return RAY_DENSITIES[(RAY_DENSITIES.indexOf(d) + 1) % RAY_DENSITIES.length]!;
}

export function runAction(a: PageAction, host: ActionHost): void {
  const r = host.replay();
  const t = host.toggles;
  switch (a) {
    case 'help':
      t.showHelp(!t.helpShown);
      break;
    case 'close':
      // One thing a press: the help, else choosing where to send (the agent stays selected), else the selection.
      if (t.helpShown) t.showHelp(false);
      else if (!host.cancelSend()) host.clearSelection();
      break;
    case 'pause':
      host.paused = !host.paused;
      break;
    case 'step-forward':
      host.stepForward();
      break;
    case 'step-back':
      if (r && r.frame > 0) {
        host.paused = true;
        host.seek(r.frame - 1);
      }
      break;
    case 'slower':
      host.setSpeed(slower(host.speed()));
      break;
    case 'faster':
      host.setSpeed(faster(host.speed()));
      break;
    case 'first-frame':
      if (r) host.seek(0);
      break;
    case 'last-frame':
      if (r) host.seek(r.length);
      break;
    case 'zoom-in':
      host.camera()?.zoomAt(ZOOM_IN);
      break;
    case 'zoom-out':
      host.camera()?.zoomAt(ZOOM_OUT);
      break;
    case 'overview':
      host.overview();
      break;
    case 'follow':
      host.camera()?.follow();
      break;
    case 'legend':
      t.setLegend(!t.legend);
      break;
    case 'heat':
      t.setHeat(!t.heat);
      break;
    case 'rays':
      t.setRays(nextRays(t.rays));
      break;
    case 'overlay':
      t.setOverlay(!t.overlay);
      break;
    case 'mute':
      t.toggleMute();
      break;
    case 'walk-mode':
      t.setScreenWalk?.(!t.screenWalk);
      break;
  }
  host.syncUrl();
}
