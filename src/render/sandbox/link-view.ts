/**
 * The link's view applied to the first world opened: the camera, the selection (refused in the banner when
 * the world has no such entity), follow, the speed, the view group's toggles, and a note when the link names a
 * replay frame that waits for its file.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { ViewLink } from '../scene/view-link.js';
import type { BannerMessages } from './banner-state.js';
import type { Selection } from './inspection.js';
import { linkCamera, linkScale, type PendingFrame } from './link-state.js';
import type { ViewControls } from './view-controls.js';

/** What applying the link's view reaches of the page. */
export interface LinkViewParts {
  select(sel: Selection): void;
  setSpeed(speed: number): void;
  viewControls: ViewControls;
  /** The legend shown or hidden as its checkbox says. */
  showLegend(on: boolean): void;
  messages: BannerMessages;
}

export function applyLinkView(l: ViewLink, v: WorldView, waiting: PendingFrame | null, p: LinkViewParts): void {
  const cam = linkCamera(l, v.camera, v.plane, linkScale(v.sim.world));
  if (cam) v.camera.setView(cam.cx, cam.cy, cam.zoom);
  if (l.sel !== undefined) {
    const alive = v.sim.ecs.alive;
    if (l.sel < alive.length && alive[l.sel]) p.select({ kind: 'entity', id: l.sel });
    else p.messages.reportLink(`bad link parameter sel=${l.sel}: no such entity in this world; nothing is selected`);
  }
  if (l.follow) v.camera.follow();
  if (l.speed !== undefined) p.setSpeed(l.speed);
  const vc = p.viewControls;
  if (l.legend === false) vc.setLegend(false);
  p.showLegend(vc.legend);
  if (l.overlay === false) vc.setOverlay(false);
  if (l.sight === false) vc.setSight(false);
  if (waiting) p.messages.info = `This link shows frame ${waiting.frame} of ${waiting.replay ?? 'the replay'}: drop that replay file on the page to open it there.`;
}
