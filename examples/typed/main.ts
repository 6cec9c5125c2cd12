// A TypeScript program on the public types: a scenario with a component of its own, a system with
// declared state, a recorded replay that verifies, and a synctest. Compile it with the tsconfig beside it:
//
//   npx tsc -p examples/typed && node examples/typed/out/main.js
import { join } from 'node:path';
import {
  Buttons,
  DEFAULT_SYSTEMS,
  ReplayRecorder,
  SyncTest,
  createSimulation,
  defineComponent,
  defineScenario,
  defineSystem,
  openWorld,
  packageRoot,
  verifyReplay,
  type CollisionWorld,
  type ScenarioDef,
  type SystemContext,
  type VerifyResult,
} from 'retrosim';

/** How long each entity has stood on the ground, in frames. */
const Standing = defineComponent('Standing', { frames: 'u32' });

/** Counts standing frames of every body with the built-in Motion component; the total is declared state. */
const standing = defineSystem({
  name: 'standing',
  priority: 55,
  create(host) {
    const s = host.ecs.store(Standing);
    const motion = host.ecs.components.Motion;
    const q = host.ecs.defineQuery('standing', [s, motion]);
    const total = new Float64Array(1);
    return {
      state: { total },
      run(ctx: SystemContext) {
        for (const e of ctx.ecs.entities(q)) {
          s.frames[e] = motion.grounded[e] === 1 ? s.frames[e]! + 1 : 0;
          total[0]! += motion.grounded[e]!;
        }
      },
    };
  },
});

const scenario: ScenarioDef = defineScenario({
  name: 'standing',
  version: '1.0.0',
  description: 'wanderers, and how long each has stood',
  components: [Standing],
  params: { wanderers: { type: 'int', default: 12, min: 0, max: 1000 } },
  systems: [...DEFAULT_SYSTEMS, standing],
  place(sim) {
    const standingStore = sim.ecs.store(Standing);
    sim.spawnPlayer();
    sim.spawnWanderers(sim.params['wanderers'] as number);
    for (let e = 1; e <= sim.ecs.maxId; e++) sim.ecs.add(e, standingStore);
  },
});

// A Llama level shipped with the package (its MAP beside it is found by name).
const level = join(packageRoot(), 'assets/worlds/llama/demo.trak');
const opened = await openWorld(level);
const world: CollisionWorld = opened.world;
const sim = createSimulation(world, { scenario, params: { wanderers: 20 } });
const rec = new ReplayRecorder(sim, opened.identity);
for (let f = 1; f <= 300; f++) rec.step(f % 90 < 60 ? Buttons.Up : Buttons.Up | Buttons.Left);
const result: VerifyResult = verifyReplay(rec.finish(), { world: opened, scenario });

const shadow = createSimulation((await openWorld(level)).world, { scenario, params: { wanderers: 20 } });
const live = createSimulation(world, { scenario, params: { wanderers: 20 } });
const sync = new SyncTest(live, shadow, 8);
for (let f = 1; f <= 60; f++) sync.step(Buttons.Up);

const longest = Math.max(...Array.from(sim.store(Standing).frames.subarray(1, sim.ecs.maxId + 1)));
console.log(JSON.stringify({ world: world.kind, frames: sim.frame, hash: sim.hashHex(), verified: result.ok, verifiedHash: result.finalHash, longestStanding: longest, synctestFailures: sync.failures.length }));
