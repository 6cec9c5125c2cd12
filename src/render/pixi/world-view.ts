/**
 * The Pixi top-down view of a running simulation: the ground (a raster of the world's own queries, drawn once
 * per world), the format's overlay (drawn once), then per frame the entities with their facing, the agents'
 * lines of sight, the Piney weather from the frame's operation list, and the screen flash. A camera follows
 * the player, zooms and pans.
 *
 * The view reads the simulation (component arrays, world data, the weather's operation list) and never writes
 * it. Sight rays are cast with the project's LOS batch over the world's allocation-free `segmentFraction`,
 * which keeps no simulation state.
 */
import { BufferImageSource, Container, Graphics, Sprite, Text, Texture } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../systems/los/los-batch.js';
import { FIELD_SIZE } from '../../worlds/piney/field-state.js';
import { ambientOpsSource, decodeAmbient, type AmbientFrame, type AmbientOpsSource } from '../scene/ambient-ops.js';
import { Camera } from '../scene/camera.js';
import { newEntityFrame, readEntities, type EntityFrame } from '../scene/entities.js';
import { rasterizeGround, type GroundRaster } from '../scene/ground-raster.js';
import { overlayFor, type Overlay } from '../scene/overlays.js';
import { mapPlaneOf, mapRectOf, type MapPlane } from '../scene/projection.js';

/** Most sight rays cast per drawn frame (those of the agents nearest the view's centre). */
export const MAX_SIGHT_RAYS = 256;
/** Entities are drawn at least this many screen pixels across. */
const MIN_ENTITY_PIXELS = 7;
/** ... and at most this many, so small levels seen close up stay readable. */
const MAX_ENTITY_PIXELS = 22;
/** The first view shows about this many metres across (or the whole world, if that is closer). */
const START_VIEW_METRES = 50;

/** The overlay is split into this many chunks along each side of the map. */
const OVERLAY_CHUNKS = 12;

interface OverlayChunk {
  g: Graphics;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pendingLines: Map<string, { colour: number; alpha: number; segments: number[] }>;
}

export interface ViewOptions {
  /** Pixels along the longer side of the ground raster. */
  rasterSize?: number;
  showSight?: boolean;
  showOverlay?: boolean;
  /** How the ground's pixels become a texture: a pixel buffer (GPU renderers, the default) or a canvas. */
  pixelSource?: 'buffer' | 'canvas';
}

/** A canvas-backed texture (works with every Pixi renderer). */
function canvasTexture(width: number, height: number, draw: (ctx: CanvasRenderingContext2D) => void, nearest = false): Texture {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  draw(ctx);
  const t = Texture.from(canvas);
  if (nearest) t.source.scaleMode = 'nearest';
  return t;
}

/** A white arrowhead pointing along +x, its centre at the texture's centre. */
function arrowTexture(): Texture {
  return canvasTexture(32, 32, (c) => {
    c.fillStyle = '#ffffff';
    c.strokeStyle = '#000000';
    c.lineWidth = 2;
    c.beginPath();
    c.moveTo(30, 16);
    c.lineTo(4, 4);
    c.lineTo(10, 16);
    c.lineTo(4, 28);
    c.closePath();
    c.fill();
    c.stroke();
  });
}

export class WorldView {
  readonly stage = new Container();
  readonly camera: Camera;
  readonly plane: MapPlane;
  readonly raster: GroundRaster;
  readonly overlay: Overlay;
  private readonly map = new Container();
  private readonly ground: Sprite;
  private readonly overlayLayer = new Container();
  private readonly chunks: (OverlayChunk | undefined)[] = [];
  private readonly markerLayer = new Container();
  private readonly weather = new Graphics();
  private readonly sight = new Graphics();
  private readonly bodies = new Container();
  private readonly flash = new Graphics();
  private readonly arrow: Texture;
  private readonly sprites: Sprite[] = [];
  private readonly entities: EntityFrame;
  private readonly idScratch = { ids: new Uint32Array(64) };
  private readonly indexOfId: Int32Array;
  private readonly ambient: AmbientOpsSource | null;
  private readonly rays = new Float64Array(MAX_SIGHT_RAYS * SEGMENT_STRIDE);
  private readonly rayOwner = new Int32Array(MAX_SIGHT_RAYS);
  private readonly rayOut = newLosOutput(MAX_SIGHT_RAYS);
  private flashLevel = 0;
  showSight: boolean;
  /** The last drawn weather frame (for the HUD and tests). */
  lastAmbient: AmbientFrame | null = null;
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
    this.camera = new Camera(width, height);
    this.showSight = options.showSight ?? true;
    this.raster = rasterizeGround(world, { maxSize: options.rasterSize ?? 512 });
    const r = this.raster;
    // A GPU renderer takes the pixels as they are; the canvas renderer draws from a canvas. Tiles and
    // triangles keep hard edges (nearest); the Piney field is a smooth surface (linear).
    const smooth = world.kind === 'piney';
    const tex =
      options.pixelSource === 'canvas'
        ? canvasTexture(
            r.width,
            r.height,
            (c) => {
              const img = c.createImageData(r.width, r.height);
              img.data.set(r.rgba);
              c.putImageData(img, 0, 0);
            },
            !smooth,
          )
        : new Texture({ source: new BufferImageSource({ resource: new Uint8Array(r.rgba.buffer), width: r.width, height: r.height, scaleMode: smooth ? 'linear' : 'nearest' }) });
    this.ground = new Sprite(tex);
    this.ground.position.set(r.x0, r.y0);
    this.ground.scale.set(r.unit);
    // The ground is opaque: no blending (a software renderer pays per pixel for it).
    this.ground.blendMode = 'none';
    this.arrow = arrowTexture();
    this.entities = newEntityFrame(sim.ecs.components.capacity);
    this.indexOfId = new Int32Array(sim.ecs.components.capacity).fill(-1);
    this.ambient = ambientOpsSource(sim);
    this.map.addChild(this.ground, this.overlayLayer, this.markerLayer, this.weather, this.sight, this.bodies);
    this.stage.addChild(this.map, this.flash);
    const rect = mapRectOf(this.plane, world.bounds) ?? { x: 0, y: 0, width: 1, height: 1 };
    this.camera.fit(rect.x, rect.y, rect.width, rect.height);
    // Start close enough to see the player's surroundings (a small level is seen whole).
    const metres = START_VIEW_METRES * (world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1);
    const near = Math.min(width, height) / metres;
    if (near > this.camera.zoom) this.camera.zoom = Math.min(this.camera.maxZoom, near);
    this.overlay = overlayFor(world);
    this.drawOverlay(this.overlay);
    this.setOverlayVisible(options.showOverlay ?? true);
  }

  /**
   * The overlay is static, but a software renderer pays for every vertex each frame: its shapes go into
   * chunks of a grid over the map (by their bounding boxes), and only the chunks that meet the view are drawn.
   */
  private drawOverlay(o: Overlay): void {
    // One pixel at the starting zoom (the canvas renderer has no pixel lines; WebGL keeps them one pixel).
    const lw = 1 / this.camera.zoom;
    const rect = mapRectOf(this.plane, this.sim.world.bounds) ?? { x: 0, y: 0, width: 1, height: 1 };
    const N = OVERLAY_CHUNKS;
    const cw = Math.max(rect.width, 1e-9) / N;
    const ch = Math.max(rect.height, 1e-9) / N;
    const chunkOf = (x0: number, y0: number, x1: number, y1: number): OverlayChunk => {
      const cx = Math.max(0, Math.min(N - 1, Math.floor(((x0 + x1) / 2 - rect.x) / cw)));
      const cy = Math.max(0, Math.min(N - 1, Math.floor(((y0 + y1) / 2 - rect.y) / ch)));
      const k = cy * N + cx;
      let c = this.chunks[k];
      if (!c) {
        c = { g: new Graphics(), x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, pendingLines: new Map() };
        this.chunks[k] = c;
        this.overlayLayer.addChild(c.g);
      }
      c.x0 = Math.min(c.x0, x0);
      c.y0 = Math.min(c.y0, y0);
      c.x1 = Math.max(c.x1, x1);
      c.y1 = Math.max(c.y1, y1);
      return c;
    };
    for (const sh of o.shapes) {
      if (sh.kind === 'lines') {
        const key = `${sh.colour}:${sh.alpha}`;
        for (let i = 0; i + 3 < sh.segments.length; i += 4) {
          const [ax, ay, bx, by] = [sh.segments[i]!, sh.segments[i + 1]!, sh.segments[i + 2]!, sh.segments[i + 3]!];
          const c = chunkOf(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
          let list = c.pendingLines.get(key);
          if (!list) c.pendingLines.set(key, (list = { colour: sh.colour, alpha: sh.alpha, segments: [] }));
          list.segments.push(ax, ay, bx, by);
        }
      } else if (sh.kind === 'poly') {
        if (sh.points.length < 6) continue;
        let x0 = Infinity;
        let y0 = Infinity;
        let x1 = -Infinity;
        let y1 = -Infinity;
        for (let i = 0; i + 1 < sh.points.length; i += 2) {
          x0 = Math.min(x0, sh.points[i]!);
          x1 = Math.max(x1, sh.points[i]!);
          y0 = Math.min(y0, sh.points[i + 1]!);
          y1 = Math.max(y1, sh.points[i + 1]!);
        }
        const g = chunkOf(x0, y0, x1, y1).g;
        g.poly(sh.points, true);
        if (sh.fill !== null) g.fill({ color: sh.fill, alpha: sh.fillAlpha });
        if (sh.stroke !== null) g.stroke({ color: sh.stroke, alpha: sh.strokeAlpha, width: lw, pixelLine: true });
      } else {
        const g = chunkOf(sh.x - sh.r, sh.y - sh.r, sh.x + sh.r, sh.y + sh.r).g;
        g.circle(sh.x, sh.y, sh.r);
        if (sh.fill !== null) g.fill({ color: sh.fill, alpha: sh.fillAlpha });
        if (sh.stroke !== null) g.stroke({ color: sh.stroke, alpha: sh.strokeAlpha, width: lw, pixelLine: true });
      }
    }
    for (const c of this.chunks) {
      if (!c) continue;
      for (const l of c.pendingLines.values()) {
        for (let i = 0; i + 3 < l.segments.length; i += 4) c.g.moveTo(l.segments[i]!, l.segments[i + 1]!).lineTo(l.segments[i + 2]!, l.segments[i + 3]!);
        c.g.stroke({ color: l.colour, alpha: l.alpha, width: lw, pixelLine: true });
      }
      c.pendingLines.clear();
    }
    for (const m of o.markers) {
      const t = new Text({ text: m.label, style: { fill: m.colour, fontSize: 13, fontFamily: 'monospace', stroke: { color: 0x000000, width: 3 } } });
      t.anchor.set(0.5, 1.2);
      t.position.set(m.x, m.y);
      this.markerLayer.addChild(t);
      const dot = new Graphics().circle(0, 0, 4).fill({ color: m.colour }).stroke({ color: 0x000000, width: 1 });
      dot.position.set(m.x, m.y);
      this.markerLayer.addChild(dot);
    }
  }

  /** Shows or hides one layer: ground, overlay, markers, weather, sight or bodies. */
  setLayerVisible(name: string, on: boolean): void {
    const layers: Record<string, Container> = {
      ground: this.ground,
      overlay: this.overlayLayer,
      markers: this.markerLayer,
      weather: this.weather,
      sight: this.sight,
      bodies: this.bodies,
    };
    const l = layers[name];
    if (!l) throw new RangeError(`no layer ${JSON.stringify(name)} (layers: ${Object.keys(layers).join(', ')})`);
    l.visible = on;
  }

  /** Sets the view's size in screen pixels. */
  resize(width: number, height: number): void {
    this.camera.resize(width, height);
  }

  /** Shows or hides the format overlay and its markers. */
  setOverlayVisible(on: boolean): void {
    this.overlayLayer.visible = on;
    this.markerLayer.visible = on;
  }

  /** The player's map position (NaN when there is none). */
  playerPosition(): [number, number] {
    const e = this.entities;
    for (let i = 0; i < e.count; i++) if (e.player[i]) return [e.x[i]!, e.y[i]!];
    return [NaN, NaN];
  }

  /** Reads the simulation's current state and updates every per-frame layer. */
  draw(): void {
    const t0 = performance.now();
    const sim = this.sim;
    const e = readEntities(sim, this.plane, this.entities, this.idScratch);
    const [px, py] = this.playerPosition();
    const cam = this.camera;
    cam.track(px, py);
    this.map.scale.set(cam.zoom);
    this.map.position.set(cam.width / 2 - cam.cx * cam.zoom, cam.height / 2 - cam.cy * cam.zoom);
    // Labels and marker dots keep their screen size.
    for (const c of this.markerLayer.children) c.scale.set(1 / cam.zoom);
    // Only the overlay chunks that meet the view are drawn.
    const hw = cam.width / 2 / cam.zoom;
    const hh = cam.height / 2 / cam.zoom;
    for (const c of this.chunks) if (c) c.g.visible = c.x1 >= cam.cx - hw && c.x0 <= cam.cx + hw && c.y1 >= cam.cy - hh && c.y0 <= cam.cy + hh;
    this.drawBodies(e);
    this.drawSight(e);
    this.drawWeather();
    this.lastDrawMs = performance.now() - t0;
  }

  private drawBodies(e: EntityFrame): void {
    const zoom = this.camera.zoom;
    // A margin of a few bodies' size so arrows at the edge do not pop.
    const vw = this.camera.width / 2 / zoom + (2 * MAX_ENTITY_PIXELS) / zoom;
    const vh = this.camera.height / 2 / zoom + (2 * MAX_ENTITY_PIXELS) / zoom;
    while (this.sprites.length < e.count) {
      const s = new Sprite(this.arrow);
      s.anchor.set(0.5);
      this.sprites.push(s);
      this.bodies.addChild(s);
    }
    this.indexOfId.fill(-1);
    for (let i = 0; i < this.sprites.length; i++) {
      const s = this.sprites[i]!;
      if (i >= e.count) {
        s.visible = false;
        continue;
      }
      this.indexOfId[e.ids[i]!] = i;
      s.visible = Math.abs(e.x[i]! - this.camera.cx) <= vw && Math.abs(e.y[i]! - this.camera.cy) <= vh;
      s.position.set(e.x[i]!, e.y[i]!);
      // Rotation is presentation only, so Math.atan2 is fine here.
      s.rotation = Math.atan2(e.dirY[i]!, e.dirX[i]!);
      const player = e.player[i] === 1;
      const k = player ? 1.6 : 1;
      const px = Math.min(k * MAX_ENTITY_PIXELS, Math.max(k * MIN_ENTITY_PIXELS, 2 * e.radius[i]! * zoom * k));
      s.scale.set(px / 32 / zoom);
      s.tint = player ? 0xff3d00 : e.agent[i] ? (e.target[i] ? (e.visible[i] ? 0x76ff03 : 0xffea00) : 0x80deea) : 0xffffff;
    }
  }

  private drawSight(e: EntityFrame): void {
    const g = this.sight;
    g.clear();
    if (!this.showSight) return;
    const cam = this.camera;
    const plane = this.plane;
    const vw = cam.width / 2 / cam.zoom;
    const vh = cam.height / 2 / cam.zoom;
    // Watched entities: a line to the target, green when it is visible, red when the world blocks it (for the
    // watchers in view: lines from far away would only cover the screen).
    for (const seen of [1, 0]) {
      let any = false;
      for (let i = 0; i < e.count; i++) {
        const t = e.target[i]!;
        if (!t || (e.visible[i] ? 1 : 0) !== seen) continue;
        if (Math.abs(e.x[i]! - cam.cx) > vw || Math.abs(e.y[i]! - cam.cy) > vh) continue;
        const j = t >= 0 && t < this.indexOfId.length ? this.indexOfId[t]! : -1;
        if (j < 0) continue;
        g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[j]!, e.y[j]!);
        any = true;
      }
      if (any) g.stroke({ color: seen ? 0x76ff03 : 0xff5252, alpha: 0.3, width: 1 / this.camera.zoom, pixelLine: true });
    }
    // Rays along the facing of the agents nearest the view's centre, stopped where the world blocks them.
    const world = this.sim.world;
    const up = plane.up;
    const [h0, h1] = [plane.ax, plane.ay];
    const pos = this.sim.ecs.components.Position;
    const P = [pos.x, pos.y, pos.z];
    let m = 0;
    for (let i = 0; i < e.count && m < MAX_SIGHT_RAYS; i++) {
      if (!e.agent[i] || e.target[i]) continue;
      if (Math.abs(e.x[i]! - cam.cx) > vw || Math.abs(e.y[i]! - cam.cy) > vh) continue;
      const id = e.ids[i]!;
      const range = e.sightRange[i]! > 0 ? e.sightRange[i]! : 10 * world.scale;
      const o = m * SEGMENT_STRIDE;
      const eye = plane.upSign * Math.max(e.radius[i]!, 1e-6);
      for (let k = 0; k < 3; k++) this.rays[o + k] = P[k]![id]!;
      this.rays[o + up] += eye;
      for (let k = 0; k < 3; k++) this.rays[o + 3 + k] = this.rays[o + k]!;
      this.rays[o + 3 + h0] += e.dirX[i]! * range;
      this.rays[o + 3 + h1] += plane.ySign * e.dirY[i]! * range;
      if (world.integer) for (let k = 0; k < 6; k++) this.rays[o + k] = Math.round(this.rays[o + k]!);
      this.rayOwner[m] = i;
      m++;
    }
    if (m === 0) return;
    losBatch(world, this.rays, this.rayOut, 0, m);
    for (let r = 0; r < m; r++) {
      const i = this.rayOwner[r]!;
      const f = this.rayOut.fraction[r]!;
      const o = r * SEGMENT_STRIDE;
      const dx = this.rays[o + 3 + h0]! - this.rays[o + h0]!;
      const dy = plane.ySign * (this.rays[o + 3 + h1]! - this.rays[o + h1]!);
      g.moveTo(e.x[i]!, e.y[i]!).lineTo(e.x[i]! + dx * f, e.y[i]! + dy * f);
    }
    g.stroke({ color: 0xb2ebf2, alpha: 0.35, width: 1 / this.camera.zoom, pixelLine: true });
  }

  private drawWeather(): void {
    const g = this.weather;
    g.clear();
    const cam = this.camera;
    const flash = this.flash;
    flash.clear();
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
      for (const it of a.items) {
        const x = vx + fold(it.x - vx) + ox;
        const y = ySign * (vy + fold(it.y - vy) + oy);
        const n = it.name;
        if (it.kind === 'sprite') {
          if (n.includes('rai')) g.moveTo(x, y).lineTo(x + 4 * px, y + 18 * px).stroke({ color: 0x4fc3f7, alpha: 1, width: 2 * px });
          else if (n.includes('sno')) g.circle(x, y, 3 * px).fill({ color: 0xffffff, alpha: 1 }).stroke({ color: 0x607d8b, alpha: 0.8, width: 1 / this.camera.zoom, pixelLine: true });
          else if (n.includes('thu')) {
            // The bolt: a jagged line straight down the screen from its sprite.
            g.moveTo(x, y - 60 * px).lineTo(x + 8 * px, y - 30 * px).lineTo(x - 6 * px, y - 10 * px).lineTo(x, y).stroke({ color: 0xfffde7, alpha: 1, width: 3 * px });
          } else if (n.includes('fir')) g.circle(x, y, 3 * px).fill({ color: 0xffb300, alpha: Math.max(0.35, it.alpha) });
          else g.circle(x, y, 2 * px).fill({ color: 0xe0e0e0, alpha: 0.8 });
        } else if (it.kind === 'smoke') {
          g.circle(x, y, Math.max(6 * px, it.size)).fill({ color: 0x9e9e9e, alpha: 0.35 });
        } else if (it.kind === 'model') {
          if (n === 'bird') g.moveTo(x - 8 * px, y - 4 * px).lineTo(x, y).lineTo(x + 8 * px, y - 4 * px).stroke({ color: 0x212121, alpha: 1, width: 2 * px });
          else if (n.startsWith('tobj')) g.poly([x, y - 9 * px, x + 7 * px, y, x, y + 9 * px, x - 7 * px, y], true).fill({ color: 0xe040fb, alpha: 0.9 });
          else g.circle(x, y, 10 * px).fill({ color: 0xcfd8dc, alpha: 0.25 });
        } else if (it.kind === 'hum') {
          // The traveller's hum: rings whose size follows its volume.
          g.circle(x, y, (10 + 30 * it.alpha) * px).stroke({ color: 0xe040fb, alpha: 0.8, width: 1 / this.camera.zoom, pixelLine: true });
        } else if (it.kind === 'sound3d') {
          g.circle(x, y, 14 * px).stroke({ color: 0xffffff, alpha: 0.6, width: 1 / this.camera.zoom, pixelLine: true });
        }
      }
      if (a.flash > 0) this.flashLevel = Math.max(this.flashLevel, a.flash);
    }
    if (this.flashLevel > 0.01) {
      flash.rect(0, 0, cam.width, cam.height).fill({ color: 0xffffff, alpha: Math.min(0.85, this.flashLevel) });
      this.flashLevel *= 0.8;
    } else this.flashLevel = 0;
  }

  /** Frees the view's display objects and its own textures (the ground, the arrow, the labels). */
  destroy(): void {
    this.stage.destroy({ children: true, texture: true, textureSource: true });
  }
}
