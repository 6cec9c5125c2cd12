/**
 * The map's canvas: the Pixi application in the page's view box (the renderer chosen by renderer-choice.ts),
 * kept on whole device pixels as the box and the device pixel ratio change, and given the keyboard back after
 * a control took it.
 */
import { Application, UPDATE_PRIORITY } from 'pixi.js';
import { chooseRenderer, fitToDevicePixels } from './renderer-choice.js';

/** The GPU's name as WebGL reports it ("" when there is no WebGL). */
function webglRendererName(): string {
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (!gl) return '';
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

export interface MapCanvasOptions {
  /** The renderer the link asked for. */
  renderer: string | undefined;
  antialias: boolean;
}

export class MapCanvas {
  /** The device pixel ratio the renderer draws at. */
  dpr: number;

  private constructor(
    readonly app: Application,
    private readonly host: HTMLElement,
    dpr: number,
  ) {
    this.dpr = dpr;
  }

  /** Told each render's milliseconds (measureRender). */
  private rendered: ((ms: number) => void) | null = null;

  /** The application, its canvas (id "map", focusable) first in `host`. */
  static async create(host: HTMLElement, o: MapCanvasOptions): Promise<MapCanvas> {
    const preference = chooseRenderer(o.renderer, webglRendererName);
    const dpr = Math.max(1, window.devicePixelRatio || 1);
    const app = new Application();
    await app.init({
      width: Math.max(1, host.clientWidth),
      height: Math.max(1, host.clientHeight),
      background: '#10141a',
      preference,
      antialias: o.antialias,
      preserveDrawingBuffer: true,
      autoDensity: true,
      resolution: dpr,
    });
    const canvas = app.canvas as HTMLCanvasElement;
    canvas.tabIndex = 0;
    canvas.id = 'map';
    host.insertBefore(canvas, host.firstChild);
    return new MapCanvas(app, host, dpr);
  }

  get canvas(): HTMLCanvasElement {
    return this.app.canvas as HTMLCanvasElement;
  }

  /** The renderer's name ("webgl", "webgpu", "canvas"). */
  get rendererName(): string {
    return this.app.renderer.name;
  }

  /** Sizes the renderer to its box, on whole device pixels; returns the size and resolution. */
  fit(): { width: number; height: number; dpr: number } {
    const dpr = Math.max(1, window.devicePixelRatio || 1);
    const f = fitToDevicePixels(this.host.getBoundingClientRect(), dpr);
    this.canvas.style.transform = f.dx || f.dy ? `translate(${f.dx}px, ${f.dy}px)` : '';
    if (dpr !== this.dpr) {
      this.dpr = dpr;
      this.app.renderer.resolution = dpr;
    }
    if (this.app.screen.width !== f.width || this.app.screen.height !== f.height || this.app.renderer.resolution !== dpr) this.app.renderer.resize(f.width, f.height, dpr);
    return { width: f.width, height: f.height, dpr };
  }

  /**
   * Times each render of the application's ticker (its CPU side: building and submitting the frame), calling
   * `done` with the milliseconds: a listener just before the ticker's render and one just after it.
   */
  measureRender(done: (ms: number) => void): void {
    this.rendered = done;
    let t0 = 0;
    this.app.ticker.add(() => (t0 = performance.now()), undefined, UPDATE_PRIORITY.LOW + 1);
    this.app.ticker.add(() => done(performance.now() - t0), undefined, UPDATE_PRIORITY.LOW - 1);
  }

  /** Renders the stage now (timed too, when `measureRender` asked). */
  render(): void {
    const t0 = performance.now();
    this.app.renderer.render(this.app.stage);
    this.rendered?.(performance.now() - t0);
  }

  /** Gives the keyboard back to the map (after a menu or a button took it). */
  focus(): void {
    const c = this.canvas;
    if (document.activeElement instanceof HTMLElement && document.activeElement !== c) document.activeElement.blur();
    c.focus();
  }
}
