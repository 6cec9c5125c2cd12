/**
 * The Pixi top-down view of a running simulation: it reads the simulation each drawn frame and puts its layers
 * together, bottom to top. Static layers (the ground, a raster of the world's own queries; the format's
 * overlay; the time of day's tint) are drawn into tiles per zoom level and only blitted each frame
 * (ground-tiles.ts). Per frame, on the map: the heat map (when on) and the selected tile's highlight (drawn
 * here), the overlay's markers, sight (sight-lines.ts), the agents (agent-bodies.ts), the weather's small
 * items (weather-layer.ts), the selection's ring, then the planned path, the trail, the falling and seat
 * marks (selection-marks.ts) and the player last with a halo; above the map the weather's sky items (the bolt
 * and the traveller pulled to the edge of the view when they are outside it) and the storm's flash. This
 * file holds the camera and the map's projection on screen, and which layer shows.
 *
 * The camera opens framing the whole world, or, for a world too large to read whole (fewer than
 * OPENING_PIXELS_PER_METRE screen pixels per metre), a closer view about the player. The view reads the
 * simulation (component arrays, world data, the weather's operation list, the event bus) and never writes it.
 */
import { CanvasSource, Container, Graphics, Sprite, Text, Texture } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import type { AmbientFrame } from '../scene/ambient-ops.js';
import { Camera, FRAME_MARGIN, OPENING_PIXELS_PER_METRE } from '../scene/camera.js';
import { newEntityFrame, readEntities, type EntityFrame } from '../scene/entities.js';
import { ViewerSight } from '../scene/viewer-sight.js';
import { rasterizeGround, type GroundRaster } from '../scene/ground-raster.js';
import { probeHeight, samplerFor } from '../scene/ground-sampler.js';
import { VisibilityHeatMap } from '../scene/heat-map.js';
import type { Highlight } from '../scene/inspect.js';
import { overlayFor, type Overlay } from '../scene/overlays.js';
import { ENTITY_COLOURS, heatColour } from '../scene/palette.js';
import type { RoomSeats } from '../scene/seat-labels.js';
import { PathTrail } from '../scene/path-trail.js';
import { mapPlaneOf, mapRectOf, type MapPlane, type MapRect } from '../scene/projection.js';
import { SightProbe } from '../scene/sight-probe.js';
import type { RayDensity } from '../scene/view-link.js';
import { fieldAmbience, type FieldAmbience, type WeatherKind } from '../scene/weather-look.js';
import { AgentBodies } from './agent-bodies.js';
import { GroundTiles } from './ground-tiles.js';
import { SelectionMarks } from './selection-marks.js';
import { SightLines } from './sight-lines.js';
import { WeatherLayer } from './weather-layer.js';

export { MIN_ENTITY_PIXELS } from './entity-size.js';
export { exitFraction, MAX_SIGHT_RAYS, RAYS_BY_DENSITY } from './sight-lines.js';

/** How a view is made: the ground raster's size, the layers shown, the device resolution, the rays' density. */
export interface ViewOptions {
  /** Pixels along the longer side of the ground raster (default: 1024 for a Piney field, 512 otherwise). */
  rasterSize?: number;
  /** Draw the agents' sight lines and facing rays (default true). */
  showSight?: boolean;
  /** Draw the format's overlay and its labels (default true). */
  showOverlay?: boolean;
  /** Device pixels per CSS pixel the renderer draws at (the page's devicePixelRatio; default 1). */
  resolution?: number;
  /** Sight rays drawn for the agents that are not selected (default "few"). */
  rays?: RayDensity;
  /**
   * How the agents are drawn: "stamps" (for the canvas renderer: each arrow copied from a sheet drawn once
   * per size, its facing rounded to 5.6°, its place to a whole device pixel; on another renderer the view
   * falls back to sprites from its next frame), "paths" (a filled path each, in three colour groups) or
   * "sprites" (a tinted arrow sprite each: batched on the GPU renderers). Default "paths".
   */
  bodies?: 'paths' | 'sprites' | 'stamps';
}

/** What the view shows besides the world, set by the page. */
export interface ViewState {
  /** The selected entity (−1 none). */
  selected: number;
  /** The selected tile's highlights (map coordinates). */
  highlights: Highlight[];
}


export class WorldView {
  /** The view's root: add it to the application's stage. */
  readonly stage = new Container();
  /** The camera (starts framing the whole world). */
  readonly camera: Camera;
  /** The world's map plane. */
  readonly plane: MapPlane;
  /** The ground raster the tiles are drawn from. */
  readonly raster: GroundRaster;
  /** The format's overlay shapes and markers. */
  readonly overlay: Overlay;
  /** The world's rectangle on the map. */
  readonly rect: MapRect;
  /** The field's weather and time of day (null when the scenario installed none). */
  readonly ambience: FieldAmbience | null;
  /** @internal The static layers' tiles (the sandbox's status reads how many are kept and drawn). */
  readonly tiles: GroundTiles;
  /** The visibility heat map (computed while `heatOn`). */
  readonly heat: VisibilityHeatMap;
  /** The selected entity's rays, cast each drawn frame. */
  readonly probe = new SightProbe();
  private readonly map = new Container();
  private readonly markerLayer = new Container();
  private readonly heatSprite: Sprite;
  private heatCanvas: HTMLCanvasElement | null = null;
  private heatTexture: Texture | null = null;
  private readonly highlight = new Graphics();
  /** The weather's items on the map, its sky items and the flash (weather-layer.ts). */
  private readonly weather: WeatherLayer;
  /** The sight rays and lines (sight-lines.ts). */
  private readonly sight: SightLines;
  /** The agents in their way of drawing, and the player (agent-bodies.ts). */
  private readonly agents: AgentBodies;
  /** The selection's, the falling bodies' and the seats' marks (selection-marks.ts). */
  private readonly marks: SelectionMarks;
  private readonly top = new Container();
  /** Whether the selected entity's path trail is drawn (the inspector's button). */
  trailOn = false;
  /** The selected entity's last positions, when its trail is drawn. */
  readonly trail = new PathTrail();
  /** Map points of the planned path last drawn (x0, y0, x1, y1, ...; empty: none), for tests and the page. */
  planned: readonly number[] = [];
  /** Who holds each seat of a room shown (names, hidden tabs): a label over each seat's player, in its colour. */
  roomSeats: () => RoomSeats | null = () => null;
  /** The entity the camera follows and draws as the player: in a room, the page's own seat's. */
  you: number;
  /** The entities as the last draw read them. */
  readonly entities: EntityFrame;
  private readonly idScratch = { ids: new Uint32Array(64) };
  /** Who sees this page's player when it is not seat 1's (in a room). */
  private readonly viewerSight = new ViewerSight();
  private readonly indexOfId: Int32Array;
  private highlightKey = '';
  private resolution: number;
  /** Draw the other agents' sight lines and facing rays. */
  showSight: boolean;
  /** How many of those rays a frame draws. */
  rays: RayDensity;
  /** Compute and draw the heat map. */
  heatOn = false;
  /** The selection the page set. */
  state: ViewState = { selected: -1, highlights: [] };
  /** The entity the keyboard points at (−1 none): ringed in the keyboard's colour until Enter inspects it. */
  pointed = -1;
  /** The other agents' sight lines and facing rays the last draw drew. */
  linesDrawn = 0;
  /** The last drawn weather frame (for the HUD and tests). */
  lastAmbient: AmbientFrame | null = null;
  /** Every weather kind drawn since the view was made (for the legend). */
  readonly weatherSeen = new Set<WeatherKind>();
  /** Whether a falling body has been drawn since this view opened (the legend then explains its mark). */
  fallingSeen = false;
  /** What the last draw put on screen, for the tests: sky items pulled to the edge, the flash's alpha. */
  lastSky: { bolt: boolean; boltClamped: boolean; traveller: boolean; travellerClamped: boolean; flash: number } = { bolt: false, boltClamped: false, traveller: false, travellerClamped: false, flash: 0 };
  /** Milliseconds the last `draw` took on the CPU side (reading the state and building the scene). */
  lastDrawMs = 0;

  constructor(
    readonly sim: Simulation,
    width: number,
    height: number,
    options: ViewOptions = {},
  ) {
    const world: CollisionWorld = sim.world;
    this.plane = mapPlaneOf(world);
    this.resolution = options.resolution ?? 1;
    this.camera = new Camera(width, height);
    this.showSight = options.showSight ?? true;
    this.rays = options.rays ?? 'few';
    const smooth = world.kind === 'piney' || world.kind === 'gta' || world.kind === 'colbin';
    // The picture asks from where the inspector asks (probeHeight), so the two agree at every point.
    this.raster = rasterizeGround(world, { maxSize: options.rasterSize ?? (world.kind === 'piney' ? 1024 : 512), edges: false, sampler: samplerFor(world, probeHeight(world, this.plane)) });
    this.rect = mapRectOf(this.plane, world.bounds) ?? { x: 0, y: 0, width: 1, height: 1 };
    this.overlay = overlayFor(world);
    this.ambience = fieldAmbience(sim);
    this.tiles = new GroundTiles(this.raster, this.overlay, this.rect, { smooth, tint: this.ambience?.tint ?? { colour: 0, alpha: 0 } });
    this.heat = new VisibilityHeatMap(world);
    this.heatSprite = new Sprite(Texture.EMPTY);
    this.heatSprite.visible = false;
    this.you = sim.player;
    const capacity = sim.ecs.components.capacity;
    this.entities = newEntityFrame(capacity);
    this.indexOfId = new Int32Array(capacity).fill(-1);
    this.agents = new AgentBodies(this.entities, this.camera, capacity, options.bodies ?? 'paths');
    this.marks = new SelectionMarks(sim, this.plane, this.camera, this.indexOfId, this.top);
    this.top.addChild(this.marks.planLine, this.marks.trailLine, this.marks.fallMarks, this.marks.seatRings, this.agents.playerHalo, this.agents.playerSprite);
    this.sight = new SightLines(sim, this.plane, this.rect, this.camera, this.probe, this.indexOfId);
    this.weather = new WeatherLayer(sim, this.plane, this.camera, (x, y) => this.toScreen(x, y));
    const a = this.agents;
    this.map.addChild(this.heatSprite, this.highlight, this.markerLayer, this.sight.graphics, a.bodies, a.bodySprites, a.bodyStamps, this.weather.weather, this.marks.selectRing, this.top);
    this.stage.addChild(this.tiles.layer, this.map, this.weather.sky, this.weather.flash);
    this.camera.maxZoomFloor = 400 / (world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1);
    this.openingView();
    this.drawMarkers(this.overlay);
    this.setOverlayVisible(options.showOverlay ?? true);
  }

  /**
   * The view a world opens at: framed whole when that shows at least OPENING_PIXELS_PER_METRE screen pixels
   * per metre, else at that zoom about the player (kept inside the world), so agents and their sight read.
   */
  openingView(): void {
    const r = this.rect;
    const e = readEntities(this.sim, this.plane, this.entities, this.idScratch);
    let at: [number, number] = [r.x + r.width / 2, r.y + r.height / 2];
    for (let i = 0; i < e.count; i++) if (e.ids[i] === this.sim.player) at = [e.x[i]!, e.y[i]!];
    const scale = this.sim.world.scale > 0 && Number.isFinite(this.sim.world.scale) ? this.sim.world.scale : 1;
    this.camera.fit(r.x, r.y, r.width, r.height, FRAME_MARGIN, { zoom: OPENING_PIXELS_PER_METRE / scale, at });
  }

  /** Frames the whole world (the overview): fit to the screen, centred, with margins. */
  frameWorld(): void {
    const r = this.rect;
    this.camera.fit(r.x, r.y, r.width, r.height, FRAME_MARGIN);
  }

  private drawMarkers(o: Overlay): void {
    for (const m of o.markers) {
      const t = new Text({ text: m.label, resolution: Math.max(1, this.resolution), style: { fill: m.colour, fontSize: 13, fontFamily: 'monospace', stroke: { color: 0x000000, width: 3 } } });
      t.anchor.set(0.5, 1.2);
      t.position.set(m.x, m.y);
      this.markerLayer.addChild(t);
      const dot = new Graphics().circle(0, 0, 4).fill({ color: m.colour }).stroke({ color: 0x000000, width: 1 });
      dot.position.set(m.x, m.y);
      this.markerLayer.addChild(dot);
    }
  }

  /** Shows or hides one layer: ground, overlay, markers, weather, sight, bodies or heat. */
  setLayerVisible(name: string, on: boolean): void {
    if (name === 'overlay') return this.setOverlayVisible(on);
    if (name === 'heat') {
      this.heatOn = on;
      return;
    }
    const layers: Record<string, Container> = {
      ground: this.tiles.layer,
      markers: this.markerLayer,
      weather: this.weather.weather,
      sight: this.sight.graphics,
      bodies: this.agents.layer(),
    };
    const l = layers[name];
    if (!l) throw new RangeError(`no layer ${JSON.stringify(name)} (layers: ground, overlay, ${Object.keys(layers).slice(1).join(', ')}, heat)`);
    l.visible = on;
  }

  /** The screen's new CSS size and device pixel ratio. */
  resize(width: number, height: number, resolution = this.resolution): void {
    this.resolution = resolution;
    this.camera.resize(width, height);
  }

  /** Shows or hides the format overlay and its markers (the tiles are drawn again with or without it). */
  setOverlayVisible(on: boolean): void {
    this.tiles.setOverlayVisible(on);
    this.markerLayer.visible = on;
  }

  get overlayVisible(): boolean {
    return this.markerLayer.visible;
  }

  /** An entity's map position (NaN when it has none in the last read). */
  positionOf(id: number): [number, number] {
    const i = id >= 0 && id < this.indexOfId.length ? this.indexOfId[id]! : -1;
    return i >= 0 ? [this.entities.x[i]!, this.entities.y[i]!] : [NaN, NaN];
  }

  /** The player's map position (in a room, this page's seat's; NaN when there is none). */
  playerPosition(): [number, number] {
    return this.positionOf(this.you);
  }

  /** The device-pixel offset the map plane is drawn at: whole device pixels, so tiles blit exactly. */
  private deviceOffset(): [number, number] {
    const cam = this.camera;
    const d = this.resolution;
    const k = cam.zoom * d;
    return [Math.round((cam.width * d) / 2 - cam.cx * k), Math.round((cam.height * d) / 2 - cam.cy * k)];
  }

  /** Map point → screen CSS pixel as drawn (the rounded offset). */
  toScreen(x: number, y: number): [number, number] {
    const [ox, oy] = this.deviceOffset();
    const d = this.resolution;
    return [x * this.camera.zoom + ox / d, y * this.camera.zoom + oy / d];
  }

  /** Screen CSS pixel → map point as drawn. */
  toMap(sx: number, sy: number): [number, number] {
    const [ox, oy] = this.deviceOffset();
    const d = this.resolution;
    return [(sx - ox / d) / this.camera.zoom, (sy - oy / d) / this.camera.zoom];
  }

  /** Reads the simulation's current state and updates every per-frame layer. */
  draw(): void {
    const t0 = performance.now();
    const sim = this.sim;
    const e = readEntities(sim, this.plane, this.entities, this.idScratch);
    // in a room seated elsewhere than seat 1, who sees this page's player (viewer-sight.ts)
    if (this.you !== sim.player) this.viewerSight.seenBy(sim, this.you, e);
    this.indexOfId.fill(-1);
    for (let i = 0; i < e.count; i++) this.indexOfId[e.ids[i]!] = i;
    const cam = this.camera;
    const sel = this.state.selected;
    const follow = sel >= 0 && this.indexOfId[sel]! >= 0 ? sel : this.you;
    const [fx, fy] = this.positionOf(follow);
    cam.track(fx, fy);
    const [ox, oy] = this.deviceOffset();
    const d = this.resolution;
    this.tiles.update(cam.zoom, d, ox, oy, cam.width, cam.height);
    this.map.scale.set(cam.zoom);
    this.map.position.set(ox / d, oy / d);
    // Labels and marker dots keep their screen size.
    for (const c of this.markerLayer.children) c.scale.set(1 / cam.zoom);
    this.drawHeat();
    this.drawHighlight();
    this.drawBodies(e);
    this.linesDrawn = this.sight.draw(e, this.state.selected, this.showSight, this.rays);
    const [pxm, pym] = this.playerPosition();
    const a = this.weather.draw(pxm, pym, this.lastSky, this.weatherSeen);
    if (a !== undefined) this.lastAmbient = a;
    this.lastDrawMs = performance.now() - t0;
  }

  /** The agents and the player, then the marks over them: the seats', the selection's, the falling bodies'. */
  private drawBodies(e: EntityFrame): void {
    this.agents.draw(e, this.you);
    const seat = this.marks.drawSeats(e, this.you, this.roomSeats, this.resolution);
    if (seat !== null) this.agents.playerSprite.tint = seat;
    const sel = this.state.selected;
    this.marks.drawSelectionRing(e, sel, this.pointed, this.sim.player);
    if (this.marks.drawFalling(e, this.you)) this.fallingSeen = true;
    this.marks.drawTrail(this.trail, this.trailOn, sel, (id) => this.positionOf(id));
    this.planned = this.marks.drawPlan(sel);
  }

  private drawHeat(): void {
    if (!this.heatOn) {
      this.heatSprite.visible = false;
      return;
    }
    if (this.heat.update(this.sim) || (!this.heatCanvas && this.heat.grid)) {
      const g = this.heat.grid!;
      if (!this.heatCanvas) {
        this.heatCanvas = document.createElement('canvas');
        this.heatCanvas.width = g.cols;
        this.heatCanvas.height = g.rows;
        this.heatTexture = new Texture({ source: new CanvasSource({ resource: this.heatCanvas, scaleMode: 'nearest' }) });
        this.heatSprite.texture = this.heatTexture;
      }
      const ctx = this.heatCanvas.getContext('2d')!;
      const img = ctx.createImageData(g.cols, g.rows);
      const rgb = [0, 0, 0];
      const top = Math.max(1, g.max);
      for (let k = 0; k < g.counts.length; k++) {
        const n = g.counts[k]!;
        if (n === 0) continue;
        heatColour((n - 1) / Math.max(1, top - 1), rgb);
        img.data[k * 4] = rgb[0]!;
        img.data[k * 4 + 1] = rgb[1]!;
        img.data[k * 4 + 2] = rgb[2]!;
        img.data[k * 4 + 3] = 150;
      }
      ctx.putImageData(img, 0, 0);
      this.heatTexture!.source.update();
      this.heatSprite.position.set(g.x0, g.y0);
      this.heatSprite.scale.set(g.cell);
    }
    this.heatSprite.visible = this.heat.grid !== null;
  }

  private drawHighlight(): void {
    const hs = this.state.highlights;
    const key = `${this.camera.zoom}:${JSON.stringify(hs)}`;
    if (key === this.highlightKey) return;
    this.highlightKey = key;
    const g = this.highlight;
    g.clear();
    const w = 2 / this.camera.zoom;
    for (const h of hs) {
      if (h.kind === 'poly') g.poly(h.points, true);
      else g.circle(h.x, h.y, h.r);
      g.fill({ color: ENTITY_COLOURS.tile, alpha: 0.18 }).stroke({ color: ENTITY_COLOURS.tile, alpha: 1, width: w });
    }
  }

  /** Where seat `k`'s label is on screen (CSS pixels) and what it says; null when it is not drawn. */
  seatLabelAt(k: number): { text: string; x: number; y: number; colour: number } | null {
    const t = this.marks.seatLabel(k);
    if (!t) return null;
    const [x, y] = this.toScreen(t.position.x, t.position.y);
    return { text: t.text, x, y, colour: Number(t.style.fill) };
  }

  /** Frees the view's display objects and its own textures, and stops listening to the event bus. */
  destroy(): void {
    this.weather.destroy();
    this.tiles.destroy();
    this.heatTexture?.destroy(true);
    this.stage.destroy({ children: true, texture: true, textureSource: true });
  }
}
