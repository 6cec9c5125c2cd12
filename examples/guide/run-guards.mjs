// The guards from a program: import the scenario module, record a replay while stepping, write it, then
// verify it and seek in it.
import { writeFileSync } from 'node:fs';
import { ReplayRecorder, createSimulation, demoButtons, openWorld, readReplay, seekReplay, verifyReplay } from 'retrosim';
import guards from './guards.mjs';
import { Guard } from './rules.mjs';

const world = await openWorld('rugrats-demo');
const sim = createSimulation(world.world, { scenario: guards, agents: 0, params: { guards: 6 } });

const alarms = [];
sim.events.on('signal', (e) => alarms.push(e.frame)); // the watch system's alarms, as they happen

const rec = new ReplayRecorder(sim, world.identity); // a keyframe every 600 frames by default
for (let f = 1; f <= 1200; f++) rec.step(demoButtons(f));
const bytes = rec.finish();
writeFileSync('program.replay', bytes);
console.log(`recorded ${sim.frame} frames, final hash ${sim.hashHex()}, ${alarms.length} alarms (the first at frame ${alarms[0]})`);

// Reading a component after the run: each guard's own count.
const guard = sim.store(Guard);
const perGuard = [];
for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.has(e, guard)) perGuard.push(guard.alarms[e]);
console.log('alarms per guard:', perGuard.join(' '));

// Verify: re-simulate from the recorded settings and buttons, compare everything the replay records.
const replay = readReplay(bytes);
const verified = verifyReplay(replay, { world, scenario: guards });
console.log('verified:', verified.ok, verified.frames, 'frames, final hash', verified.finalHash);

// Seek: restore the keyframe before frame 777 and step on; `verified` says the hash reached is the recorded one.
const seek = seekReplay(replay, { world, scenario: guards }, 777);
console.log(`frame ${seek.frame}: hash ${seek.hash} from the keyframe at frame ${seek.fromKeyframe}, verified: ${seek.verified}`);

