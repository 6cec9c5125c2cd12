import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeValueBytes, encodeValueBytes } from '../../src/ecs/value-codec.js';
import { DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { ambientOf } from '../../src/scenarios/piney-field.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { packageRoot } from '../../src/node/assets.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { Simulation, type SimSnapshot } from '../../src/sim/simulation.js';
import { SyncTest } from '../../src/sim/synctest.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';

const read = (p: string) => new Uint8Array(readFileSync(p));
const opened = await openBuiltinWorld(DEFAULT_WORLD, read);
const settings = defaultSettingsFor(opened.world, { agents: 20 });
const make = () => simulationFromSettings(opened.world, settings);

describe('default scenario (the Piney field with its weather)', () => {
  it('is the shipped field spec, identified by its content hash', () => {
    expect(opened.world.kind).toBe('piney');
    expect(opened.identity.source).toBe('builtin:piney-default');
    expect(opened.identity.byteLength).toBe(readFileSync(`${packageRoot()}/assets/worlds/piney/default.field.json`).length);
    expect(settings.scenario).toBe('piney-field');
  });

  it('runs the systems and the field tasks in ascending priority, the field tasks at the game priorities', () => {
    const sim = make();
    const list = sim.scheduler.list();
    const names = list.map((t) => t.name);
    for (const sys of DEFAULT_SYSTEMS) expect(names).toContain(sys.name);
    for (let i = 1; i < list.length; i++) expect(list[i]!.priority).toBeGreaterThanOrEqual(list[i - 1]!.priority);
    const field = list.filter((t) => t.name.startsWith('ccTh')).map((t) => `${t.name}@${t.priority}`);
    expect(field).toEqual(['ccThEntryCtrl@64', 'ccThEffect@80', 'ccThSkill@82', 'ccThFieldDisp@96', 'ccThParticle@98']);
    // GO(1) and the field set-up drew fieldrand before the first frame.
    expect(sim.rng.fieldrand.count).toBeGreaterThan(0);
  });

  it('two runs give the same hash every frame; a snapshot restored mid-way continues identically', () => {
    const a = make();
    const b = make();
    let snap: Uint8Array | null = null;
    const hashes: string[] = [];
    for (let f = 1; f <= 400; f++) {
      a.step(demoButtons(f));
      b.step(demoButtons(f));
      expect(b.hashHex()).toBe(a.hashHex());
      hashes.push(a.hashHex());
      if (f === 150) snap = encodeValueBytes(a.save());
    }
    const c = make();
    c.restore(decodeValueBytes(snap!, 'snapshot') as unknown as SimSnapshot);
    for (let f = 151; f <= 400; f++) {
      c.step(demoButtons(f));
      expect(c.hashHex()).toBe(hashes[f - 1]);
    }
  });

  it('simulations on one world share its field as the weather sees it, and run as on a world of their own', async () => {
    const first = make();
    for (let f = 1; f <= 200; f++) first.step(demoButtons(f)); // the shared parts used, and used up to here
    const again = make();
    expect(ambientOf(again)!.site).toBe(ambientOf(first)!.site); // generated once for the world
    const own = simulationFromSettings((await openBuiltinWorld(DEFAULT_WORLD, read)).world, settings);
    expect(ambientOf(own)!.site).not.toBe(ambientOf(again)!.site);
    for (let f = 1; f <= 300; f++) {
      again.step(demoButtons(f));
      own.step(demoButtons(f));
      if (f % 25 === 0) expect(again.hashHex()).toBe(own.hashHex());
    }
    expect(again.rng.fieldrand.count).toBe(own.rng.fieldrand.count);
  });

  it('passes synctest', () => {
    const st = new SyncTest(make(), make(), 3);
    for (let f = 1; f <= 60; f++) expect(st.step(demoButtons(f))).toBe(true);
  });
});

describe('demo input', () => {
  it('holds each move for a segment, uses only defined buttons, and varies', async () => {
    const { BUTTON_MASK } = await import('../../src/systems/input.js');
    const { DEMO_SEGMENT_FRAMES } = await import('../../src/sim/demo-input.js');
    const seen = new Set<number>();
    for (let f = 1; f <= 3600; f++) {
      const b = demoButtons(f);
      expect(b & ~BUTTON_MASK).toBe(0);
      if ((f - 1) % DEMO_SEGMENT_FRAMES !== 0) expect(b).toBe(demoButtons(f - 1));
      seen.add(b);
    }
    expect(seen.size).toBeGreaterThan(3);
  });
});
