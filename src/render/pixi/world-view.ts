/**
 * The Pixi top-down view of a running simulation. Static layers (the ground, a raster of the world's own
 * queries; the format's overlay; the time of day's tint) are drawn into tiles per zoom level and only blitted
 * each frame (ground-tiles.ts). Per frame: the heat map (when on), the selection's highlight, sight (the
 * selected entity's rays to the bodies it does and does not see, with where the blocked ones stopped; a
 * chosen density of the other agents' lines to the player and facing rays), the entities with their facing,
 * the player last with a halo, the Piney weather from the frame's operation list (the bolt and the
 * traveller pulled to the edge of the view when they are outside it), and the storm's flash.
 *
 * The camera opens framing the whole world, or, for a world too large to read whole (fewer than
 * OPENING_PIXELS_PER_METRE screen pixels per metre), a closer view about the player. The view reads the simulation (component arrays, world data,
 * the weather's operation list, the event bus) and never writes it; rays are cast through the world's
 * allocation-free `segmentFraction` with the project's LOS batch, which keeps no simulation state.
 */
import { CanvasSource, Container, Graphics, RenderContainer, Sprite, Text, Texture, type CanvasRenderer, type Renderer } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../systems/los/los-batch.js';
import { FIELD_SIZE } from '../../worlds/piney/field-state.js';
import { ambientOpsSource, decodeAmbient, type AmbientFrame, type AmbientOpsSource } from '../scene/ambient-ops.js';
import { ARROW_POINTS, directionIndex, stampSize, traceArrow } from '../scene/arrow-stamp.js';
import { Camera, FRAME_MARGIN, OPENING_PIXELS_PER_METRE } from '../scene/camera.js';
import { newEntityFrame, readEntities, type EntityFrame } from '../scene/entities.js';
import { ViewerSight } from '../scene/viewer-sight.js';
import { rasterizeGround, type GroundRaster } from '../scene/ground-raster.js';
import { probeHeight, samplerFor } from '../scene/ground-sampler.js';
import { VisibilityHeatMap } from '../scene/heat-map.js';
import type { Highlight } from '../scene/inspect.js';
import { overlayFor, type Overlay } from '../scene/overlays.js';
import { ENTITY_COLOURS, FALLING_COLOUR, heatColour, PLANNED_PATH_COLOUR, SEAT_COLOURS, WEATHER_COLOURS } from '../scene/palette.js';
import { seatLabels, type RoomSeats } from '../scene/seat-labels.js';
import { PathTrail } from '../scene/path-trail.js';
import { plannedPath } from '../scene/planned-path.js';
import { mapPlaneOf, mapRectOf, type MapPlane, type MapRect } from '../scene/projection.js';
import { SightProbe } from '../scene/sight-probe.js';
import type { RayDensity } from '../scene/view-link.js';
import { clampToView, fieldAmbience, weatherKindOf, type FieldAmbience, type WeatherKind } from '../scene/weather-look.js';
import { ArrowSheets, StampCanvas } from './arrow-stamps.js';
import { GroundTiles } from './ground-tiles.js';

/** Most sight rays cast per drawn frame for the agents that are not selected (density "all"). */
export const MAX_SIGHT_RAYS = 256;
/** Rays per drawn frame by density. */
export const RAYS_BY_DENSITY: Readonly<Record<RayDensity, number>> = { off: 0, few: 32, many: 128, all: MAX_SIGHT_RAYS };
/** Entities are drawn at least this many screen pixels across (an arrow smaller than this reads as a speck) ... */
export const MIN_ENTITY_PIXELS = 12;
/** ... and at most this many, so small levels seen close up stay readable. */
const MAX_ENTITY_PIXELS = 22;
/** The flash fades out over the frames its operation gives (10). */
const FLASH_FRAMES = 10;
/** How far inside the view's edge an off-screen sky item is drawn, in pixels: the bolt (90 long), the traveller. */
const BOLT_INSET = 52;
const TRAVELLER_INSET = 28;
/** The arrow texture's side: drawn large and scaled down, so it stays sharp on high-density screens. */
const ARROW_TEXTURE = 64;

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

/** A canvas-backed texture (works with every Pixi renderer). */
function canvasTexture(width: number, height: number, draw: (ctx: CanvasRenderingContext2D) => void): Texture {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  draw(canvas.getContext('2d')!);
  return new Texture({ source: new CanvasSource({ resource: canvas }) });
}

/** Draws an arrowhead pointing along +x in a 32-unit square (scaled by the caller). */
function arrowPath(c: CanvasRenderingContext2D, fill: string): void {
  c.fillStyle = fill;
  c.strokeStyle = '#000000';
  c.lineWidth = 2;
  c.lineJoin = 'round';
  c.beginPath();
  traceArrow(c, 16, 16, 32);
  c.fill();
  c.stroke();
}

/** A white arrowhead pointing along +x, its centre at the texture's centre (tinted for the player). */
function arrowTexture(): Texture {
  const s = ARROW_TEXTURE / 32;
  return canvasTexture(ARROW_TEXTURE, ARROW_TEXTURE, (c) => {
    c.scale(s, s);
    arrowPath(c, '#ffffff');
  });
}

/** Above this many arrows in view they are drawn without an outline (a software renderer pays per stroke). */
const OUTLINE_LIMIT = 150;

/** The fraction along (dx, dy) from (x, y) at which the ray leaves rectangle r (1 if it does not, 0 if outside). */
export function exitFraction(x: number, y: number, dx: number, dy: number, r: MapRect): number {
  let t = 1;
  if (dx > 0) t = Math.min(t, (r.x + r.width - x) / dx);
  else if (dx < 0) t = Math.min(t, (r.x - x) / dx);
  if (dy > 0) t = Math.min(t, (r.y + r.height - y) / dy);
  else if (dy < 0) t = Math.min(t, (r.y - y) / dy);
  return t > 0 ? t : 0;
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
  private readonly weather = new Graphics();
  private readonly sight = new Graphics();
  /** The agents: one filled arrow shape each, in three colour groups (fast on every renderer). */
  private readonly bodies = new Graphics();
  /** The agents as sprites (the GPU renderers), in their own layer. */
  private readonly bodySprites = new Container();
  private readonly sprites: Sprite[] = [];
  /** The agents as stamps (the canvas renderer): drawn straight into the renderer's 2D context. */
  private readonly bodyStamps: RenderContainer;
  private readonly stamps = new ArrowSheets([ENTITY_COLOURS.agent, ENTITY_COLOURS.agentSees, ENTITY_COLOURS.other]);
  private stampCanvasMade: StampCanvas | null = null;
  private bodiesInView = 0;
  private bodyMode: 'paths' | 'sprites' | 'stamps';
  private groupOf: Uint8Array;
  private readonly top = new Container();
  private readonly playerHalo = new Graphics();
  private readonly playerSprite: Sprite;
  private readonly selectRing = new Graphics();
  /** Whether the selected entity's path trail is drawn (the inspector's button). */
  trailOn = false;
  /** The selected entity's last positions, when its trail is drawn. */
  readonly trail = new PathTrail();
  private readonly trailLine = new Graphics();
  /** The selected agent's planned path while navigation walks it somewhere (see planned-path.ts). */
  private readonly planLine = new Graphics();
  /** Map points of the planned path last drawn (x0, y0, x1, y1, ...; empty: none), for tests and the page. */
  planned: readonly number[] = [];
  /** A ring and a downward tick on each falling body (off a floor's edge: it respawns at the kill plane). */
  private readonly fallMarks = new Graphics();
  /** In a room of several players: a ring in each player's colour, and a label over each (see seatLabels). */
  private readonly seatRings = new Graphics();
  private readonly seatTexts: Text[] = [];
  /** Who holds each seat of a room shown (names, hidden tabs): a label over each seat's player, in its colour. */
  roomSeats: () => RoomSeats | null = () => null;
  /** The entity the camera follows and draws as the player: in a room, the page's own seat's. */
  you: number;
  private readonly sky = new Graphics();
  private readonly flash = new Graphics();
  private readonly arrow: Texture;
  /** The entities as the last draw read them. */
  readonly entities: EntityFrame;
  private readonly idScratch = { ids: new Uint32Array(64) };
  /** Who sees this page's player when it is not seat 1's (in a room). */
  private readonly viewerSight = new ViewerSight();
  private readonly indexOfId: Int32Array;
  private readonly ambient: AmbientOpsSource | null;
  private readonly raySegments = new Float64Array(MAX_SIGHT_RAYS * SEGMENT_STRIDE);
  private readonly rayOwner = new Int32Array(MAX_SIGHT_RAYS);
  private readonly rayOut = newLosOutput(MAX_SIGHT_RAYS);
  private readonly offFlash: () => void;
  private flashFrame = -1;
  private flashIntensity = 0;
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
    this.arrow = arrowTexture();
    this.playerSprite = new Sprite(this.arrow);
    this.playerSprite.anchor.set(0.5);
    this.playerSprite.tint = ENTITY_COLOURS.player;
    this.playerSprite.visible = false;
    this.you = sim.player;
    this.top.addChild(this.planLine, this.trailLine, this.fallMarks, this.seatRings, this.playerHalo, this.playerSprite);
    this.entities = newEntityFrame(sim.ecs.components.capacity);
    this.groupOf = new Uint8Array(sim.ecs.components.capacity);
    this.indexOfId = new Int32Array(sim.ecs.components.capacity).fill(-1);
    this.ambient = ambientOpsSource(sim);
    // The flash comes on the event bus on the frame its operation was drawn (the view may skip frames).
    const onFlash = (e: { frame: number; intensity: number }) => {
      this.flashFrame = e.frame;
      this.flashIntensity = Math.max(0, Math.min(1, e.intensity));
    };
    sim.events.on('flash', onFlash);
    this.offFlash = () => sim.events.off('flash', onFlash);
    this.bodyMode = options.bodies ?? 'paths';
    this.bodyStamps = new RenderContainer({ render: (r: Renderer) => this.renderStamps(r) });
    this.bodies.visible = this.bodyMode === 'paths';
    this.bodySprites.visible = this.bodyMode === 'sprites';
    this.bodyStamps.visible = this.bodyMode === 'stamps';
    this.map.addChild(this.heatSprite, this.highlight, this.markerLayer, this.sight, this.bodies, this.bodySprites, this.bodyStamps, this.weather, this.selectRing, this.top);
    this.stage.addChild(this.tiles.layer, this.map, this.sky, this.flash);
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
      weather: this.weather,
      sight: this.sight,
      bodies: this.bodyLayer(),
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
    this.drawSight(e);
    this.drawWeather();
    this.lastDrawMs = performance.now() - t0;
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

  /** The on-screen size in pixels of an entity of radius r. */
  private entityPixels(r: number, player: boolean): number {
    const k = player ? 1.5 : 1;
    return Math.min(k * MAX_ENTITY_PIXELS, Math.max(k * MIN_ENTITY_PIXELS, 2 * r * this.camera.zoom * k));
  }

  private drawBodies(e: EntityFrame): void {
    const zoom = this.camera.zoom;
    const [vx0, vy0, vx1, vy1] = this.camera.visibleRect();
    const m = (2 * MAX_ENTITY_PIXELS) / zoom;
    const player = this.you;
    let playerShown = false;
    const groupOf = this.groupOf;
    let inView = 0;
    for (let i = 0; i < e.count; i++) {
      const x = e.x[i]!;
      const y = e.y[i]!;
      groupOf[i] = 0;
      if (e.ids[i] === player) {
        // The player is drawn last, above everything, with a halo. Rotation is presentation only.
        playerShown = true;
        const px = this.entityPixels(e.radius[i]!, true);
        this.playerSprite.position.set(x, y);
        this.playerSprite.rotation = Math.atan2(e.dirY[i]!, e.dirX[i]!);
        this.playerSprite.scale.set(px / ARROW_TEXTURE / zoom);
        this.playerHalo.clear().circle(0, 0, (px * 0.75) / zoom).fill({ color: ENTITY_COLOURS.playerHalo, alpha: 0.35 }).stroke({ color: ENTITY_COLOURS.playerHalo, alpha: 0.95, width: 2 / zoom });
        this.playerHalo.position.set(x, y);
        continue;
      }
      if (!(x >= vx0 - m && x <= vx1 + m && y >= vy0 - m && y <= vy1 + m)) continue;
      groupOf[i] = e.agent[i] ? (e.visible[i] ? 2 : 1) : 3;
      inView++;
    }
    this.bodiesInView = inView;
    if (this.bodyMode === 'sprites') this.drawBodySprites(e, inView);
    else if (this.bodyMode === 'paths') this.drawBodyPaths(e, inView);
    this.playerSprite.visible = playerShown;
    this.playerHalo.visible = playerShown;
    this.drawSeats(e);
    this.drawSelectionRing(e);
    this.drawFalling(e, vx0 - m, vy0 - m, vx1 + m, vy1 + m);
    this.drawTrail();
    this.drawPlan();
  }

  /** The selected agent's planned path and a ring at its goal, while it is going somewhere. */
  private drawPlan(): void {
    const g = this.planLine.clear();
    const sel = this.state.selected;
    const pts = sel > 0 ? plannedPath(this.sim, sel, this.plane) : null;
    this.planned = pts ?? [];
    if (!pts || pts.length < 4) return;
    const w = 2 / this.camera.zoom;
    g.moveTo(pts[0]!, pts[1]!);
    for (let k = 2; k < pts.length; k += 2) g.lineTo(pts[k]!, pts[k + 1]!);
    g.stroke({ color: PLANNED_PATH_COLOUR, alpha: 0.9, width: w });
    g.circle(pts[pts.length - 2]!, pts[pts.length - 1]!, 5 * w).stroke({ color: PLANNED_PATH_COLOUR, alpha: 0.9, width: w });
  }

  /** The selected entity's path over its last TRAIL_POINTS frames, when the trail is on. */
  private drawTrail(): void {
    const g = this.trailLine.clear();
    const sel = this.state.selected;
    if (!this.trailOn || sel < 0) {
      this.trail.clear();
      return;
    }
    const [x, y] = this.positionOf(sel);
    this.trail.add(sel, this.sim.frame, x, y);
    const t = this.trail;
    if (t.count < 2) return;
    const [x0, y0] = t.point(0);
    g.moveTo(x0, y0);
    for (let k = 1; k < t.count; k++) {
      const [px, py] = t.point(k);
      g.lineTo(px, py);
    }
    g.stroke({ color: ENTITY_COLOURS.selection, alpha: 0.7, width: 2 / this.camera.zoom });
  }

  /** Falling bodies in view: seen from above a fall does not show, so each gets a ring and a downward tick. */
  private drawFalling(e: EntityFrame, x0: number, y0: number, x1: number, y1: number): void {
    const g = this.fallMarks.clear();
    const zoom = this.camera.zoom;
    let any = false;
    for (let i = 0; i < e.count; i++) {
      if (!e.falling[i]) continue;
      const x = e.x[i]!;
      const y = e.y[i]!;
      if (!(x >= x0 && x <= x1 && y >= y0 && y <= y1)) continue;
      const r = (this.entityPixels(e.radius[i]!, e.ids[i] === this.you) * 0.75) / zoom;
      g.circle(x, y, r).moveTo(x, y + r).lineTo(x, y + r + 6 / zoom);
      any = true;
    }
    if (any) {
      g.stroke({ color: FALLING_COLOUR, alpha: 0.95, width: 2 / zoom });
      this.fallingSeen = true;
    }
  }

  /** Several players: each one's ring in its seat's colour (its arrow tinted so), "you" over the page's own. */
  private drawSeats(e: EntityFrame): void {
    const seats = this.sim.players;
    const g = this.seatRings.clear();
    if (seats.length < 2) return;
    const zoom = this.camera.zoom;
    const labels = seatLabels(seats.length, seats.indexOf(this.you), this.roomSeats());
    for (let k = 0; k < seats.length; k++) {
      const t = (this.seatTexts[k] ??= this.makeSeatLabel());
      const i = this.indexOfId[seats[k]!]!;
      const text = labels[k]!;
      t.visible = i >= 0 && text !== '';
      if (i < 0) continue;
      const colour = SEAT_COLOURS[k % SEAT_COLOURS.length]!;
      const px = this.entityPixels(e.radius[i]!, true);
      g.circle(e.x[i]!, e.y[i]!, (px * 0.8) / zoom).stroke({ color: colour, alpha: 1, width: 3 / zoom });
      if (seats[k] === this.you) this.playerSprite.tint = colour;
      if (t.text !== text) t.text = text;
      if (t.style.fill !== colour) t.style.fill = colour;
      t.position.set(e.x[i]!, e.y[i]! - (px * 0.9) / zoom);
      t.scale.set(1 / zoom);
    }
  }

  /** Where seat `k`'s label is on screen (CSS pixels) and what it says; null when it is not drawn. */
  seatLabelAt(k: number): { text: string; x: number; y: number; colour: number } | null {
    const t = this.seatTexts[k];
    if (!t || !t.visible) return null;
    const [x, y] = this.toScreen(t.position.x, t.position.y);
    return { text: t.text, x, y, colour: Number(t.style.fill) };
  }

  private makeSeatLabel(): Text {
    const t = new Text({ text: '', resolution: Math.max(1, this.resolution), style: { fill: 0xffffff, fontSize: 13, fontWeight: 'bold', fontFamily: 'system-ui, sans-serif', stroke: { color: 0x000000, width: 3 } } });
    t.anchor.set(0.5, 1);
    this.top.addChild(t);
    return t;
  }

  /** The stamps' layer (made at the first frame drawn with stamps). */
  private get stampCanvas(): StampCanvas {
    return (this.stampCanvasMade ??= new StampCanvas(this.sim.ecs.components.capacity));
  }

  /** The layer the agents are drawn in, in the current way of drawing them. */
  private bodyLayer(): Container {
    return this.bodyMode === 'paths' ? this.bodies : this.bodyMode === 'sprites' ? this.bodySprites : this.bodyStamps;
  }

  /**
   * The agents as stamps, drawn by the renderer in the layer's place: each arrow in view one copy of its cell
   * (size, colour, facing rounded to the sheet's directions) at the whole device pixel nearest its centre.
   */
  private renderStamps(renderer: Renderer): void {
    if (renderer.name !== 'canvas') {
      // Stamps need the canvas renderer's 2D context: on another renderer, sprites from the next frame.
      const was = this.bodyStamps.visible;
      this.bodyMode = 'sprites';
      this.bodyStamps.visible = false;
      this.bodySprites.visible = was;
      return;
    }
    const e = this.entities;
    const groupOf = this.groupOf;
    const cs = (renderer as unknown as CanvasRenderer).canvasContext;
    const ctx = cs.activeContext as unknown as CanvasRenderingContext2D;
    ctx.save();
    cs.setContextTransform(this.bodyStamps.groupTransform, false);
    // Map point → device pixel of the target; the layer is drawn with no transform, pixel for pixel.
    const m = ctx.getTransform();
    const W = ctx.canvas.width;
    const H = ctx.canvas.height;
    const sc = this.stampCanvas;
    sc.resize(W, H);
    const layer = sc.layer;
    const zoom = this.camera.zoom;
    // Device pixels per CSS pixel in this target (the map's scale over the zoom).
    const dpp = Math.hypot(m.a, m.b) / zoom;
    const outline = this.bodiesInView <= OUTLINE_LIMIT ? Math.max(1, Math.round(dpp)) : 0;
    let sheet = null;
    let sheetSize = -1;
    layer.begin();
    for (let i = 0; i < e.count; i++) {
      const grp = groupOf[i]!;
      if (!grp) continue;
      const size = stampSize(this.entityPixels(e.radius[i]!, false) * dpp);
      if (size !== sheetSize || !sheet) {
        sheet = this.stamps.sheet(size, outline);
        sheetSize = size;
      }
      const x = e.x[i]!;
      const y = e.y[i]!;
      const h = sheet.cell / 2;
      const sx = Math.round(m.a * x + m.c * y + m.e - h);
      const sy = Math.round(m.b * x + m.d * y + m.f - h);
      if (sx + 2 * h <= 0 || sy + 2 * h <= 0 || sx >= W || sy >= H) continue;
      layer.add(e.ids[i]!, sheet, directionIndex(e.dirX[i]!, e.dirY[i]!), grp - 1, sx, sy);
    }
    layer.end();
    sc.upload();
    const bw = layer.x1 - layer.x0;
    const bh = layer.y1 - layer.y0;
    if (layer.listed > 0 && bw > 0 && bh > 0) {
      // Only the part the arrows cover (at the whole-field view, the field).
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      cs.setBlendMode(this.bodyStamps.groupBlendMode);
      ctx.globalAlpha = ((this.bodyStamps.groupColorAlpha >>> 24) & 255) / 255;
      ctx.drawImage(sc.canvas, layer.x0, layer.y0, bw, bh, layer.x0, layer.y0, bw, bh);
    }
    ctx.restore();
  }

  /** The agents as tinted arrow sprites, pooled (the GPU renderers batch them). */
  private drawBodySprites(e: EntityFrame, inView: number): void {
    const zoom = this.camera.zoom;
    const groupOf = this.groupOf;
    const tints = [0, ENTITY_COLOURS.agent, ENTITY_COLOURS.agentSees, ENTITY_COLOURS.other];
    while (this.sprites.length < inView) {
      const s = new Sprite(this.arrow);
      s.anchor.set(0.5);
      this.sprites.push(s);
      this.bodySprites.addChild(s);
    }
    let n = 0;
    for (let i = 0; i < e.count; i++) {
      const grp = groupOf[i]!;
      if (!grp) continue;
      const s = this.sprites[n++]!;
      s.visible = true;
      s.position.set(e.x[i]!, e.y[i]!);
      // Rotation is presentation only, so Math.atan2 is fine here.
      s.rotation = Math.atan2(e.dirY[i]!, e.dirX[i]!);
      s.scale.set(this.entityPixels(e.radius[i]!, false) / ARROW_TEXTURE / zoom);
      s.tint = tints[grp]!;
    }
    for (let k = n; k < this.sprites.length; k++) this.sprites[k]!.visible = false;
  }

  /** The agents as one filled path each, in three colour groups (the canvas renderer pays per call). */
  private drawBodyPaths(e: EntityFrame, inView: number): void {
    const zoom = this.camera.zoom;
    const groupOf = this.groupOf;
    const g = this.bodies;
    g.clear();
    const outline = inView <= OUTLINE_LIMIT;
    const colours = [0, ENTITY_COLOURS.agent, ENTITY_COLOURS.agentSees, ENTITY_COLOURS.other];
    const pts = [0, 0, 0, 0, 0, 0, 0, 0];
    for (let grp = 1; grp <= 3; grp++) {
      let any = false;
      for (let i = 0; i < e.count; i++) {
        if (groupOf[i] !== grp) continue;
        const h = this.entityPixels(e.radius[i]!, false) / 32 / zoom;
        const ux = e.dirX[i]!;
        const uy = e.dirY[i]!;
        const x = e.x[i]!;
        const y = e.y[i]!;
        for (let k = 0; k < 8; k += 2) {
          const dx = ARROW_POINTS[k]! * h;
          const dy = ARROW_POINTS[k + 1]! * h;
          pts[k] = x + ux * dx - uy * dy;
          pts[k + 1] = y + uy * dx + ux * dy;
        }
        // moveTo/lineTo copy the numbers (poly() would keep a reference to the reused array).
        g.moveTo(pts[0]!, pts[1]!).lineTo(pts[2]!, pts[3]!).lineTo(pts[4]!, pts[5]!).lineTo(pts[6]!, pts[7]!).closePath();
        any = true;
      }
      if (!any) continue;
      g.fill({ color: colours[grp]!, alpha: 1 });
      if (outline) g.stroke({ color: 0x000000, alpha: 0.85, width: 1 / zoom });
    }
  }

  /** The selection's ring. */
  private drawSelectionRing(e: EntityFrame): void {
    const zoom = this.camera.zoom;
    const player = this.sim.player;
    const ring = this.selectRing;
    ring.clear();
    const sel = this.state.selected;
    const si = sel >= 0 && sel < this.indexOfId.length ? this.indexOfId[sel]! : -1;
    if (si >= 0) {
      const r = (this.entityPixels(e.radius[si]!, sel === player) * 0.9 + 4) / zoom;
      ring.circle(e.x[si]!, e.y[si]!, r).stroke({ color: ENTITY_COLOURS.selection, alpha: 1, width: 2.5 / zoom });
    }
    const pi = this.pointed >= 0 && this.pointed < this.indexOfId.length && this.pointed !== sel ? this.indexOfId[this.pointed]! : -1;
    if (pi >= 0) {
      const r = (this.entityPixels(e.radius[pi]!, this.pointed === player) * 0.9 + 7) / zoom;
      ring.circle(e.x[pi]!, e.y[pi]!, r).stroke({ color: ENTITY_COLOURS.pointed, alpha: 1, width: 2 / zoom });
    }
  }

  private drawSight(e: EntityFrame): void {
    const g = this.sight;
    g.clear();
    const zoom = this.camera.zoom;
    const px = 1 / zoom;
    // The selected entity's rays, whatever the density.
    const sel = this.state.selected;
    if (sel >= 0 && this.indexOfId[sel]! >= 0) {
      const p = this.probe;
      p.probe(this.sim, this.plane, sel, e.ids, e.count);
      // Its reach first, under the rays: a faint disc of its sight range with a rim.
      if (p.range > 0) g.circle(p.fromX, p.fromY, p.range).fill({ color: ENTITY_COLOURS.sightRange, alpha: 0.07 }).stroke({ color: ENTITY_COLOURS.sightRange, alpha: 0.55, width: 1.5 * px });
      let any = false;
      for (let j = 0; j < p.count; j++) {
        if (!p.visible[j]) continue;
        g.moveTo(p.fromX, p.fromY).lineTo(p.toX[j]!, p.toY[j]!);
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.seenRay, alpha: 0.95, width: 1.5 * px });
      any = false;
      const dash = 6 * px;
      const gap = 4 * px;
      for (let j = 0; j < p.count; j++) {
        if (p.visible[j]) continue;
        const dx = p.toX[j]! - p.fromX;
        const dy = p.toY[j]! - p.fromY;
        const len = Math.hypot(dx, dy);
        if (!(len > 0)) continue;
        const ux = dx / len;
        const uy = dy / len;
        for (let s = 0; s < len && s < 400 * dash; s += dash + gap) {
          const e1 = Math.min(len, s + dash);
          g.moveTo(p.fromX + ux * s, p.fromY + uy * s).lineTo(p.fromX + ux * e1, p.fromY + uy * e1);
        }
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.unseenRay, alpha: 0.9, width: 1.2 * px });
      any = false;
      const c = 4 * px;
      for (let j = 0; j < p.count; j++) {
        if (p.visible[j]) continue;
        const x = p.stopX[j]!;
        const y = p.stopY[j]!;
        g.moveTo(x - c, y - c).lineTo(x + c, y + c).moveTo(x - c, y + c).lineTo(x + c, y - c);
        any = true;
      }
      if (any) g.stroke({ color: ENTITY_COLOURS.stopMark, alpha: 1, width: 2 * px });
    }
    const budget = this.showSight ? RAYS_BY_DENSITY[this.rays] : 0;
    this.linesDrawn = 0;
    if (budget === 0) return;
    const [vx0, vy0, vx1, vy1] = this.camera.visibleRect();
    const inView = (i: number) => e.x[i]! >= vx0 && e.x[i]! <= vx1 && e.y[i]! >= vy0 && e.y[i]! <= vy1;
    // The watchers that see the player: a line to it (the density's share, in id order).
    let n = 0;
    for (let i = 0; i < e.count && n < budget; i++) {
      const t = e.target[i]!;
      if (!t || !e.visible[i] || e.ids[i] === sel || !inView(i)) continue;
      const j = t >= 0 && t < this.indexOfId.length ? this.indexOfId[t]! : -1;
      if (j < 0) continue;
      g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[j]!, e.y[j]!);
      n++;
    }
    if (n > 0) g.stroke({ color: ENTITY_COLOURS.sightLine, alpha: 0.45, width: px });
    this.linesDrawn = n;
    // Rays along the facing of agents in view, stopped where the world blocks them.
    const world = this.sim.world;
    const plane = this.plane;
    const up = plane.up;
    const [h0, h1] = [plane.ax, plane.ay];
    const pos = this.sim.ecs.components.Position;
    const P = [pos.x, pos.y, pos.z];
    let m = 0;
    for (let i = 0; i < e.count && m < budget; i++) {
      if (!e.agent[i] || e.visible[i] || e.ids[i] === sel || !inView(i)) continue;
      const id = e.ids[i]!;
      const range = e.sightRange[i]! > 0 ? e.sightRange[i]! : 10 * world.scale;
      const o = m * SEGMENT_STRIDE;
      const eye = plane.upSign * Math.max(e.radius[i]!, 1e-6);
      for (let k = 0; k < 3; k++) this.raySegments[o + k] = P[k]![id]!;
      this.raySegments[o + up] += eye;
      for (let k = 0; k < 3; k++) this.raySegments[o + 3 + k] = this.raySegments[o + k]!;
      this.raySegments[o + 3 + h0] += e.dirX[i]! * range;
      this.raySegments[o + 3 + h1] += plane.ySign * e.dirY[i]! * range;
      if (world.integer) for (let k = 0; k < 6; k++) this.raySegments[o + k] = Math.round(this.raySegments[o + k]!);
      this.rayOwner[m] = i;
      m++;
    }
    if (m === 0) return;
    this.linesDrawn += m;
    losBatch(world, this.raySegments, this.rayOut, 0, m);
    const R = this.rect;
    for (let r = 0; r < m; r++) {
      const i = this.rayOwner[r]!;
      const o = r * SEGMENT_STRIDE;
      const dx = this.raySegments[o + 3 + h0]! - this.raySegments[o + h0]!;
      const dy = plane.ySign * (this.raySegments[o + 3 + h1]! - this.raySegments[o + h1]!);
      // Stopped where the world blocks it, or where it leaves the world's rectangle (nothing is out there).
      const f = Math.min(this.rayOut.fraction[r]!, exitFraction(e.x[i]!, e.y[i]!, dx, dy, R));
      g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[i]! + dx * f, e.y[i]! + dy * f);
    }
    g.stroke({ color: ENTITY_COLOURS.facingRay, alpha: 0.4, width: px });
  }

  private drawWeather(): void {
    const g = this.weather;
    g.clear();
    const sky = this.sky;
    sky.clear();
    const cam = this.camera;
    const flash = this.flash;
    flash.clear();
    const seen = this.lastSky;
    seen.bolt = seen.boltClamped = seen.traveller = seen.travellerClamped = false;
    seen.flash = 0;
    if (!this.ambient) return;
    const ops = this.ambient.read();
    const a = ops ? decodeAmbient(ops.words, ops.length) : null;
    this.lastAmbient = a;
    if (a && ops) {
      const ySign = this.plane.ySign;
      // The field's tasks draw around their own stand-in viewer (the ambient walk), not the player: the
      // effects are drawn at their offset from that viewer, around the player, the offset folded onto the
      // field's torus.
      const [pxm, pym] = this.playerPosition();
      const ox = Number.isFinite(ops.viewX) && Number.isFinite(pxm) ? pxm - ops.viewX : 0;
      const oy = Number.isFinite(ops.viewY) && Number.isFinite(pym) ? ySign * pym - ops.viewY : 0;
      const half = FIELD_SIZE / 2;
      const fold = (d: number) => ((((d + half) % FIELD_SIZE) + FIELD_SIZE) % FIELD_SIZE) - half;
      const vx = Number.isFinite(ops.viewX) ? ops.viewX : 0;
      const vy = Number.isFinite(ops.viewY) ? ops.viewY : 0;
      const px = 1 / cam.zoom;
      const C = WEATHER_COLOURS;
      for (const it of a.items) {
        const x = vx + fold(it.x - vx) + ox;
        const y = ySign * (vy + fold(it.y - vy) + oy);
        const kind = weatherKindOf(it);
        this.weatherSeen.add(kind);
        switch (kind) {
          case 'rain':
            g.moveTo(x, y).lineTo(x + 4 * px, y + 18 * px).stroke({ color: C.rain, alpha: 1, width: 2 * px });
            break;
          case 'splash':
            g.circle(x, y, 3 * px).stroke({ color: C.splash, alpha: 0.9, width: px });
            break;
          case 'snow':
            g.circle(x, y, 3 * px).fill({ color: C.snow, alpha: 1 }).stroke({ color: 0x607d8b, alpha: 0.8, width: px });
            break;
          case 'ember':
            g.circle(x, y, 3 * px).fill({ color: C.ember, alpha: Math.max(0.5, it.alpha) });
            break;
          case 'firefly':
            g.circle(x, y, 5 * px).fill({ color: C.firefly, alpha: 0.3 }).circle(x, y, 2.5 * px).fill({ color: C.firefly, alpha: 1 });
            break;
          case 'firefly-trail':
            g.circle(x, y, 1.5 * px).fill({ color: C.fireflyTrail, alpha: 0.7 });
            break;
          case 'glyph':
            g.rect(x - 2 * px, y - 3 * px, 4 * px, 6 * px).fill({ color: C.glyph, alpha: 0.9 });
            break;
          case 'lens-flare':
            g.circle(x, y, 8 * px).stroke({ color: C.lensFlare, alpha: 0.6, width: px });
            break;
          case 'bolt':
            this.drawBolt(x, y);
            break;
          case 'smoke':
            g.circle(x, y, Math.max(6 * px, it.size)).fill({ color: C.smoke, alpha: 0.35 });
            break;
          case 'bird':
            g.moveTo(x - 8 * px, y - 4 * px).lineTo(x, y).lineTo(x + 8 * px, y - 4 * px).stroke({ color: C.bird, alpha: 1, width: 2 * px });
            break;
          case 'traveller':
            if (it.name === 'tobj') this.drawTraveller(x, y);
            break;
          case 'hum':
            // The traveller's hum: a ring whose size follows its volume.
            g.circle(x, y, (10 + 30 * it.alpha) * px).stroke({ color: C.hum, alpha: 0.8, width: px });
            break;
          case 'haze':
            g.circle(x, y, 10 * px).fill({ color: C.haze, alpha: 0.25 });
            break;
          case 'sound3d':
            g.circle(x, y, 14 * px).stroke({ color: C.sound3d, alpha: 0.6, width: px });
            break;
          default:
            g.circle(x, y, 2 * px).fill({ color: C.other, alpha: 0.8 });
        }
      }
    }
    // The storm's flash: the frame its operation came in at full strength, fading out over its frames.
    const since = this.sim.frame - this.flashFrame;
    if (this.flashFrame >= 0 && since >= 0 && since < FLASH_FRAMES) {
      const alpha = Math.min(0.85, this.flashIntensity * (1 - since / FLASH_FRAMES));
      if (alpha > 0.01) {
        flash.rect(0, 0, cam.width, cam.height).fill({ color: 0xffffff, alpha });
        seen.flash = alpha;
      }
    }
  }

  /** A sky item's place on screen: where it is, or pulled in to `inset` pixels inside the edge of the view. */
  private skyPlace(x: number, y: number, inset: number): { x: number; y: number; clamped: boolean } {
    const [sx, sy] = this.toScreen(x, y);
    return clampToView(sx, sy, this.camera.width, this.camera.height, inset);
  }

  /** The bolt: a jagged line 90 pixels long down the screen from its sprite, with a glow, on the sky layer. */
  private drawBolt(x: number, y: number): void {
    const p = this.skyPlace(x, y, BOLT_INSET);
    const g = this.sky;
    const pts = [p.x, p.y - 45, p.x + 10, p.y - 18, p.x - 7, p.y - 2, p.x + 6, p.y + 18, p.x - 2, p.y + 45];
    const path = () => {
      g.moveTo(pts[0]!, pts[1]!);
      for (let i = 2; i < pts.length; i += 2) g.lineTo(pts[i]!, pts[i + 1]!);
    };
    path();
    g.stroke({ color: WEATHER_COLOURS.boltGlow, alpha: 0.55, width: 9 });
    path();
    g.stroke({ color: WEATHER_COLOURS.bolt, alpha: 1, width: 3.5 });
    this.lastSky.bolt = true;
    this.lastSky.boltClamped ||= p.clamped;
  }

  /** The traveller: a filled diamond 26 pixels long with an outline, on the sky layer. */
  private drawTraveller(x: number, y: number): void {
    const p = this.skyPlace(x, y, TRAVELLER_INSET);
    const g = this.sky;
    g.poly([p.x, p.y - 13, p.x + 9, p.y, p.x, p.y + 13, p.x - 9, p.y], true).fill({ color: WEATHER_COLOURS.traveller, alpha: 1 }).stroke({ color: WEATHER_COLOURS.travellerOutline, alpha: 1, width: 2 });
    if (p.clamped) g.circle(p.x, p.y, 17).stroke({ color: WEATHER_COLOURS.traveller, alpha: 0.8, width: 1.5 });
    this.lastSky.traveller = true;
    this.lastSky.travellerClamped ||= p.clamped;
  }

  /** Frees the view's display objects and its own textures, and stops listening to the event bus. */
  destroy(): void {
    this.offFlash();
    this.tiles.destroy();
    this.heatTexture?.destroy(true);
    this.stage.destroy({ children: true, texture: true, textureSource: true });
  }
}

