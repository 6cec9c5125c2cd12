import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/ecs/events.js';
import { CcRand } from '../../src/rng/ccrand.js';
import { FieldRand } from '../../src/rng/fieldrand.js';
import { RandomStreams } from '../../src/rng/streams.js';
import { DRAW_HISTORY_FRAMES, MID_FRAME_RULE, Scheduler, type TaskBody } from '../../src/ecs/scheduler.js';
import { Hash64 } from '../../src/ecs/state-hash.js';

function makeScheduler(): Scheduler {
  const ccrand = new CcRand();
  ccrand.init(0);
  return new Scheduler({ fieldrand: new FieldRand(7), ccrand, streams: new RandomStreams('t') }, createEventBus());
}

function hashOf(s: Scheduler): string {
  const h = new Hash64();
  s.hashInto(h);
  return h.hex();
}

describe('Scheduler', () => {
  it('runs tasks in ascending priority, ties in creation order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 30 }), (prios) => {
        const s = makeScheduler();
        const ran: number[] = [];
        prios.forEach((p, i) => s.addTask(`t${i}`, p, () => ran.push(i)));
        s.step();
        const expected = prios.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i).map((x) => x.i);
        expect(ran).toEqual(expected);
      }),
    );
  });

  it('numbers frames from 1 and hands each task the frame context', () => {
    const s = makeScheduler();
    const seen: number[] = [];
    s.addTask('a', 0, (ctx) => {
      seen.push(ctx.frame);
      expect(ctx.scheduler).toBe(s);
      expect(ctx.rng.fieldrand).toBe(s.rng.fieldrand);
    });
    s.step();
    s.step();
    expect(seen).toEqual([1, 2]);
    expect(s.frame).toBe(2);
  });

  it('sleep(n) skips the next n frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 10 }), (n, at) => {
        const s = makeScheduler();
        const ran: number[] = [];
        s.addTask('sleeper', 1, (ctx, self) => {
          ran.push(ctx.frame);
          if (ctx.frame === at) self.sleep(n);
        });
        for (let i = 0; i < at + n + 3; i++) s.step();
        const expected: number[] = [];
        for (let f = 1; f <= at + n + 3; f++) if (f <= at || f > at + n) expected.push(f);
        expect(ran).toEqual(expected);
      }),
    );
  });

  it('sleepUntilWoken waits for wake; a wake from an earlier task counts in the same frame, from a later one in the next', () => {
    expect(MID_FRAME_RULE).toBe('walk');
    const s = makeScheduler();
    const ran: string[] = [];
    let wakeEarly = false;
    let wakeLate = false;
    const early = s.addTask('early', 1, () => {
      if (wakeEarly) mid.wake();
    });
    const mid = s.addTask('mid', 5, (ctx, self) => {
      ran.push(`mid@${ctx.frame}`);
      self.sleepUntilWoken();
    });
    s.addTask('late', 9, () => {
      if (wakeLate) mid.wake();
    });
    void early;
    s.step(); // mid runs, then sleeps
    s.step();
    s.step();
    expect(ran).toEqual(['mid@1']);
    expect(mid.asleep).toBe(true);
    wakeEarly = true;
    s.step(); // woken before its turn: runs in frame 4
    wakeEarly = false;
    expect(ran).toEqual(['mid@1', 'mid@4']);
    wakeLate = true;
    s.step(); // woken after its turn in frame 5: runs in frame 6
    wakeLate = false;
    expect(ran).toEqual(['mid@1', 'mid@4']);
    s.step();
    expect(ran).toEqual(['mid@1', 'mid@4', 'mid@6']);
  });

  it('a task added during a frame runs in that frame when its place is after the running task', () => {
    const s = makeScheduler();
    const ran: string[] = [];
    s.addTask('spawner', 10, (ctx) => {
      ran.push(`spawner@${ctx.frame}`);
      if (ctx.frame === 1) {
        s.addTask('after', 20, (c) => ran.push(`after@${c.frame}`));
        s.addTask('same', 10, (c) => ran.push(`same@${c.frame}`));
        s.addTask('before', 5, (c) => ran.push(`before@${c.frame}`));
      }
    });
    s.step();
    expect(ran).toEqual(['spawner@1', 'same@1', 'after@1']);
    ran.length = 0;
    s.step();
    expect(ran).toEqual(['before@2', 'spawner@2', 'same@2', 'after@2']);
  });

  it('a task removed during a frame does not run if it has not run yet; self-removal finishes the task', () => {
    const s = makeScheduler();
    const ran: string[] = [];
    const victim = s.addTask('victim', 30, (c) => ran.push(`victim@${c.frame}`));
    s.addTask('killer', 10, (c, self) => {
      ran.push(`killer@${c.frame}`);
      if (c.frame === 2) victim.remove();
      if (c.frame === 3) self.remove();
    });
    s.addTask('next', 20, (c) => ran.push(`next@${c.frame}`));
    s.step();
    s.step();
    s.step();
    s.step();
    expect(ran).toEqual(['killer@1', 'next@1', 'victim@1', 'killer@2', 'next@2', 'killer@3', 'next@3', 'next@4']);
    expect(s.list().map((t) => t.name)).toEqual(['next']);
  });

  it('records the cumulative draw counts of the game RNGs per frame', () => {
    const s = makeScheduler();
    s.addTask('draw', 0, (ctx) => {
      for (let i = 0; i < ctx.frame; i++) ctx.rng.fieldrand.rand(10);
      if (ctx.frame % 2 === 0) ctx.rng.ccrand.next();
    });
    for (let i = 0; i < 5; i++) s.step();
    expect(s.drawCounts(0)).toEqual({ fieldrand: 0, ccrand: 0 });
    expect(s.drawCounts(3)).toEqual({ fieldrand: 6, ccrand: 1 });
    expect(s.drawCounts()).toEqual({ fieldrand: 15, ccrand: 2 });
    expect(s.frameDraws(4)).toEqual({ fieldrand: 4, ccrand: 1 });
    expect(() => s.drawCounts(6)).toThrow(RangeError);
  });

  it('keeps a bounded record of draw counts over long runs, always the recent half', () => {
    const s = makeScheduler();
    s.addTask('draw', 0, (ctx) => void ctx.rng.fieldrand.step());
    const frames = 3 * DRAW_HISTORY_FRAMES + 5;
    for (let i = 0; i < frames; i++) s.step();
    expect(s.drawCounts()).toEqual({ fieldrand: frames, ccrand: 0 });
    expect(s.drawCounts(frames - DRAW_HISTORY_FRAMES / 2)).toEqual({ fieldrand: frames - DRAW_HISTORY_FRAMES / 2, ccrand: 0 });
    expect(() => s.drawCounts(1)).toThrow(RangeError);
    expect((s as unknown as { history: Float64Array }).history.length).toBeLessThanOrEqual(2 * DRAW_HISTORY_FRAMES);
  });

  it('folds task state (hashState) into its hash', () => {
    const s = makeScheduler();
    let counter = 0;
    s.addTask('counter', 0, { run: () => void counter++, hashState: () => [counter] });
    const h0 = hashOf(s);
    s.step();
    const h1 = hashOf(s);
    expect(h1).not.toBe(h0);
    counter = 0;
    s.frame = 0;
    expect(hashOf(s)).toBe(h0);
  });

  it('save/restore puts back frames, sleeps and task states, and re-creates run-time tasks by factory', () => {
    const build = () => {
      const s = makeScheduler();
      const log: string[] = [];
      class Counter implements TaskBody {
        n = 0;
        run(_c: unknown, self: { sleep(n: number): void }) {
          this.n++;
          if (this.n % 3 === 0) self.sleep(2);
        }
        hashState() {
          return [this.n];
        }
        save() {
          return { n: this.n };
        }
        restore(v: unknown) {
          this.n = (v as { n: number }).n;
        }
      }
      s.registerTaskFactory('child', () => new Counter());
      s.addTask('parent', 0, (ctx) => {
        log.push(`p${ctx.frame}`);
        if (ctx.frame === 2) ctx.scheduler.addTask('child', 5, new Counter());
      });
      s.addTask('counter', 3, new Counter());
      return { s, log };
    };
    const a = build();
    for (let i = 0; i < 7; i++) a.s.step();
    const saved = a.s.save();
    const hashes: string[] = [];
    for (let i = 0; i < 10; i++) {
      a.s.step();
      hashes.push(hashOf(a.s));
    }
    const b = build();
    b.s.restore(saved);
    expect(b.s.list().map((t) => t.name)).toEqual(['parent', 'counter', 'child']);
    expect(b.s.drawCounts(7)).toEqual({ fieldrand: 0, ccrand: 0 });
    const again: string[] = [];
    for (let i = 0; i < 10; i++) {
      b.s.step();
      again.push(hashOf(b.s));
    }
    expect(again).toEqual(hashes);
  });

  it('restore refuses a saved task that neither exists nor has a factory', () => {
    const s = makeScheduler();
    s.addTask('a', 0, () => {});
    const st = s.save();
    st.tasks.push({ id: 99, name: 'ghost', priority: 1, sleepUntil: 0, body: null });
    const fresh = makeScheduler();
    fresh.addTask('a', 0, () => {});
    expect(() => fresh.restore(st)).toThrow(/ghost/);
    expect(fresh.list().map((t) => t.name)).toEqual(['a']);
  });

  it('rejects non-integer priorities and negative sleeps', () => {
    const s = makeScheduler();
    expect(() => s.addTask('x', 1.5, () => {})).toThrow(RangeError);
    const t = s.addTask('y', 1, () => {});
    expect(() => t.sleep(-1)).toThrow(RangeError);
  });
});
