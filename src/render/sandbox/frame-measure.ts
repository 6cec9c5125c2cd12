/**
 * The page's own cost, measured for the browser tests and the benchmarks: frames run synchronously with the
 * step, the draw and the render timed apart, and the real interval of each animation frame while the page
 * runs on its own.
 */
import type { MapCanvas } from './map-canvas.js';

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The median (NaN for none). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
}

/**
 * Runs `n` frames, each stepped, drawn and rendered, and reports the mean and median milliseconds of each
 * part (the drawing is forced to finish by reading a pixel back each frame, so "render" is its true cost).
 */
export function measureFrames(map: MapCanvas, n: number, step: () => void, draw: () => void): Record<string, number | string> {
  const steps: number[] = [];
  const draws: number[] = [];
  const renders: number[] = [];
  const frames: number[] = [];
  const gl = (map.app.renderer as unknown as { gl?: WebGL2RenderingContext }).gl;
  // The canvas renderer's 2D context: reading a pixel back makes its drawing happen now, too.
  const ctx2d = gl ? null : map.canvas.getContext('2d');
  const px = new Uint8Array(4);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    step();
    const t1 = performance.now();
    draw();
    const t2 = performance.now();
    map.render();
    if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    else ctx2d?.getImageData(0, 0, 1, 1);
    const t3 = performance.now();
    steps.push(t1 - t0);
    draws.push(t2 - t1);
    renders.push(t3 - t2);
    frames.push(t3 - t0);
  }
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    frames: n,
    stepMs: mean(steps),
    drawMs: mean(draws),
    renderMs: mean(renders),
    frameMs: mean(frames),
    medianStepMs: median(steps),
    medianDrawMs: median(draws),
    medianRenderMs: median(renders),
    medianFrameMs: median(frames),
    p90FrameMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? NaN,
    maxFrameMs: sorted[sorted.length - 1] ?? NaN,
    maxStepMs: steps.reduce((a, b) => Math.max(a, b), 0),
    fps: 1000 / mean(frames),
    renderer: map.rendererName,
  };
}

/** The real time of each animation frame, recorded between `start` and `stop`. */
export class FrameTimes {
  private times: number[] = [];
  private stopRecording: () => void = () => undefined;

  constructor(private readonly map: MapCanvas) {}

  start(): void {
    this.times = [];
    const rec = () => this.times.push(performance.now());
    this.map.app.ticker.add(rec);
    this.stopRecording = () => this.map.app.ticker.remove(rec);
  }

  /** Stops recording; the recorded animation frames' intervals (ms). */
  stop(): number[] {
    this.stopRecording();
    const t = this.times;
    return t.slice(1).map((v, i) => v - t[i]!);
  }
}
