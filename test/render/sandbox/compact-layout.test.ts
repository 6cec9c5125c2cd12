import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { CompactLayout, NARROW_QUERY, NARROW_WIDTH } from '../../../src/render/sandbox/compact-layout.js';

test('a wide window shows the panels and every control; a narrow one folds both until asked', () => {
  const wide = new CompactLayout(false);
  expect(wide.shown).toEqual({ narrow: false, panels: true, controls: true });
  expect(wide.attributes()).toEqual({ 'data-panels': null, 'data-menu': null });
  const narrow = new CompactLayout(true);
  expect(narrow.shown).toEqual({ narrow: true, panels: false, controls: false });
  narrow.togglePanels();
  narrow.toggleMenu();
  expect(narrow.shown).toEqual({ narrow: true, panels: true, controls: true });
  expect(narrow.attributes()).toEqual({ 'data-panels': 'open', 'data-menu': 'open' });
  narrow.togglePanels();
  narrow.toggleMenu();
  expect(narrow.shown).toEqual({ narrow: true, panels: false, controls: false });
});

test('the panels’ choice is kept across widths; the menu folds when the window widens or the map is touched', () => {
  const l = new CompactLayout(false);
  l.togglePanels();
  expect(l.shown.panels).toBe(false);
  l.setNarrow(true);
  expect(l.shown.panels).toBe(false);
  l.togglePanels();
  l.setNarrow(false);
  expect(l.shown.panels).toBe(true);
  // The menu button exists on narrow windows only: on a wide one it does nothing.
  l.toggleMenu();
  expect(l.attributes()['data-menu']).toBeNull();
  l.setNarrow(true);
  l.toggleMenu();
  expect(l.shown.controls).toBe(true);
  expect(l.mapTouched()).toBe(true);
  expect(l.shown.controls).toBe(false);
  expect(l.mapTouched()).toBe(false);
  l.toggleMenu();
  l.setNarrow(false);
  l.setNarrow(true);
  expect(l.shown.controls).toBe(false);
});

test('the page’s CSS folds at the same width as this module', () => {
  expect(NARROW_QUERY).toBe(`(max-width: ${NARROW_WIDTH - 0.02}px)`);
  const html = readFileSync(new URL('../../../sandbox/index.html', import.meta.url), 'utf8');
  expect(html).toContain(`@media ${NARROW_QUERY} {`);
});
