/**
 * The keyboard as the simulation's buttons: WASD or the arrow keys walk and turn, Space is Action, J is
 * Jump (the bits of src/systems/input.ts). Keys are read when a frame is stepped, never mid-frame.
 */
import { Buttons } from '../../systems/input.js';

/** KeyboardEvent.code → button bit. */
export const KEY_BUTTONS: Readonly<Record<string, number>> = {
  ArrowUp: Buttons.Up,
  KeyW: Buttons.Up,
  ArrowDown: Buttons.Down,
  KeyS: Buttons.Down,
  ArrowLeft: Buttons.Left,
  KeyA: Buttons.Left,
  ArrowRight: Buttons.Right,
  KeyD: Buttons.Right,
  Space: Buttons.Action,
  KeyJ: Buttons.Jump,
};

export class KeyboardButtons {
  private readonly held = new Set<string>();

  /** The buttons held now. */
  get buttons(): number {
    let b = 0;
    for (const code of this.held) b |= KEY_BUTTONS[code] ?? 0;
    return b;
  }

  /** True when the event was one of the simulation's keys (the caller then stops the page scrolling). */
  down(code: string): boolean {
    if (!(code in KEY_BUTTONS)) return false;
    this.held.add(code);
    return true;
  }

  up(code: string): boolean {
    if (!(code in KEY_BUTTONS)) return false;
    this.held.delete(code);
    return true;
  }

  /** Forget every key (the window lost focus: no key-up will come). */
  clear(): void {
    this.held.clear();
  }

  attach(target: Window): () => void {
    const kd = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      if (this.down(e.code)) e.preventDefault();
    };
    const ku = (e: KeyboardEvent) => {
      if (this.up(e.code)) e.preventDefault();
    };
    const blur = () => this.clear();
    target.addEventListener('keydown', kd);
    target.addEventListener('keyup', ku);
    target.addEventListener('blur', blur);
    return () => {
      target.removeEventListener('keydown', kd);
      target.removeEventListener('keyup', ku);
      target.removeEventListener('blur', blur);
    };
  }
}
