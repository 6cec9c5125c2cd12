/**
 * What the page draws of the session shown, each frame and on each change: the map's view (made again with
 * each new simulation), the selection and hover on it, the side panels, the status and the replay bar. The
 * inspection keeps what is hovered and selected; this module tells the view and the panels about it.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { ProbeAnswer } from '../scene/inspect.js';
import { pickAt, type Inspection, type Selection } from './inspection.js';
import type { ReplayControls } from './replay-controls.js';
import type { RunLoop } from './run-loop.js';
import type { SandboxSession } from './session.js';
import type { SidePanels } from './side-panels.js';
import type { SoundPlayer } from './sound.js';
import type { StatusPanel } from './status-panel.js';
import type { ViewControls } from './view-controls.js';
import type { WorldStage } from './world-stage.js';

/** The parts the page view draws into, and what it reads. */
export interface PageViewParts {
  stage: WorldStage;
  inspection: Inspection;
  panels: SidePanels;
  status: StatusPanel;
  replayControls: ReplayControls;
  viewControls: ViewControls;
  sound: SoundPlayer;
  loop: RunLoop;
  /** The session shown, and whether a recording is ready to download. */
  session(): SandboxSession | null;
  recorded(): boolean;
  /** The selection changed: the link is written. */
  selectionChanged(): void;
  /** A frame was drawn (the link is written every so many). */
  frameDrawn(): void;
}

export class PageView {
  constructor(private readonly p: PageViewParts) {}

  get view(): WorldView | null {
    return this.p.stage.view;
  }

  /** A new view on the session's current simulation (after it was made again); `overview` starts at the whole world. */
  show(s: SandboxSession, overview: boolean): void {
    const p = this.p;
    const v = p.stage.show(s.sim, p.viewControls.settings(), overview);
    p.sound.attach(s.sim.events);
    p.loop.forgetPlayer();
    p.panels.showWorld(v);
    p.panels.relist();
    v.state = p.inspection.marks(v.sim.world);
    v.draw();
    this.updateStatus(s);
  }

  /** Sizes the map to its box (and the overview inset to the panel), and draws. */
  resize(): void {
    const v = this.p.stage.fit();
    if (v) this.p.panels.showWorld(v);
    this.draw();
  }

  /** Updates the view, the panels and the status from the current state (Pixi's ticker renders). */
  draw(): void {
    const v = this.view;
    const s = this.p.session();
    if (!v || !s) return;
    v.draw();
    this.p.inspection.refresh(v.sim);
    this.updatePanels(v, s);
    this.updateStatus(s);
    this.p.frameDrawn();
  }

  /** The hover answer at a screen point (CSS pixels on the map canvas). */
  hoverAt(sx: number, sy: number): ProbeAnswer | null {
    const v = this.view;
    const s = this.p.session();
    if (!v || !s) return null;
    const [mx, my] = v.toMap(sx, sy);
    const answer = this.p.inspection.hoverOver(v.sim.world, v.plane, sx, sy, mx, my);
    this.updatePanels(v, s);
    return answer;
  }

  /** A click at a screen point: the entity under it if any (within its drawn size), else the tile. */
  clickAt(sx: number, sy: number): Selection {
    const v = this.view;
    if (!v) return null;
    const [mx, my] = v.toMap(sx, sy);
    this.select(pickAt(v.entities, mx, my, v.camera.zoom));
    return this.p.inspection.selection;
  }

  select(sel: Selection): void {
    const p = this.p;
    p.inspection.select(sel);
    const v = this.view;
    const s = p.session();
    if (v) v.state = p.inspection.marks(v.sim.world);
    p.panels.relist();
    if (v && s) {
      p.inspection.refresh(v.sim);
      this.updatePanels(v, s);
    }
    p.selectionChanged();
  }

  /** Shows a frame of the loaded replay, or of the live run's record. */
  seek(frame: number): void {
    const s = this.p.session();
    if (!s || !s.timeline) return;
    s.seek(frame);
    this.view?.heat.reset();
    this.draw();
  }

  private updatePanels(v: WorldView, s: SandboxSession): void {
    this.p.panels.update(v, s, this.p.inspection, this.p.viewControls.legend);
  }

  private updateStatus(s: SandboxSession): void {
    const p = this.p;
    p.status.show(s, this.view, p.loop);
    p.replayControls.update({ mode: s.mode, frame: s.sim.frame, timeline: s.timeline, recording: s.recording, paused: p.loop.paused, recorded: p.recorded() });
  }
}
