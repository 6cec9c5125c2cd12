/**
 * Verify proves what a seek relies on: each keyframe, restored into a fresh simulation and run to the next,
 * gives the recorded frames. A scenario that keeps state outside its snapshot (a counter in a system's
 * closure, or at module level) re-simulates from frame 0 exactly as it was recorded, so only this check
 * catches it; verify then names the frame, the keyframe and the system.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SYSTEMS,
  ReplayRecorder,
  createSimulation,
  defineScenario,
  defineSystem,
  loadScenarioFile,
  openWorld,
  readReplay,
  seekReplay,
  verifyReplay,
  wanderScenario,
  worldIdentity,
  type ScenarioDef,
} from '../../src/index.js';
import { FlatWorld } from '../sim/flat-world.js';
import { repoRoot, runCli } from '../cli/run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-hidden-state-'));
// The modules import 'retrosim' by name, as a user's do: here it is this checkout.
mkdirSync(join(tmp, 'node_modules'));
symlinkSync(repoRoot, join(tmp, 'node_modules', 'retrosim'), 'dir');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WORLD = 'assets/worlds/rugrats/demo.col';
const FRAMES = 60;
const INTERVAL = 20;

/**
 * A scenario module whose system `drift` moves every entity once it has been called more than `after`
 * times; the counter lives in the system's closure or at module level, never in the snapshot.
 */
function moduleText(name: string, where: 'closure' | 'module', after: number): string {
  // The built runtime by path: the module is loaded by the CLI and, in these tests, by the test process.
  return `import { DEFAULT_SYSTEMS, defineScenario, defineSystem } from 'retrosim';
${where === 'module' ? 'let calls = 0;' : ''}
const drift = defineSystem({ name: 'drift', priority: 55, create(host) {
  ${where === 'closure' ? 'let calls = 0;' : ''}
  const p = host.ecs.components.Position;
  return () => {
    calls++;
    if (calls > ${after}) for (let e = 1; e <= host.ecs.maxId; e++) p.x[e] += 0.01;
  };
} });
export default defineScenario({ name: '${name}', version: '1', description: 'keeps a counter outside its snapshot', systems: [...DEFAULT_SYSTEMS, drift] });
`;
}

/** Writes the module and records a replay of it with the CLI (a process of its own, as a user would). */
function recorded(name: string, where: 'closure' | 'module', after: number): { mod: string; replay: string } {
  const mod = join(tmp, `${name}.mjs`);
  writeFileSync(mod, moduleText(name, where, after));
  const replay = join(tmp, `${name}.replay`);
  const r = runCli(['run', '--scenario', mod, '--world', WORLD, '--agents', '5', '--frames', String(FRAMES), '--keyframes', String(INTERVAL), '--out', replay, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return { mod, replay };
}

interface Case {
  name: string;
  where: 'closure' | 'module';
  after: number;
  /** The keyframe whose restored run first differs, and the frame. */
  keyframe: number;
  frame: number;
}

const cases: Case[] = [
  // Recorded: drift from frame 11. Restored at 20 with a fresh closure: drift only from frame 31, so frame 21
  // differs (the first frame after the keyframe: named from the trace verify keeps of it).
  { name: 'closure-early', where: 'closure', after: 10, keyframe: 20, frame: 21 },
  // Recorded: drift from frame 31; restored at 20: drift from 41, so frame 31 differs (named by running
  // both runs again to frame 30 and tracing frame 31).
  { name: 'closure-late', where: 'closure', after: 30, keyframe: 20, frame: 31 },
  // At module level the counter is shared by every simulation of the process: after the run from frame 0
  // (60 calls), the run restored at 0 drifts from frame 1, where the recording did not.
  { name: 'module-counter', where: 'module', after: 10, keyframe: 0, frame: 1 },
];

describe('verify restores every keyframe and runs on: hidden state is caught and its system named', () => {
  for (const c of cases) {
    it(`${c.name}: verifyReplay refuses it at frame ${c.frame}, naming the keyframe and the system`, async () => {
      const { mod, replay } = recorded(c.name, c.where, c.after);
      const bytes = new Uint8Array(readFileSync(replay));
      const world = await openWorld(join(repoRoot, WORLD));
      const { scenario } = await loadScenarioFile(mod);
      const v = verifyReplay(bytes, { world, scenario });
      expect(v.warnings).toEqual([]);
      expect(v.ok).toBe(false);
      expect(v.frames).toBe(FRAMES);
      const r = v.restoreDivergence!;
      expect(r).toMatchObject({ keyframe: c.keyframe, frame: c.frame, system: { name: 'drift', priority: 55 } });
      expect(r.sections).toContain('Position');
      expect(r.fields).toContain('hash');
      expect(r.expected).not.toBe(r.actual);
      expect(r.reason).toMatch(/^system drift \(task \d+\) .* outside the snapshot/);
      // The same in the shape of a divergence (what a batch's verify job keeps).
      expect(v.divergence).toMatchObject({ frame: c.frame, expected: r.expected, actual: r.actual, sections: r.sections, lastGoodKeyframe: c.keyframe, detail: null });
      expect(v.divergence!.fields[0]).toBe(`restored from keyframe ${c.keyframe}`);
      expect(v.divergence!.fields.at(-1)).toBe('system drift');
      // The run from frame 0 alone (all that verify checked before) gives every recorded frame: in a process
      // of its own, as a module-level counter needs.
      expect(runCli(['replay', 'verify', replay, '--scenario', mod, '--no-restore-check']).code).toBe(0);
    });
  }

  it('the CLI: replay verify exits 1 naming the frame, the keyframe and the system (text and --json); a seek shows why', () => {
    const { mod, replay } = recorded('closure-cli', 'closure', 10);
    const text = runCli(['replay', 'verify', replay, '--scenario', mod]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/DIVERGED after a restore: the run from frame 0 matched all 60 frames, but the keyframe at frame 20, restored and run on, differs at frame 21/);
    expect(text.stdout).toMatch(/system drift \(task \d+\)/);
    const json = runCli(['replay', 'verify', replay, '--scenario', mod, '--json']);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { ok: boolean; restoreDivergence: { keyframe: number; frame: number; system: { name: string } | null }; divergence: { frame: number } };
    expect(out.ok).toBe(false);
    expect(out.restoreDivergence).toMatchObject({ keyframe: 20, frame: 21, system: { name: 'drift' } });
    expect(out.divergence.frame).toBe(21);
    // What the check stands for: a seek past that keyframe answers a state the recording never had.
    const seek = runCli(['replay', 'seek', replay, '--scenario', mod, '--frame', '25']);
    expect(seek.code).toBe(1);
  });

  it('the CLI names a module-level counter too', () => {
    const { mod, replay } = recorded('module-cli', 'module', 10);
    const r = runCli(['replay', 'verify', replay, '--scenario', mod, '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { restoreDivergence: { keyframe: number; frame: number; system: { name: string } | null } };
    expect(out.restoreDivergence).toMatchObject({ keyframe: 0, frame: 1, system: { name: 'drift' } });
  });
});

describe('the keyframe check (properties)', () => {
  const flat = () => new FlatWorld();
  const id = worldIdentity(flat(), new Uint8Array([7]), 'file:flat');
  const opened = () => ({ world: flat(), identity: id, bytes: new Uint8Array([7]) });

  function record(def: ScenarioDef, agents: number, streamSeed: string, frames: number, interval: number): Uint8Array {
    const sim = createSimulation(flat(), { scenario: def, agents, streamSeed });
    const rec = new ReplayRecorder(sim, id, interval);
    for (let f = 1; f <= frames; f++) rec.step((f * 7 + agents) % 16);
    return rec.finish();
  }

  it('a well-behaved scenario passes it for any seed, agent count and keyframe interval, and every seek is verified', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 25 }), (agents, seed, interval) => {
        const bytes = record(wanderScenario, agents, seed, 50, interval);
        const v = verifyReplay(bytes, { world: opened() });
        expect(v.ok).toBe(true);
        expect(v.restoreDivergence).toBeUndefined();
        expect(v.warnings).toEqual([]);
        const rp = readReplay(bytes);
        for (const f of [interval + 1, 50]) if (f <= 50) expect(seekReplay(rp, { world: opened() }, f).verified).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it('a simulation given with a task added by hand: the check is skipped with a warning, or runs with freshSimulation', () => {
    const make = () => {
      const sim = createSimulation(flat(), { agents: 3 });
      sim.scheduler.addTask('by-hand', 99, () => {});
      return sim;
    };
    const sim = make();
    const rec = new ReplayRecorder(sim, id, 10);
    for (let f = 1; f <= 25; f++) rec.step(f & 3);
    const rp = readReplay(rec.finish());
    const skipped = verifyReplay(rp, make());
    expect(skipped.ok).toBe(true);
    expect(skipped.warnings).toEqual([expect.stringMatching(/^the keyframes were not checked by restoring them: .* keyframe at frame 0 .*by-hand/)]);
    const checked = verifyReplay(rp, make(), { freshSimulation: make });
    expect(checked.ok).toBe(true);
    expect(checked.warnings).toEqual([]);
  });

  it('a counter in a closure is caught at the first frame a fresh restore can differ, and its system named', () => {
    const drifting = (after: number): ScenarioDef =>
      defineScenario({
        name: 'drifting',
        version: '1',
        description: 'drifts after a number of calls',
        systems: [
          ...DEFAULT_SYSTEMS,
          defineSystem({
            name: 'drift',
            priority: 55,
            create(host) {
              let calls = 0;
              const p = host.ecs.components.Position;
              return () => {
                calls++;
                if (calls > after) for (let e = 1; e <= host.ecs.maxId; e++) p.x[e]! += 0.01;
              };
            },
          }),
        ],
      });
    const FR = 40;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 6 }), (after, interval, agents) => {
        const def = drifting(after);
        const v = verifyReplay(record(def, agents, 's', FR, interval), { world: opened(), scenario: def });
        // The recording drifts from frame after + 1; a run restored at K > 0 (a fresh counter) from
        // K + after + 1: the first K whose interval holds a frame of the first and not the second gives it.
        let expected: { keyframe: number; frame: number } | null = null;
        for (let k = interval; k < FR && !expected; k += interval) {
          const frame = Math.max(after + 1, k + 1);
          if (frame <= Math.min(k + interval, FR)) expected = { keyframe: k, frame };
        }
        if (!expected) {
          expect(v.ok).toBe(true);
          return;
        }
        expect(v.ok).toBe(false);
        expect(v.restoreDivergence).toMatchObject({ ...expected, system: { name: 'drift' } });
      }),
      { numRuns: 12 },
    );
  });
});
