import { describe, expect, it } from 'vitest';
import { field } from './harness.js';
import { OpList } from '../../../src/systems/piney-ambient/ops.js';
import {
  PRIORITY_ENTRY,
  PRIORITY_EFFECT,
  PRIORITY_SKILL,
  PRIORITY_FIELD_DISPLAY,
  PRIORITY_PARTICLE,
} from '../../../src/systems/piney-ambient/tasks.js';
import type { AmbientConfig } from '../../../src/systems/piney-ambient/install.js';

function snapshot(ops: OpList): OpList {
  const c = new OpList();
  c.copyFrom(ops);
  return c;
}

describe('the field tasks on the scheduler', () => {
  it('run at the game priorities, in that order', () => {
    const { s } = field({ seed: 1, type: 1, row: 0 });
    expect(s.list().map((t) => [t.name, t.priority])).toEqual([
      ['ccThEntryCtrl', PRIORITY_ENTRY],
      ['ccThEffect', PRIORITY_EFFECT],
      ['ccThSkill', PRIORITY_SKILL],
      ['ccThFieldDisp', PRIORITY_FIELD_DISPLAY],
      ['ccThParticle', PRIORITY_PARTICLE],
    ]);
    expect([PRIORITY_ENTRY, PRIORITY_EFFECT, PRIORITY_SKILL, PRIORITY_FIELD_DISPLAY, PRIORITY_PARTICLE]).toEqual([64, 80, 82, 96, 98]);
  });

  it("the entry task's draws come on the first frame, before the weather's, and only once", () => {
    const { s, rng } = field({ seed: 5, type: 4, row: 4, entryDraws: [16, 10, 10] });
    const c0 = rng.fieldrand.count;
    s.step();
    expect(rng.fieldrand.count - c0).toBe(3);
    s.step();
    expect(rng.fieldrand.count - c0).toBe(3);
    s.step();
    // The first draw: rain (100 drops) and the thunder's first countdown.
    expect(rng.fieldrand.count - c0).toBeGreaterThanOrEqual(3 + 101);
  });

  const sleepCases: AmbientConfig[] = [
    { seed: 11, type: 5, row: 5 },
    { seed: 12, type: 7, row: 6, server: 0 },
    { seed: 13, type: 9, row: 2 },
    { seed: 14, type: 0, row: 2, hacked: true },
  ];
  for (const cfg of sleepCases) {
    it(`while asleep the last list comes again with no draws, and waking resumes the same sequence (type ${cfg.type})`, () => {
      const a = field(cfg);
      const b = field(cfg);
      const lists: OpList[] = [];
      const counts: [number, number][] = [];
      for (let i = 0; i < 260; i++) {
        a.s.step();
        lists.push(snapshot(a.inst.runtime.frameOutput(a.s.frame).ops));
        counts.push([a.rng.fieldrand.count, a.rng.ccrand.draws]);
      }
      for (let i = 0; i < 100; i++) b.s.step();
      const last = snapshot(b.inst.runtime.frameOutput(b.s.frame).ops);
      const hash = b.inst.runtime.hashState();
      const c = [b.rng.fieldrand.count, b.rng.ccrand.draws];
      b.inst.runtime.sleep();
      for (let i = 0; i < 60; i++) {
        b.s.step();
        const out = b.inst.runtime.frameOutput(b.s.frame);
        expect(out.fresh).toBe(false);
        expect(out.ops.equals(last)).toBe(true);
        expect([b.rng.fieldrand.count, b.rng.ccrand.draws]).toEqual(c);
      }
      expect(b.inst.runtime.hashState()).toEqual(hash);
      b.inst.runtime.wake();
      for (let i = 100; i < 260; i++) {
        b.s.step();
        const out = b.inst.runtime.frameOutput(b.s.frame);
        expect(out.fresh).toBe(true);
        expect(out.ops.equals(lists[i]!)).toBe(true);
        expect([b.rng.fieldrand.count, b.rng.ccrand.draws]).toEqual(counts[i]);
      }
    });
  }

  it('save and restore give the same frames again', () => {
    const f = field({ seed: 99, type: 6, row: 2, hacked: true, server: 1 });
    for (let i = 0; i < 150; i++) f.s.step();
    const saved = { sched: f.s.save(), fr: f.rng.fieldrand.save(), cc: f.rng.ccrand.save() };
    const digests: number[] = [];
    for (let i = 0; i < 120; i++) {
      f.s.step();
      digests.push(f.inst.runtime.ops.digest());
    }
    const end = f.inst.runtime.hashState();
    f.s.restore(saved.sched);
    f.rng.fieldrand.restore(saved.fr);
    f.rng.ccrand.restore(saved.cc);
    for (let i = 0; i < 120; i++) {
      f.s.step();
      expect(f.inst.runtime.ops.digest()).toBe(digests[i]);
    }
    expect(f.inst.runtime.hashState()).toEqual(end);
  });

  it('sounds and flashes go out on the event bus when the list is fresh', () => {
    const f = field({ seed: 7, type: 8, row: 6, server: 2 });
    const sounds: { name: string; frame: number }[] = [];
    const flashes: { frame: number; intensity: number }[] = [];
    f.events.on('sound', (e) => sounds.push(e));
    f.events.on('flash', (e) => flashes.push(e));
    for (let i = 0; i < 900; i++) f.s.step();
    // The storm's first flash comes on its 750th frame (storm frames start on scheduler frame 3).
    expect(flashes.map((e) => e.frame)).toEqual([752]);
    expect(flashes[0]!.intensity).toBe(1);
    const thunder = sounds.filter((e) => e.name === 'se236');
    expect(thunder.length).toBe(1);
    expect(thunder[0]!.frame - 752).toBeGreaterThanOrEqual(29);
    expect(thunder[0]!.frame - 752).toBeLessThanOrEqual(48);
    const count = sounds.length;
    f.inst.runtime.sleep();
    for (let i = 0; i < 50; i++) f.s.step();
    expect(sounds.length).toBe(count);
  });
});

describe('saved states', () => {
  it('survive the value codec, and a malformed one is a FormatError', async () => {
    const { encodeValueBytes, decodeValueBytes } = await import('../../../src/ecs/value-codec.js');
    const { isFormatError } = await import('../../../src/binary/format-error.js');
    const f = field({ seed: 42, type: 9, row: 0, server: 3 });
    for (let i = 0; i < 120; i++) f.s.step();
    const rt = f.inst.runtime;
    const bytes = encodeValueBytes(rt.save());
    const fr = f.rng.fieldrand.save();
    const cc = f.rng.ccrand.save();
    const digests: number[] = [];
    for (let i = 0; i < 60; i++) {
      f.s.step();
      digests.push(rt.ops.digest());
    }
    rt.restore(decodeValueBytes(bytes, 'test'));
    f.rng.fieldrand.restore(fr);
    f.rng.ccrand.restore(cc);
    for (let i = 0; i < 60; i++) {
      f.s.step();
      expect(rt.ops.digest()).toBe(digests[i]);
    }
    const good = rt.save() as unknown as Record<string, unknown>;
    const bad: unknown[] = [
      null,
      42,
      { ...good, slice: 'x' },
      { ...good, state: { ...(good.state as object), snow: 7 } },
      { ...good, ops: { words: new Uint32Array(3), length: 1 } },
      { ...good, puffLife: [1.5] },
      { ...good, state: { ...(good.state as object), roamers: [] } },
    ];
    for (const b of bad) {
      let err: unknown = null;
      try {
        rt.restore(b);
      } catch (e) {
        err = e;
      }
      expect(isFormatError(err)).toBe(true);
    }
  });
});

describe('installation', () => {
  it('refuses a bad entry modulus, type or row with a RangeError', () => {
    expect(() => field({ seed: 1, type: 1, row: 0, entryDraws: [1.5] })).toThrow(RangeError);
    expect(() => field({ seed: 1, type: 11, row: 0 })).toThrow(RangeError);
    expect(() => field({ seed: 1, type: 1, row: 10 })).toThrow(RangeError);
  });
});
