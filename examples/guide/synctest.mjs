// The synctest: every frame, a second simulation rolls back a few frames, runs them again and compares the
// hashes. A system that keeps state the snapshot cannot see (here a counter of its own) is caught and
// named.
import { DEFAULT_SYSTEMS, SyncTest, createSimulation, defineScenario, defineSystem, demoButtons, openWorld } from 'retrosim';
import guards from './guards.mjs';

/** Runs `frames` frames under the synctest and reports what it found. */
async function synctest(scenario, frames) {
  const make = async () => createSimulation((await openWorld('rugrats-demo')).world, { scenario, agents: 0 });
  const sync = new SyncTest(await make(), await make(), 8); // the main simulation, its shadow, depth 8
  for (let f = 1; f <= frames; f++) sync.step(demoButtons(f));
  const first = sync.failures[0];
  console.log(`${scenario.name}: ${sync.checkedFrames} frames ran again the same, ${sync.failures.length} did not` + (first ? `; the first, frame ${first.frame}: system ${first.culprit} is not deterministic` : ''));
}

await synctest(guards, 300);

// A broken system: it counts frames in a variable of its own, which no snapshot holds, so a rollback cannot
// put it back. (Declared state would fix it: return { state: { frames: new Uint32Array(1) }, run(ctx) { ... } }.)
const gust = defineSystem({
  name: 'gust',
  priority: 60,
  create(host) {
    const { Position } = host.ecs.components;
    let frames = 0;
    return (ctx) => {
      frames++;
      if (frames % 8 === 0) Position.x[ctx.player] += 1; // every 8th frame, a gust pushes the player
    };
  },
});
await synctest(defineScenario({ name: 'gusty', version: '1.0.0', description: 'a gust that counts frames by itself', systems: [...DEFAULT_SYSTEMS, gust] }), 300);
