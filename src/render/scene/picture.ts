/**
 * A still picture of any world, drawn from the same pure scene data the sandbox draws (no pixi.js): the ground
 * raster (heights shaded, edges between surfaces darkened, materials tinted), the format's overlay (walls,
 * boxes, spheres, objects, grids), optionally a simulation's entities with their sight (lines to watched
 * targets, green when seen and red when the world blocks them, and rays along the facing of the others,
 * stopped where the world blocks them), a scale bar and a legend. RGBA out; the caller encodes it.
 */
import type { Simulation } from '../../sim/simulation.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../systems/los/los-batch.js';
import { MATERIAL_DEATH, MATERIAL_EXIT, MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../../worlds/llama/materials.js';
import { LLAMA_MATERIAL_TINTS, rasterizeGround, BACKGROUND_RGB } from './ground-raster.js';
import { rampColour } from './ground-palette.js';
import { overlayFor, paletteColour, type Shape } from './overlays.js';
import { newEntityFrame, readEntities } from './entities.js';
import { mapPlaneOf, type MapRect } from './projection.js';
import { Painter } from './painter.js';
import { GLYPH_H, textWidth } from './pixel-font.js';

/** Options of worldPicture. */
export interface PictureOptions {
  /** Pixels along the longer side of the map (default 512, 64..2048). */
  size?: number;
  /** A simulation of the world whose entities and sight are drawn (its current frame). */
  sim?: Simulation;
  /** Most sight rays cast (the agents without a target, lowest ids first). Default 256. */
  maxRays?: number;
  /** The part of the map drawn (native map units); the world's bounds by default. */
  region?: MapRect;
  /** The footer's title (default: the world's kind and name). */
  title?: string;
  /** Something more drawn over the map (after the overlay and entities), with its legend entries. */
  layer?: PictureLayer;
}

/** Drawing added to a picture: its legend entries and a function drawing it in the picture's pixels. */
export interface PictureLayer {
  legend: { label: string; colour: number }[];
  /** Draws on `p`; `toPixel` maps a map point (native units) to the picture's pixels. */
  draw(p: Painter, toPixel: (x: number, y: number) => [number, number], unit: number): void;
}

/** A drawn picture: RGBA bytes, and what the legend lists. */
export interface WorldPicture {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
  /** The legend's entries, in order (label and colour 0xRRGGBB). */
  legend: { label: string; colour: number }[];
  /** Map units per pixel, and the scale bar's length in metres. */
  unit: number;
  scaleBarMetres: number;
  /** The pixel (fractional) of a map point (native units). */
  toPixel(x: number, y: number): [number, number];
}

const LLAMA_NAMES: ReadonlyMap<number, string> = new Map([
  [MATERIAL_EXIT, 'exit'],
  [MATERIAL_SPECIAL_A, 'special a'],
  [MATERIAL_SPECIAL_B, 'special b'],
  [MATERIAL_DEATH, 'death'],
]);

const rgbInt = (c: readonly number[]): number => ((c[0]! & 255) << 16) | ((c[1]! & 255) << 8) | (c[2]! & 255);

/** A length of 1, 2 or 5 × 10^k metres near `target`. */
export function niceLength(target: number): number {
  if (!(target > 0) || !Number.isFinite(target)) return 1;
  const p = 10 ** Math.floor(Math.log10(target));
  const m = target / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/** Draws a world (see the module comment). Pure: the same world and simulation state give the same pixels. */
export function worldPicture(world: CollisionWorld, options: PictureOptions = {}): WorldPicture {
  const size = Math.max(64, Math.min(2048, Math.floor(options.size ?? 512)));
  const raster = rasterizeGround(world, { maxSize: size, ...(options.region ? { rect: options.region } : {}) });
  const unit = raster.unit;
  const toPx = (x: number) => (x - raster.x0) / unit;
  const toPy = (y: number) => (y - raster.y0) / unit;
  const legend: WorldPicture['legend'] = [];
  // Legend entries first, so the footer's height is known.
  const overlay = overlayFor(world);
  const layers = new Map<string, number>();
  for (const s of overlay.shapes) if (!layers.has(s.layer)) layers.set(s.layer, shapeColour(s));
  const matCount = new Map<number, number>();
  for (let i = 0; i < raster.materials.length; i++) if (Number.isFinite(raster.heights[i]!)) matCount.set(raster.materials[i]!, (matCount.get(raster.materials[i]!) ?? 0) + 1);
  if (world.kind === 'llama') {
    for (const [m, name] of LLAMA_NAMES) if (matCount.has(m)) legend.push({ label: name, colour: rgbInt(LLAMA_MATERIAL_TINTS.get(m)!) });
  } else if (world.kind === 'gta') {
    const top = [...matCount].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 6);
    for (const [m] of top) legend.push({ label: `surface ${m}`, colour: paletteColour(m) });
  }
  for (const [layer, colour] of layers) legend.push({ label: layer, colour });
  for (const mk of overlay.markers) if (!legend.some((l) => l.label === mk.label)) legend.push({ label: mk.label, colour: mk.colour });
  if (options.sim) {
    legend.push({ label: 'player', colour: 0xff3d00 }, { label: 'agent', colour: 0x80deea }, { label: 'sees target', colour: 0x76ff03 }, { label: 'target hidden', colour: 0xff5252 }, { label: 'sight ray', colour: 0xb2ebf2 });
  }
  if (options.layer) legend.push(...options.layer.legend);
  const width = Math.max(raster.width, 320);
  // Footer: the height ramp and scale bar, then legend entries in rows.
  const lineH = GLYPH_H + 6;
  const rows: { label: string; colour: number }[][] = [[]];
  let rowW = 0;
  for (const e of legend) {
    const w = 12 + textWidth(e.label) + 12;
    if (rowW + w > width - 8 && rows[rows.length - 1]!.length > 0) {
      rows.push([]);
      rowW = 0;
    }
    rows[rows.length - 1]!.push(e);
    rowW += w;
  }
  const footer = 6 + lineH * 2 + (legend.length ? rows.length * lineH : 0) + 4;
  const p = new Painter(width, raster.height + footer, BACKGROUND_RGB);
  const ox = Math.floor((width - raster.width) / 2);
  p.blit(raster.rgba, raster.width, raster.height, ox, 0);
  // A part of a world, or a layer, is drawn on the map alone (kept off the footer); else on the picture, as it was.
  const m = options.region || options.layer ? new Painter(width, raster.height, BACKGROUND_RGB) : p;
  if (m !== p) m.rgba.set(p.rgba.subarray(0, m.rgba.length));
  // The overlay, in pixels.
  for (const s of overlay.shapes) drawShape(m, s, (x) => ox + toPx(x), toPy, unit);
  for (const mk of overlay.markers) {
    const x = ox + toPx(mk.x), y = toPy(mk.y);
    m.circle(x, y, 3, mk.colour, 1, 0x000000, 0.8);
    m.text(x + 5, y - 3, mk.label, mk.colour);
  }
  if (options.sim) drawEntities(m, options.sim, world, (x) => ox + toPx(x), toPy, unit, options.maxRays ?? 256);
  const toPixel = (x: number, y: number): [number, number] => [ox + toPx(x), toPy(y)];
  options.layer?.draw(m, toPixel, unit);
  if (m !== p) p.rgba.set(m.rgba);
  // Footer.
  let y = raster.height + 6;
  const ramp = 120;
  let lo = Infinity, hi = -Infinity;
  for (const h of raster.heights) {
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  // The ground palette's ramp, as the map is coloured (ground-palette.ts), from the lowest to the highest floor.
  const c = [0, 0, 0];
  for (let i = 0; i < ramp; i++) p.rect(8 + i, y, 1, GLYPH_H, rgbInt(rampColour(i / (ramp - 1), c)));
  const metres = (v: number) => (Number.isFinite(v) ? `${+(v / world.scale).toFixed(2)} m` : '-');
  p.text(8 + ramp + 6, y, `heights ${metres(lo)} to ${metres(hi)}`, 0xdddddd);
  y += lineH;
  const barMetres = niceLength((width / 4) * unit / world.scale);
  const barPx = (barMetres * world.scale) / unit;
  p.rect(8, y + 2, barPx, 3, 0xffffff);
  p.rect(8, y, 1, 7, 0xffffff);
  p.rect(8 + barPx - 1, y, 1, 7, 0xffffff);
  p.text(8 + barPx + 6, y, `${barMetres} m`, 0xffffff);
  const title = options.title ?? `${world.kind} ${world.name}`;
  p.text(width - 8 - textWidth(title), y, title, 0x9aa4b2);
  y += lineH;
  for (const row of rows) {
    let x = 8;
    for (const e of row) {
      p.rect(x, y, 8, GLYPH_H, e.colour);
      p.text(x + 12, y, e.label, 0xdddddd);
      x += 12 + textWidth(e.label) + 12;
    }
    if (row.length) y += lineH;
  }
  return { width: p.width, height: p.height, rgba: p.rgba, legend, unit, scaleBarMetres: barMetres, toPixel };
}

function shapeColour(s: Shape): number {
  if (s.kind === 'lines') return s.colour;
  return s.fill ?? s.stroke ?? 0xffffff;
}

function drawShape(p: Painter, s: Shape, X: (x: number) => number, Y: (y: number) => number, unit: number): void {
  if (s.kind === 'lines') {
    const g = s.segments;
    for (let i = 0; i + 3 < g.length; i += 4) p.line(X(g[i]!), Y(g[i + 1]!), X(g[i + 2]!), Y(g[i + 3]!), s.colour, s.alpha);
  } else if (s.kind === 'poly') {
    const pts: number[] = [];
    for (let i = 0; i + 1 < s.points.length; i += 2) pts.push(X(s.points[i]!), Y(s.points[i + 1]!));
    p.polygon(pts, s.fill, s.fillAlpha, s.stroke, s.strokeAlpha);
  } else p.circle(X(s.x), Y(s.y), s.r / unit, s.fill, s.fillAlpha, s.stroke, s.strokeAlpha);
}

/** The entities and their sight, as the sandbox draws them (src/render/pixi/world-view.ts), into pixels. */
function drawEntities(p: Painter, sim: Simulation, world: CollisionWorld, X: (x: number) => number, Y: (y: number) => number, unit: number, maxRays: number): void {
  const plane = mapPlaneOf(world);
  const cap = sim.ecs.capacity;
  const e = newEntityFrame(cap);
  readEntities(sim, plane, e, { ids: new Uint32Array(cap) });
  const index = new Map<number, number>();
  for (let i = 0; i < e.count; i++) index.set(e.ids[i]!, i);
  for (let i = 0; i < e.count; i++) {
    const t = e.target[i]!;
    const j = t ? index.get(t) : undefined;
    if (j === undefined) continue;
    p.line(X(e.x[i]!), Y(e.y[i]!), X(e.x[j]!), Y(e.y[j]!), e.visible[i] ? 0x76ff03 : 0xff5252, 0.5);
  }
  // Rays along the facing of the agents without a target, stopped where the world blocks them.
  const pos = sim.ecs.components.Position;
  const P = [pos.x, pos.y, pos.z];
  const owners: number[] = [];
  for (let i = 0; i < e.count && owners.length < maxRays; i++) if (e.agent[i] && !e.target[i]) owners.push(i);
  if (owners.length > 0) {
    const rays = new Float64Array(owners.length * SEGMENT_STRIDE);
    const out = newLosOutput(owners.length);
    owners.forEach((i, m) => {
      const id = e.ids[i]!;
      const range = e.sightRange[i]! > 0 ? e.sightRange[i]! : 10 * world.scale;
      const o = m * SEGMENT_STRIDE;
      for (let k = 0; k < 3; k++) rays[o + k] = P[k]![id]!;
      rays[o + plane.up] = rays[o + plane.up]! + plane.upSign * Math.max(e.radius[i]!, 1e-6);
      for (let k = 0; k < 3; k++) rays[o + 3 + k] = rays[o + k]!;
      rays[o + 3 + plane.ax] = rays[o + 3 + plane.ax]! + e.dirX[i]! * range;
      rays[o + 3 + plane.ay] = rays[o + 3 + plane.ay]! + plane.ySign * e.dirY[i]! * range;
      if (world.integer) for (let k = 0; k < 6; k++) rays[o + k] = Math.round(rays[o + k]!);
    });
    losBatch(world, rays, out, 0, owners.length);
    owners.forEach((i, m) => {
      const f = out.fraction[m]!;
      const o = m * SEGMENT_STRIDE;
      const dx = rays[o + 3 + plane.ax]! - rays[o + plane.ax]!;
      const dy = plane.ySign * (rays[o + 3 + plane.ay]! - rays[o + plane.ay]!);
      p.line(X(e.x[i]!), Y(e.y[i]!), X(e.x[i]! + dx * f), Y(e.y[i]! + dy * f), 0xb2ebf2, 0.6);
    });
  }
  for (let i = 0; i < e.count; i++) {
    const player = e.player[i] === 1;
    const colour = player ? 0xff3d00 : e.agent[i] ? (e.target[i] ? (e.visible[i] ? 0x76ff03 : 0xffea00) : 0x80deea) : 0xffffff;
    const r = Math.max(player ? 3 : 2, Math.min(8, e.radius[i]! / unit));
    const x = X(e.x[i]!), y = Y(e.y[i]!);
    p.circle(x, y, r, colour, 1, 0x000000, 0.7);
    p.line(x, y, x + e.dirX[i]! * (r + 3), y + e.dirY[i]! * (r + 3), 0x000000, 0.9);
  }
}
