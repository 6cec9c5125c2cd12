/**
 * The mouse on the map and on the overview inset: the wheel zooms about the cursor, a drag pans (past a few
 * pixels, so a click stays a click), hovering reads the point under the cursor, a click inspects; a click or
 * a drag in the overview moves the camera there. Points are passed on in CSS pixels of the canvas.
 */
import type { Camera } from '../scene/camera.js';
import { ZOOM_IN, ZOOM_OUT } from './page-actions.js';

/** Pointer travel (CSS pixels) past which a press is a drag, not a click. */
export const DRAG_PIXELS = 4;

/** What the map's pointer asks of the page. */
export interface MapPointerHost {
  /** The camera shown, if any. */
  camera(): Camera | null;
  hover(sx: number, sy: number): void;
  leave(): void;
  click(sx: number, sy: number): void;
}

export function bindMapPointer(canvas: HTMLCanvasElement, host: MapPointerHost): void {
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const r = canvas.getBoundingClientRect();
      host.camera()?.zoomAt(e.deltaY < 0 ? ZOOM_IN : ZOOM_OUT, e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; moved: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, moved: 0 };
    canvas.focus();
  });
  window.addEventListener('pointerup', (e) => {
    const d = drag;
    drag = null;
    if (d && d.moved < DRAG_PIXELS && e.target === canvas) {
      const r = canvas.getBoundingClientRect();
      host.click(e.clientX - r.left, e.clientY - r.top);
    }
  });
  window.addEventListener('pointermove', (e) => {
    const r = canvas.getBoundingClientRect();
    if (e.target === canvas) host.hover(e.clientX - r.left, e.clientY - r.top);
    const cam = host.camera();
    if (!drag || !cam) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.moved += Math.abs(dx) + Math.abs(dy);
    if (drag.moved >= DRAG_PIXELS) cam.panPixels(dx, dy);
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
  canvas.addEventListener('pointerleave', () => host.leave());
}

/** What the overview inset's pointer asks of the page. */
export interface OverviewPointerHost {
  /** The map point under an offset (CSS pixels) in the inset. */
  mapAt(x: number, y: number): [number, number] | null;
  camera(): Camera | null;
  /** The drag ended. */
  done(): void;
}

export function bindOverviewPointer(mini: HTMLCanvasElement, host: OverviewPointerHost): void {
  let dragging = false;
  const jump = (e: PointerEvent) => {
    const r = mini.getBoundingClientRect();
    const p = host.mapAt(e.clientX - r.left - mini.clientLeft, e.clientY - r.top - mini.clientTop);
    const cam = host.camera();
    if (p && cam) cam.centreOn(p[0], p[1]);
  };
  mini.addEventListener('pointerdown', (e) => {
    dragging = true;
    jump(e);
    e.stopPropagation();
  });
  mini.addEventListener('pointermove', (e) => {
    if (dragging) jump(e);
  });
  window.addEventListener('pointerup', () => {
    if (dragging) {
      dragging = false;
      host.done();
    }
  });
}
