/**
 * The view group of the top bar: sight rays, the heat map, the overlay, sight, the legend, sound, Overview,
 * Follow and the help. It keeps what they are set to (for new views and for the link) and applies a change to
 * the view shown; the help overlay opens and closes here too.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { RayDensity } from '../scene/view-link.js';
import { $ } from './dom.js';
import type { ViewSnapshot } from './link-state.js';
import type { ViewToggles } from './page-actions.js';
import type { PageAction } from './shortcuts.js';
import type { ViewSettings } from './world-stage.js';

/** What the view group asks of the page. */
export interface ViewControlsHost {
  /** The view shown, if any. */
  view(): WorldView | null;
  setMuted(on: boolean): void;
  /** A button's page action (Overview, Follow, ?). */
  action(a: PageAction): void;
  focusMap(): void;
  syncUrl(): void;
}

const checkbox = (id: string): HTMLInputElement => $<HTMLInputElement>(id);

export class ViewControls implements ViewToggles {
  heat: boolean;
  rays: RayDensity;
  private readonly raysMenu = $<HTMLSelectElement>('rays');
  private readonly heatBox = checkbox('heat');
  private readonly overlayBox = checkbox('overlay');
  private readonly sightBox = checkbox('sight');
  private readonly legendBox = checkbox('legend-on');
  private readonly muteBox = checkbox('mute');
  private readonly screenWalkBox = checkbox('screen-walk');
  private readonly help = $('help-overlay');

  constructor(
    initial: { heat: boolean; rays: RayDensity; muted: boolean },
    private readonly host: ViewControlsHost,
  ) {
    this.heat = initial.heat;
    this.rays = initial.rays;
    this.raysMenu.value = this.rays;
    this.raysMenu.addEventListener('change', () => {
      this.setRays(this.raysMenu.value as RayDensity);
      host.focusMap();
      host.syncUrl();
    });
    this.heatBox.checked = this.heat;
    this.heatBox.addEventListener('change', () => {
      this.setHeat(this.heatBox.checked);
      host.focusMap();
      host.syncUrl();
    });
    $('overview').addEventListener('click', () => host.action('overview'));
    $('follow').addEventListener('click', () => host.action('follow'));
    $('help').addEventListener('click', () => host.action('help'));
    this.help.addEventListener('click', () => {
      this.help.hidden = true;
    });
    this.screenWalkBox.addEventListener('change', () => host.focusMap());
    this.muteBox.checked = initial.muted;
    this.muteBox.addEventListener('change', () => host.setMuted(this.muteBox.checked));
    this.sightBox.addEventListener('change', () => {
      const v = host.view();
      if (v) v.showSight = this.sightBox.checked;
    });
    this.overlayBox.addEventListener('change', () => host.view()?.setOverlayVisible(this.overlayBox.checked));
  }

  /** What a new view starts with. */
  settings(): ViewSettings {
    return { sight: this.sightBox.checked, overlay: this.overlayBox.checked, rays: this.rays, heat: this.heat };
  }

  /** What the link records of the view group. */
  linkPart(): Pick<ViewSnapshot, 'heat' | 'rays' | 'overlay' | 'sight' | 'legend'> {
    return { heat: this.heat, rays: this.rays, overlay: this.overlay, sight: this.sight, legend: this.legend };
  }

  get overlay(): boolean {
    return this.overlayBox.checked;
  }

  get sight(): boolean {
    return this.sightBox.checked;
  }

  /** Whether ↑ walks up the screen (screen-walk.ts) rather than along the player's heading. */
  get screenWalk(): boolean {
    return this.screenWalkBox.checked;
  }

  setScreenWalk(on: boolean): void {
    this.screenWalkBox.checked = on;
  }

  get legend(): boolean {
    return this.legendBox.checked;
  }

  get helpShown(): boolean {
    return !this.help.hidden;
  }

  showHelp(shown: boolean): void {
    this.help.hidden = !shown;
  }

  setHeat(on: boolean): void {
    this.heat = on;
    this.heatBox.checked = on;
    const v = this.host.view();
    if (v) v.heatOn = on;
  }

  setRays(d: RayDensity): void {
    this.rays = d;
    this.raysMenu.value = d;
    const v = this.host.view();
    if (v) v.rays = d;
  }

  setOverlay(on: boolean): void {
    this.overlayBox.checked = on;
    this.host.view()?.setOverlayVisible(on);
  }

  setSight(on: boolean): void {
    this.sightBox.checked = on;
    const v = this.host.view();
    if (v) v.showSight = on;
  }

  setLegend(on: boolean): void {
    this.legendBox.checked = on;
  }

  toggleMute(): void {
    this.muteBox.checked = !this.muteBox.checked;
    this.host.setMuted(this.muteBox.checked);
  }
}
