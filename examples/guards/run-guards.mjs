// Runs the guards scenario from a script: record a replay while stepping, write it, read it back, verify
// it and seek in it, all through the public API.
//
//   node examples/guards/run-guards.mjs [out.replay]
import { writeFileSync } from 'node:fs';
import { ReplayRecorder, createSimulation, demoButtons, openWorld, readReplay, seekReplay, verifyReplay } from 'retrosim';
import guards, { Guard, Sighting } from './guards.mjs';

const out = process.argv[2] ?? 'guards.replay';
const world = await openWorld('rugrats-demo'); // a shipped world by id; any path works too
const sim = createSimulation(world.world, { scenario: guards, agents: 0, params: { guards: 6 } });

const alarms = [];
sim.events.on('signal', (e) => alarms.push({ frame: e.frame, guard: e.entity }));

const rec = new ReplayRecorder(sim, world.identity, { keyframeInterval: 300 });
for (let f = 1; f <= 1200; f++) rec.step(demoButtons(f));
const bytes = rec.finish();
writeFileSync(out, bytes);

const guard = sim.store(Guard);
const sighting = sim.store(Sighting);
let perGuard = 0;
let searches = 0;
let reached = 0;
for (let e = 1; e <= sim.ecs.maxId; e++) {
  if (sim.ecs.has(e, guard)) perGuard += guard.alarms[e];
  // Searches: walks to where a guard last saw the player, and those that got there.
  if (sim.ecs.has(e, sighting)) (searches += sighting.searches[e]), (reached += sighting.reached[e]);
}

const replay = readReplay(bytes);
const verified = verifyReplay(replay, { world, scenario: guards });
const seek = seekReplay(replay, { world, scenario: guards }, 777);
const recorded777 = replay.frames.hashHi[776].toString(16).padStart(8, '0') + replay.frames.hashLo[776].toString(16).padStart(8, '0');

console.log(JSON.stringify({ frames: sim.frame, finalHash: sim.hashHex(), alarms: alarms.length, perGuard, searches, reached, firstAlarm: alarms[0] ?? null, replayBytes: bytes.length }));
console.log(JSON.stringify({ verified: verified.ok, verifiedFrames: verified.frames, verifiedHash: verified.finalHash }));
console.log(JSON.stringify({ seekFrame: seek.frame, seekHash: seek.hash, recordedHash: `0x${recorded777}`, fromKeyframe: seek.fromKeyframe }));
