/**
 * Files dropped anywhere on the page are opened (the browser must not navigate to them), and while files are
 * dragged over the window the drop cue shows what can be dropped (drag-cue.ts decides when).
 */
import { DragCue } from './drag-cue.js';

/** Whether a drag carries files (not text or a link dragged from the page). */
function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/** Binds the page's file drop on `target`; `cue` is shown while files are dragged over it. Returns the cue's state. */
export function bindFileDrop(target: Window, open: (files: File[]) => void, cue: HTMLElement): DragCue {
  const state = new DragCue();
  const show = (on: boolean) => {
    if (cue.hidden === on) cue.hidden = !on;
  };
  target.addEventListener('dragenter', (e) => {
    e.preventDefault();
    show(state.enter(carriesFiles(e)));
  });
  target.addEventListener('dragover', (e) => {
    e.preventDefault();
    show(state.over(carriesFiles(e)));
  });
  target.addEventListener('dragleave', () => show(state.leave()));
  target.addEventListener('dragend', () => show(state.end()));
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    show(state.end());
    open(Array.from(e.dataTransfer?.files ?? []));
  });
  target.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.shown) show(state.end());
  });
  return state;
}
