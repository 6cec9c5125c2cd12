/** The shortcut table: every page action has a key, no key does two things, none is one of the simulation's keys. */
import { expect, test } from 'vitest';
import { actionForKey, helpRows, SHORTCUTS } from '../../../src/render/sandbox/shortcuts.js';
import { KEY_BUTTONS } from '../../../src/render/sandbox/keyboard.js';

test('each page key triggers one action, and the help lists every row once', () => {
  const seen = new Map<string, string>();
  for (const s of SHORTCUTS) {
    for (const k of s.match) {
      expect(seen.has(k), `${k} is bound twice`).toBe(false);
      seen.set(k, s.action!);
      expect(actionForKey(k)).toBe(s.action);
    }
  }
  const actions = new Set(SHORTCUTS.filter((s) => s.action).map((s) => s.action));
  expect(actions.size).toBeGreaterThanOrEqual(18);
  // The simulation's keys (by the key they type) are not page keys.
  const simKeys = Object.keys(KEY_BUTTONS).map((code) => (code.startsWith('Key') ? code.slice(3).toLowerCase() : code === 'Space' ? ' ' : code));
  for (const k of simKeys) {
    expect(actionForKey(k), k).toBeUndefined();
    expect(actionForKey(k.toUpperCase()), k).toBeUndefined();
  }
  const rows = helpRows();
  expect(rows.every((r) => !r.unlisted)).toBe(true);
  expect(rows.some((r) => r.keys === '? / H')).toBe(true);
  expect(rows.some((r) => r.group === 'mouse' && r.keys === 'click')).toBe(true);
  // Touch is listed beside the mouse: pan, pinch and tap.
  expect(rows.filter((r) => r.group === 'touch').map((r) => r.keys)).toEqual(['one finger', 'two fingers', 'tap']);
});
