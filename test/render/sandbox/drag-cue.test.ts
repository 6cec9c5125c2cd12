/**
 * The drop cue's state: it shows while files are dragged over the window (however many elements the drag
 * crosses, entering the next before leaving the last), hides when they leave the window, are dropped or the
 * drag ends, and never shows for a drag without files.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DragCue } from '../../../src/render/sandbox/drag-cue.js';

describe('drag cue', () => {
  test('files crossing elements: shown until the last leave; hidden on drop', () => {
    const c = new DragCue();
    expect(c.enter(true)).toBe(true);
    // Into a child: its enter comes before the parent's leave.
    expect(c.enter(true)).toBe(true);
    expect(c.leave()).toBe(true);
    expect(c.leave()).toBe(false);
    expect(c.enter(true)).toBe(true);
    expect(c.end()).toBe(false);
    expect(c.shown).toBe(false);
    // A stray leave after the drop does not go negative: the next drag shows again.
    expect(c.leave()).toBe(false);
    expect(c.enter(true)).toBe(true);
  });

  test('a drag without files (text, a link from the page) shows nothing', () => {
    const c = new DragCue();
    expect(c.enter(false)).toBe(false);
    expect(c.over(false)).toBe(false);
    expect(c.leave()).toBe(false);
  });

  test('a drag over the page whose entry was missed still shows, and one leave hides it', () => {
    const c = new DragCue();
    expect(c.over(true)).toBe(true);
    expect(c.leave()).toBe(false);
  });

  test('any sequence of enters and leaves: shown exactly while more file enters than leaves are outstanding', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('enter', 'leave', 'end'), { maxLength: 60 }), (ops) => {
        const c = new DragCue();
        let depth = 0;
        for (const op of ops) {
          if (op === 'enter') (c.enter(true), depth++);
          else if (op === 'leave') (c.leave(), (depth = Math.max(0, depth - 1)));
          else (c.end(), (depth = 0));
          expect(c.shown).toBe(depth > 0);
        }
      }),
    );
  });
});
