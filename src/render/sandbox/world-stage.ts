/**
 * The world on the map: the Pixi view of the shown simulation, made again whenever the simulation is (a new
 * world, a restart, a replay loaded), keeping the camera where the user left it unless asked to show the
 * whole world.
 */
import type { Simulation } from '../../sim/simulation.js';
import { WorldView } from '../pixi/world-view.js';
import type { RayDensity } from '../scene/view-link.js';
import type { MapCanvas } from './map-canvas.js';

/** What the view controls set for a new view. */
export interface ViewSettings {
  sight: boolean;
  overlay: boolean;
  rays: RayDensity;
  heat: boolean;
}

export class WorldStage {
  view: WorldView | null = null;

  constructor(private readonly map: MapCanvas) {}

  /** Sizes the map to its box and the view to the map; the view, if any. */
  fit(): WorldView | null {
    const { width, height, dpr } = this.map.fit();
    this.view?.resize(width, height, dpr);
    return this.view;
  }

  /** A new view on `sim`; `overview` starts it showing the whole world, else it keeps the old view's camera. */
  show(sim: Simulation, settings: ViewSettings, overview: boolean): WorldView {
    const app = this.map.app;
    const old = this.view;
    const cam = old && !overview ? { cx: old.camera.cx, cy: old.camera.cy, zoom: old.camera.zoom, framed: old.camera.framed, following: old.camera.following } : null;
    if (old) {
      app.stage.removeChild(old.stage);
      old.destroy();
    }
    const v = new WorldView(sim, Math.max(1, app.screen.width), Math.max(1, app.screen.height), {
      showSight: settings.sight,
      showOverlay: settings.overlay,
      resolution: this.map.dpr,
      rays: settings.rays,
      // The canvas renderer copies pre-drawn arrow stamps (the cheapest a software canvas draws); the GPU ones batch sprites.
      bodies: this.map.rendererName === 'canvas' ? 'stamps' : 'sprites',
    });
    v.heatOn = settings.heat;
    if (cam && !cam.framed) {
      v.camera.setView(cam.cx, cam.cy, cam.zoom);
      if (cam.following) v.camera.follow();
    }
    app.stage.addChild(v.stage);
    this.view = v;
    return v;
  }
}
