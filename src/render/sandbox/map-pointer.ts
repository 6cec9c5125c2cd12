/**
 * The mouse and touch on the map and on the overview inset: the wheel zooms about the cursor, a drag pans
 * (past a few pixels, so a click stays a click), hovering reads the point under the cursor, a click inspects
 * (a Shift+click sends the selected agent there);
 * one finger drags the map, two fingers pinch it (touch-gesture.ts does the arithmetic), a tap inspects as a
 * click does; a click or a drag in the overview moves the camera there. Points are passed on in CSS pixels of
 * the canvas.
 */
import type { Camera } from '../scene/camera.js';
import { ZOOM_IN, ZOOM_OUT } from './page-actions.js';
import { TouchGesture } from './touch-gesture.js';

/** Pointer travel (CSS pixels) past which a press is a drag, not a click. */
export const DRAG_PIXELS = 4;

/** What the map's pointer asks of the page. */
export interface MapPointerHost {
  /** The camera shown, if any. */
  camera(): Camera | null;
  hover(sx: number, sy: number): void;
  leave(): void;
  click(sx: number, sy: number): void;
  /** A Shift+click: send the selected agent there. */
  send?(sx: number, sy: number): void;
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
  bindMapTouch(canvas, host);
  let drag: { x: number; y: number; moved: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'touch') return;
    drag = { x: e.clientX, y: e.clientY, moved: 0 };
    canvas.focus();
  });
  window.addEventListener('pointerup', (e) => {
    if (e.pointerType === 'touch') return;
    const d = drag;
    drag = null;
    if (d && d.moved < DRAG_PIXELS && e.target === canvas) {
      const r = canvas.getBoundingClientRect();
      if (e.shiftKey && host.send) host.send(e.clientX - r.left, e.clientY - r.top);
      else host.click(e.clientX - r.left, e.clientY - r.top);
    }
  });
  window.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'touch') return;
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

/**
 * Fingers on the map (pointer events of type 'touch'; the canvas's `touch-action: none` keeps the browser from
 * scrolling or zooming the page instead): drags pan, pinches zoom about the point between the fingers, a tap
 * clicks. Moves and lifts are heard on the window, so a finger that slides off the canvas still ends its gesture.
 */
function bindMapTouch(canvas: HTMLCanvasElement, host: MapPointerHost): void {
  canvas.style.touchAction = 'none';
  const gesture = new TouchGesture();
  const at = (e: PointerEvent): [number, number] => {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    e.preventDefault();
    gesture.down(e.pointerId, ...at(e));
    canvas.focus();
  });
  window.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'touch') return;
    const s = gesture.move(e.pointerId, ...at(e));
    const cam = host.camera();
    if (!s || !cam) return;
    cam.panPixels(s.dx, s.dy);
    if (s.scale !== 1) cam.zoomAt(s.scale, s.cx, s.cy);
  });
  window.addEventListener('pointerup', (e) => {
    if (e.pointerType !== 'touch') return;
    const tap = gesture.up(e.pointerId, ...at(e));
    if (tap) host.click(tap[0], tap[1]);
  });
  window.addEventListener('pointercancel', (e) => {
    if (e.pointerType === 'touch') gesture.cancel(e.pointerId);
  });
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
