/**
 * The agents on the map, in one of three ways: "paths" (a filled arrow path each, in three colour groups),
 * "sprites" (a tinted arrow sprite each, pooled: batched on the GPU renderers) or "stamps" (for the canvas
 * renderer: each arrow copied from a sheet drawn once per size, see arrow-stamps.ts); and the player, drawn
 * above the map's marks as a sprite with a halo. Also the white arrow texture the sprites share.
 */
import { CanvasSource, Container, Graphics, RenderContainer, Sprite, Texture, type CanvasRenderer, type Renderer } from 'pixi.js';
import { ARROW_POINTS, directionIndex, stampSize, traceArrow } from '../scene/arrow-stamp.js';
import type { Camera } from '../scene/camera.js';
import type { EntityFrame } from '../scene/entities.js';
import { ENTITY_COLOURS } from '../scene/palette.js';
import { ArrowSheets, StampCanvas } from './arrow-stamps.js';
import { bodyMargin, entityPixels } from './entity-size.js';

/** The arrow texture's side: drawn large and scaled down, so it stays sharp on high-density screens. */
const ARROW_TEXTURE = 64;
/** Above this many arrows in view they are drawn without an outline (a software renderer pays per stroke). */
const OUTLINE_LIMIT = 150;

/** How the agents are drawn (see `ViewOptions.bodies`). */
export type BodyMode = 'paths' | 'sprites' | 'stamps';

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

/** The agents' layers (one shown, by the way of drawing) and the player's sprite and halo. */
export class AgentBodies {
  /** The agents: one filled arrow shape each, in three colour groups (fast on every renderer). */
  readonly bodies = new Graphics();
  /** The agents as sprites (the GPU renderers), in their own layer. */
  readonly bodySprites = new Container();
  /** The agents as stamps (the canvas renderer): drawn straight into the renderer's 2D context. */
  readonly bodyStamps: RenderContainer;
  /** The player's halo and arrow, for the view's top layer (above the selection's marks). */
  readonly playerHalo = new Graphics();
  readonly playerSprite: Sprite;
  private readonly sprites: Sprite[] = [];
  private readonly stamps = new ArrowSheets([ENTITY_COLOURS.agent, ENTITY_COLOURS.agentSees, ENTITY_COLOURS.other]);
  private stampCanvasMade: StampCanvas | null = null;
  private bodiesInView = 0;
  private bodyMode: BodyMode;
  /** Each entity's colour group in the last draw (0: not drawn; 1 agent, 2 agent that sees, 3 other). */
  private readonly groupOf: Uint8Array;
  private readonly arrow: Texture;

  constructor(
    /** The entity frame the view reads each draw (the stamps are drawn from it at render time). */
    private readonly entities: EntityFrame,
    private readonly camera: Camera,
    /** Entities the simulation holds at most. */
    private readonly capacity: number,
    mode: BodyMode,
  ) {
    this.arrow = arrowTexture();
    this.playerSprite = new Sprite(this.arrow);
    this.playerSprite.anchor.set(0.5);
    this.playerSprite.tint = ENTITY_COLOURS.player;
    this.playerSprite.visible = false;
    this.groupOf = new Uint8Array(capacity);
    this.bodyMode = mode;
    this.bodyStamps = new RenderContainer({ render: (r: Renderer) => this.renderStamps(r) });
    this.bodies.visible = this.bodyMode === 'paths';
    this.bodySprites.visible = this.bodyMode === 'sprites';
    this.bodyStamps.visible = this.bodyMode === 'stamps';
  }

  /** The layer the agents are drawn in, in the current way of drawing them. */
  layer(): Container {
    return this.bodyMode === 'paths' ? this.bodies : this.bodyMode === 'sprites' ? this.bodySprites : this.bodyStamps;
  }

  /** Places the player (`player`, the entity drawn as the player) and draws the other bodies near the view. */
  draw(e: EntityFrame, player: number): void {
    const zoom = this.camera.zoom;
    const [vx0, vy0, vx1, vy1] = this.camera.visibleRect();
    const m = bodyMargin(zoom);
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
        const px = entityPixels(e.radius[i]!, true, zoom);
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
  }

  /** The stamps' layer (made at the first frame drawn with stamps). */
  private get stampCanvas(): StampCanvas {
    return (this.stampCanvasMade ??= new StampCanvas(this.capacity));
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
      const size = stampSize(entityPixels(e.radius[i]!, false, zoom) * dpp);
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
      s.scale.set(entityPixels(e.radius[i]!, false, zoom) / ARROW_TEXTURE / zoom);
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
        const h = entityPixels(e.radius[i]!, false, zoom) / 32 / zoom;
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
}
