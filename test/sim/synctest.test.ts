import { describe, expect, it } from 'vitest';
import { SyncTest } from '../../src/sim/synctest.js';
import { buttonsFor, makeSim } from './helpers.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

describe('synctest', () => {
  it('passes a deterministic simulation, checking every frame once warmed up', () => {
    const st = new SyncTest(makeSim({ agents: 15 }), makeSim({ agents: 15 }), 4);
    let ok = true;
    for (let f = 1; f <= 60; f++) ok = st.step(buttonsFor(f)) && ok;
    expect(ok).toBe(true);
    expect(st.failures).toEqual([]);
    expect(st.checkedFrames).toBe(60 - 4 + 1);
  });

  it('finds a task with hidden state (kept outside the snapshot) and names what it changed', () => {
    const withHidden = () => {
      const sim = makeSim({ agents: 15 });
      let hidden = 0; // not saved: a re-simulation starts from whatever value it has now
      sim.scheduler.addTask('leaky', 60, () => {
        hidden++;
        if (hidden % 7 === 0) sim.ecs.components.Heading.angle[2] = (sim.ecs.components.Heading.angle[2]! + 100) & 0xffff;
      });
      return sim;
    };
    const main = withHidden();
    const desyncs: string[] = [];
    main.events.on('desync', (e) => desyncs.push(e.detail));
    const st = new SyncTest(main, withHidden(), 3);
    let firstBad = -1;
    for (let f = 1; f <= 40 && firstBad < 0; f++) if (!st.step(buttonsFor(f))) firstBad = f;
    expect(firstBad).toBeGreaterThan(0);
    expect(st.failures[0]!.sections).toContain('Heading');
    expect(desyncs.length).toBe(1);
    expect(desyncs[0]).toMatch(/synctest: frame \d+ re-simulated from \d+/);
  });

  it('refuses a depth outside 1..1024', () => {
    expect(() => new SyncTest(makeSim(), makeSim(), 0)).toThrow(RangeError);
  });
});

describe('synctest and world run-time state', () => {
  it('a world with run-time state is hashed, saved and restored with the simulation', async () => {
    const { StatefulFlatWorld } = await import('./flat-world.js');
    const { testSettings } = await import('./helpers.js');
    const { Simulation } = await import('../../src/sim/simulation.js');
    const make = () => simulationFromSettings(new StatefulFlatWorld(), testSettings({ agents: 10 }));
    const a = make();
    for (let f = 1; f <= 20; f++) a.step(buttonsFor(f));
    const names = a.sectionNames();
    const w = names.indexOf('world');
    const before = a.hash().sections[2 * w + 1];
    (a.world as InstanceType<typeof StatefulFlatWorld>).moves++;
    expect(a.hash().sections[2 * w + 1]).not.toBe(before);
    (a.world as InstanceType<typeof StatefulFlatWorld>).moves--;
    const snap = a.save();
    const b = make();
    b.restore(snap);
    expect((b.world as InstanceType<typeof StatefulFlatWorld>).moves).toBe((a.world as InstanceType<typeof StatefulFlatWorld>).moves);
    for (let f = 21; f <= 40; f++) {
      a.step(buttonsFor(f));
      b.step(buttonsFor(f));
      expect(b.hashHex()).toBe(a.hashHex());
    }
    // Synctest with a shadow on its own world object passes.
    const st = new SyncTest(make(), make(), 3);
    for (let f = 1; f <= 30; f++) expect(st.step(buttonsFor(f))).toBe(true);
  });
});
