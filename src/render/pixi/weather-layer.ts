/**
 * The Piney weather and sky, drawn from the frame's ambient operation list: the small items (rain, snow,
 * embers, fireflies, birds, smoke...) on the map, the bolt and the traveller on the sky layer in screen pixels
 * (pulled in to the edge of the view when they are outside it), and the storm's flash over everything, which
 * comes on the event bus and fades out over its frames. Reads the simulation, never writes it.
 */
import { Graphics } from 'pixi.js';
import type { Simulation } from '../../sim/simulation.js';
import { FIELD_SIZE } from '../../worlds/piney/field-state.js';
import { ambientOpsSource, decodeAmbient, type AmbientFrame, type AmbientOpsSource } from '../scene/ambient-ops.js';
import type { Camera } from '../scene/camera.js';
import { WEATHER_COLOURS } from '../scene/palette.js';
import type { MapPlane } from '../scene/projection.js';
import { clampToView, weatherKindOf, type WeatherKind } from '../scene/weather-look.js';

/** The flash fades out over the frames its operation gives (10). */
const FLASH_FRAMES = 10;
/** How far inside the view's edge an off-screen sky item is drawn, in pixels: the bolt (90 long), the traveller. */
const BOLT_INSET = 52;
const TRAVELLER_INSET = 28;

/** What a draw put on screen, for the tests: sky items pulled to the edge, the flash's alpha. */
export interface SkySeen {
  bolt: boolean;
  boltClamped: boolean;
  traveller: boolean;
  travellerClamped: boolean;
  flash: number;
}

/** The weather's three layers and the flash's timing, drawn once a frame by `draw`. */
export class WeatherLayer {
  /** The small weather items, on the map (under the selection's marks). */
  readonly weather = new Graphics();
  /** The bolt and the traveller, in screen pixels above the map. */
  readonly sky = new Graphics();
  /** The storm's flash, over the whole screen. */
  readonly flash = new Graphics();
  private readonly ambient: AmbientOpsSource | null;
  private readonly offFlash: () => void;
  private flashFrame = -1;
  private flashIntensity = 0;

  constructor(
    private readonly sim: Simulation,
    private readonly plane: MapPlane,
    private readonly camera: Camera,
    /** Map point → screen CSS pixel as the map is drawn. */
    private readonly toScreen: (x: number, y: number) => [number, number],
  ) {
    this.ambient = ambientOpsSource(sim);
    // The flash comes on the event bus on the frame its operation was drawn (the view may skip frames).
    const onFlash = (e: { frame: number; intensity: number }) => {
      this.flashFrame = e.frame;
      this.flashIntensity = Math.max(0, Math.min(1, e.intensity));
    };
    sim.events.on('flash', onFlash);
    this.offFlash = () => sim.events.off('flash', onFlash);
  }

  /**
   * Draws the frame's weather about the player at map point (pxm, pym), records each kind drawn in `kinds` and
   * what reached the sky and the flash in `seen`. Returns the decoded weather frame (null when the frame has
   * none), or undefined when the field has no weather at all.
   */
  draw(pxm: number, pym: number, seen: SkySeen, kinds: Set<WeatherKind>): AmbientFrame | null | undefined {
    const g = this.weather;
    g.clear();
    const sky = this.sky;
    sky.clear();
    const cam = this.camera;
    const flash = this.flash;
    flash.clear();
    seen.bolt = seen.boltClamped = seen.traveller = seen.travellerClamped = false;
    seen.flash = 0;
    if (!this.ambient) return undefined;
    const ops = this.ambient.read();
    const a = ops ? decodeAmbient(ops.words, ops.length) : null;
    if (a && ops) {
      const ySign = this.plane.ySign;
      // The field's tasks draw around their own stand-in viewer (the ambient walk), not the player: the
      // effects are drawn at their offset from that viewer, around the player, the offset folded onto the
      // field's torus.
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
        kinds.add(kind);
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
            this.drawBolt(x, y, seen);
            break;
          case 'smoke':
            g.circle(x, y, Math.max(6 * px, it.size)).fill({ color: C.smoke, alpha: 0.35 });
            break;
          case 'bird':
            g.moveTo(x - 8 * px, y - 4 * px).lineTo(x, y).lineTo(x + 8 * px, y - 4 * px).stroke({ color: C.bird, alpha: 1, width: 2 * px });
            break;
          case 'traveller':
            if (it.name === 'tobj') this.drawTraveller(x, y, seen);
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
    return a;
  }

  /** A sky item's place on screen: where it is, or pulled in to `inset` pixels inside the edge of the view. */
  private skyPlace(x: number, y: number, inset: number): { x: number; y: number; clamped: boolean } {
    const [sx, sy] = this.toScreen(x, y);
    return clampToView(sx, sy, this.camera.width, this.camera.height, inset);
  }

  /** The bolt: a jagged line 90 pixels long down the screen from its sprite, with a glow, on the sky layer. */
  private drawBolt(x: number, y: number, seen: SkySeen): void {
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
    seen.bolt = true;
    seen.boltClamped ||= p.clamped;
  }

  /** The traveller: a filled diamond 26 pixels long with an outline, on the sky layer. */
  private drawTraveller(x: number, y: number, seen: SkySeen): void {
    const p = this.skyPlace(x, y, TRAVELLER_INSET);
    const g = this.sky;
    g.poly([p.x, p.y - 13, p.x + 9, p.y, p.x, p.y + 13, p.x - 9, p.y], true).fill({ color: WEATHER_COLOURS.traveller, alpha: 1 }).stroke({ color: WEATHER_COLOURS.travellerOutline, alpha: 1, width: 2 });
    if (p.clamped) g.circle(p.x, p.y, 17).stroke({ color: WEATHER_COLOURS.traveller, alpha: 0.8, width: 1.5 });
    seen.traveller = true;
    seen.travellerClamped ||= p.clamped;
  }

  /** Stops listening to the event bus (the graphics go with the stage they are in). */
  destroy(): void {
    this.offFlash();
  }
}
