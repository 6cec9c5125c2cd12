import { expect, test } from 'vitest';
import { KEY_BUTTONS, KeyboardButtons } from '../../../src/render/sandbox/keyboard.js';
import { BUTTON_MASK, Buttons } from '../../../src/systems/input.js';

test('keys held make the buttons; other keys are not the simulation’s', () => {
  const k = new KeyboardButtons();
  expect(k.buttons).toBe(0);
  expect(k.down('ArrowUp')).toBe(true);
  expect(k.down('KeyA')).toBe(true);
  expect(k.down('KeyQ')).toBe(false);
  expect(k.buttons).toBe(Buttons.Up | Buttons.Left);
  // WASD and the arrows are the same buttons: releasing one of two keys for a button keeps it held.
  k.down('KeyW');
  k.up('ArrowUp');
  expect(k.buttons).toBe(Buttons.Up | Buttons.Left);
  k.clear();
  expect(k.buttons).toBe(0);
  for (const b of Object.values(KEY_BUTTONS)) expect(b & ~BUTTON_MASK).toBe(0);
});
