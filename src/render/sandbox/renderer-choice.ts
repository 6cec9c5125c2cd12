/**
 * Which Pixi renderer the page uses, and where its canvas sits, without any DOM: the choice from the link and
 * the GPU's name, and the canvas's placement on whole device pixels.
 */

export type RendererPreference = 'webgl' | 'webgpu' | 'canvas';

/**
 * The renderer: as asked (?renderer=webgl|webgpu|canvas), else WebGL on a real GPU and the canvas renderer
 * when WebGL is only a CPU emulation (SwiftShader, llvmpipe: as in headless Chromium without a GPU), where the
 * canvas renderer is several times faster. `gpuName` gives WebGL's renderer name ("" when there is no WebGL);
 * it is asked only when the link did not choose (it opens a WebGL context).
 */
export function chooseRenderer(asked: string | undefined, gpuName: () => string): RendererPreference {
  if (asked === 'webgl' || asked === 'webgpu' || asked === 'canvas') return asked;
  const gpu = gpuName();
  return gpu === '' || /swiftshader|llvmpipe|software/i.test(gpu) ? 'canvas' : 'webgl';
}

/** The canvas's shift (CSS pixels) and size (whole CSS pixels) inside its box. */
export interface CanvasFit {
  dx: number;
  dy: number;
  width: number;
  height: number;
}

/**
 * The canvas on whole device pixels inside a box that may start between pixels (the bars above it): shifted
 * by the fraction, sized to whole CSS pixels that fit, so the compositor copies it without resampling.
 */
export function fitToDevicePixels(box: { left: number; top: number; width: number; height: number }, dpr: number): CanvasFit {
  const dx = Math.round(box.left * dpr) / dpr - box.left;
  const dy = Math.ceil(box.top * dpr - 1e-6) / dpr - box.top;
  return { dx, dy, width: Math.max(1, Math.floor(box.width - dx)), height: Math.max(1, Math.floor(box.height - dy)) };
}
