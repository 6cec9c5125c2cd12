/**
 * The on-screen controls of a touch screen: a pad of four arrows at the map's bottom left that walk the player
 * (held as the arrow keys are: the same buttons, read when a frame is stepped, so a replay records them as
 * any other input), and pause and one-frame-forward buttons at its bottom right. They show on a device whose
 * main pointer is coarse, and on any page the first time a finger touches it.
 */
import { Buttons } from '../../systems/input.js';

/** The pad's arrows: each element's `data-button` names one of these. */
export const PAD_BUTTONS: Readonly<Record<string, number>> = { up: Buttons.Up, down: Buttons.Down, left: Buttons.Left, right: Buttons.Right };

export interface TouchPadElements {
  /** The pad and the play buttons' box, hidden until shown. */
  box: HTMLElement;
  pause: HTMLElement;
  step: HTMLElement;
}

/** What the pad asks of the page. */
export interface TouchPadHost {
  pause(): void;
  step(): void;
}

export class TouchPad {
  private readonly held = new Map<number, number>();

  constructor(
    private readonly el: TouchPadElements,
    host: TouchPadHost,
    target: Window = window,
  ) {
    if (target.matchMedia('(pointer: coarse)').matches) this.show();
    target.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'touch') this.show();
    }, { capture: true });
    for (const b of Array.from(el.box.querySelectorAll<HTMLElement>('[data-button]'))) {
      const bit = PAD_BUTTONS[b.dataset['button'] ?? ''] ?? 0;
      b.addEventListener('pointerdown', (e) => {
        e.preventDefault();
        e.stopPropagation();
        b.setPointerCapture?.(e.pointerId);
        this.held.set(e.pointerId, bit);
        b.classList.add('held');
      });
      const up = (e: PointerEvent) => {
        if (!this.held.has(e.pointerId)) return;
        this.held.delete(e.pointerId);
        if (![...this.held.values()].includes(bit)) b.classList.remove('held');
      };
      b.addEventListener('pointerup', up);
      b.addEventListener('pointercancel', up);
      b.addEventListener('lostpointercapture', up);
      b.addEventListener('contextmenu', (e) => e.preventDefault());
    }
    el.pause.addEventListener('click', () => host.pause());
    el.step.addEventListener('click', () => host.step());
  }

  /** The buttons the pad holds now. */
  get buttons(): number {
    let b = 0;
    for (const bit of this.held.values()) b |= bit;
    return b;
  }

  get shown(): boolean {
    return !this.el.box.hidden;
  }

  show(): void {
    this.el.box.hidden = false;
  }
}
