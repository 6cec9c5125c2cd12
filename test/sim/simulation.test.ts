import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeValueBytes, encodeValueBytes } from '../../src/ecs/value-codec.js';
import type { SimSnapshot } from '../../src/sim/simulation.js';
import { buttonsFor, makeSim } from './helpers.js';

describe('Simulation', () => {
  it('the same seed gives the same hash on every one of 10,000 frames', () => {
    const a = makeSim({ agents: 30 });
    const b = makeSim({ agents: 30 });
    expect(a.agentsPlaced).toBe(30);
    let firstMismatch = -1;
    for (let f = 1; f <= 10_000; f++) {
      a.step(buttonsFor(f));
      b.step(buttonsFor(f));
      const ha = a.hash();
      const hb = b.hash();
      if (firstMismatch < 0 && (ha.hi !== hb.hi || ha.lo !== hb.lo)) firstMismatch = f;
    }
    expect(firstMismatch).toBe(-1);
    expect(a.frame).toBe(10_000);
    // Something actually happened: agents moved and drew from their stream.
    expect(a.rng.streams.get('wander').draws).toBeGreaterThan(1000);
  });

  it('different seeds or different inputs give different hashes', () => {
    const base = makeSim();
    const seed = makeSim({ streamSeed: 'other' });
    const input = makeSim();
    for (let f = 1; f <= 50; f++) {
      base.step(buttonsFor(f));
      seed.step(buttonsFor(f));
      input.step(f === 25 ? 8 : buttonsFor(f));
    }
    expect(seed.hashHex()).not.toBe(base.hashHex());
    expect(input.hashHex()).not.toBe(base.hashHex());
  });

  it('moves agents: positions change and stay inside the arena', () => {
    const sim = makeSim({ agents: 20 });
    const { Position, Agent } = sim.ecs.components;
    const ids = [...sim.ecs.entities(sim.ecs.defineQuery('test-agents', [Agent]))];
    const start = ids.map((e) => [Position.x[e], Position.z[e]]);
    for (let f = 1; f <= 200; f++) sim.step(0);
    const moved = ids.filter((e, i) => Position.x[e] !== start[i]![0] || Position.z[e] !== start[i]![1]);
    expect(moved.length).toBeGreaterThan(ids.length / 2);
    for (const e of ids) {
      expect(Position.x[e]).toBeGreaterThanOrEqual(0);
      expect(Position.x[e]).toBeLessThanOrEqual(100);
    }
  });

  it('snapshot → bytes → restore into a fresh simulation continues with the same hashes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 200 }), (at, more) => {
        const a = makeSim();
        for (let f = 1; f <= at; f++) a.step(buttonsFor(f));
        const bytes = encodeValueBytes(a.save());
        const b = makeSim();
        b.step(5); // history that the restore must wipe
        b.restore(decodeValueBytes(bytes, 'snapshot') as unknown as SimSnapshot);
        expect(b.frame).toBe(at);
        expect(b.hashHex()).toBe(a.hashHex());
        for (let f = at + 1; f <= at + more; f++) {
          a.step(buttonsFor(f));
          b.step(buttonsFor(f));
          expect(b.hashHex()).toBe(a.hashHex());
        }
      }),
      { numRuns: 15 },
    );
  });

  it('restoring an earlier snapshot into the same simulation rewinds it exactly', () => {
    const sim = makeSim();
    for (let f = 1; f <= 100; f++) sim.step(buttonsFor(f));
    const snap = sim.save();
    const later: string[] = [];
    for (let f = 101; f <= 160; f++) {
      sim.step(buttonsFor(f));
      later.push(sim.hashHex());
    }
    sim.restore(snap);
    expect(sim.frame).toBe(100);
    for (let f = 101; f <= 160; f++) {
      sim.step(buttonsFor(f));
      expect(sim.hashHex()).toBe(later[f - 101]);
    }
  });

  it('the hash covers components, RNG state and task state', () => {
    const sim = makeSim();
    sim.step(0);
    const h = sim.hash();
    const names = sim.sectionNames();
    const section = (hh: { sections: Uint32Array }, n: string) => {
      const i = names.indexOf(n);
      return [hh.sections[2 * i], hh.sections[2 * i + 1]];
    };
    sim.ecs.components.Heading.angle[2]! += 1;
    const h2 = sim.hash();
    expect(h2.hi !== h.hi || h2.lo !== h.lo).toBe(true);
    expect(section(h2, 'Heading')).not.toEqual(section(h, 'Heading'));
    expect(section(h2, 'Position')).toEqual(section(h, 'Position'));
    sim.rng.ccrand.next();
    expect(section(sim.hash(), 'rng')).not.toEqual(section(h2, 'rng'));
    sim.scheduler.list()[0]!.sleep(3);
    expect(section(sim.hash(), 'tasks')).not.toEqual(section(h2, 'tasks'));
  });

  it('a restore from a malformed snapshot throws a clear error', () => {
    const sim = makeSim();
    const snap = sim.save();
    expect(() => sim.restore({ ...snap, version: 2 } as never)).toThrow(/version 1/);
    expect(() => sim.restore({ ...snap, rng: { ...snap.rng, ccrand: { ...snap.rng.ccrand, mt: [1, 2] } } })).toThrow(/rng\.ccrand\.mt/);
    expect(() => sim.restore({ ...snap, frame: 9 })).toThrow(/frame/);
  });

  it('a restore that fails part-way leaves the simulation as it was', () => {
    const a = makeSim();
    for (let f = 1; f <= 30; f++) a.step(buttonsFor(f));
    const good = a.save();
    const b = makeSim();
    for (let f = 1; f <= 50; f++) b.step(buttonsFor(f));
    const hash = b.hashHex();
    // The entities restore fine, then a saved task matches nothing: the whole restore must be undone.
    const bad = { ...good, scheduler: { ...good.scheduler, tasks: [...good.scheduler.tasks, { id: 99, name: 'ghost', priority: 1000, sleepUntil: 0, body: null }] } };
    expect(() => b.restore(bad)).toThrow(/ghost/);
    expect(b.frame).toBe(50);
    expect(b.hashHex()).toBe(hash);
    const c = makeSim();
    for (let f = 1; f <= 50; f++) c.step(buttonsFor(f));
    for (let f = 51; f <= 80; f++) {
      b.step(buttonsFor(f));
      c.step(buttonsFor(f));
    }
    expect(b.hashHex()).toBe(c.hashHex());
  });

  it('events are outputs only: a listener cannot change the hashes', () => {
    const quiet = makeSim();
    const noisy = makeSim();
    let heard = 0;
    noisy.events.on('*', () => heard++);
    noisy.scheduler.addTask('announcer', 99, (ctx) => ctx.events.emit('sound', { name: 'step', frame: ctx.frame }));
    quiet.scheduler.addTask('announcer', 99, () => {});
    for (let f = 1; f <= 30; f++) {
      quiet.step(buttonsFor(f));
      noisy.step(buttonsFor(f));
    }
    expect(heard).toBe(30);
    expect(noisy.hashHex()).toBe(quiet.hashHex());
  });

  it('integer worlds keep integer positions', () => {
    const sim = makeSim({ agents: 20 }, { integer: true, scale: 100, size: 4000, boxes: [{ minX: 1000, minZ: 1000, maxX: 1500, maxZ: 3000 }] });
    for (let f = 1; f <= 300; f++) sim.step(buttonsFor(f));
    const { Position, Velocity } = sim.ecs.components;
    for (let e = 1; e <= sim.ecs.maxId; e++) {
      expect(Number.isInteger(Position.x[e])).toBe(true);
      expect(Number.isInteger(Position.z[e])).toBe(true);
      expect(Number.isInteger(Velocity.x[e])).toBe(true);
    }
  });
});
