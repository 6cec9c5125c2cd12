/** The replay timeline's numbers: frame ↔ x, round labels far enough apart, keyframe ticks, speeds. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { faster, frameToX, labelStep, slower, SPEEDS, speedLabel, timelineMarks, xToFrame } from '../../../src/render/scene/timeline.js';

describe('timeline', () => {
  test('xToFrame undoes frameToX; labels are round and at least the minimum apart', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 50, max: 4000 }), fc.nat(), (length, width, r) => {
        const f = r % (length + 1);
        if (width >= length) expect(xToFrame(frameToX(f, length, width), length, width)).toBe(f);
        else expect(Math.abs(xToFrame(frameToX(f, length, width), length, width) - f)).toBeLessThanOrEqual(length / width);
        const step = labelStep(length, width, 64);
        expect((step / length) * width).toBeGreaterThanOrEqual(64 - 1e-9);
        expect(String(step)).toMatch(/^[125]0*$/);
        const m = timelineMarks(length, [0, 300, 600], -1, width, 64);
        expect(m.labels[0]!.frame).toBe(0);
        expect(m.labels[m.labels.length - 1]!.frame).toBe(length);
        for (let i = 1; i < m.labels.length - 1; i++) expect(m.labels[i]!.frame % step).toBe(0);
        expect(m.keyframes.every((k) => k.frame <= length)).toBe(true);
        expect(m.divergence).toBeNull();
      }),
    );
  });

  test('the divergence marker sits at its frame; keyframes outside the replay are left out', () => {
    const m = timelineMarks(1000, [0, 300, 600, 900, 1200], 451, 500);
    expect(m.keyframes.map((k) => k.frame)).toEqual([0, 300, 600, 900]);
    expect(m.keyframes.map((k) => k.x)).toEqual([0, 150, 300, 450]);
    expect(m.divergence).toEqual({ frame: 451, x: 225.5 });
  });

  test('speeds run from 0.25× to 8×, doubling; faster and slower stop at the ends', () => {
    expect(SPEEDS).toEqual([0.25, 0.5, 1, 2, 4, 8]);
    expect(faster(1)).toBe(2);
    expect(faster(8)).toBe(8);
    expect(slower(1)).toBe(0.5);
    expect(slower(0.25)).toBe(0.25);
    let s = 0.25;
    const up = [s];
    while (faster(s) !== s) up.push((s = faster(s)));
    expect(up).toEqual([...SPEEDS]);
    expect(speedLabel(0.25)).toBe('0.25×');
  });
});
