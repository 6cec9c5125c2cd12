// Agents that go somewhere. First the built-in wander scenario with goers: its first agents walk between a
// few places of the level by its navigation graph. Then a scenario of your own whose system sends an agent
// with ctx.nav: a courier that walks to where the player stood when it pressed the action button.
import { Buttons, DEFAULT_SYSTEMS, Goal, GoalStatus, Goer, createSimulation, defineScenario, defineSystem, demoButtons, navigationSystem, openWorld } from 'retrosim';

const { world } = await openWorld('rugrats-demo');

// 1. The wander scenario with goers=4: a parameter, as --set goers=4 on the command line.
const sim = createSimulation(world, { scenario: 'wander', agents: 12, params: { goers: 4 } });
for (let f = 1; f <= 1200; f++) sim.step(0);
const goer = sim.store(Goer);
const trips = [];
for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.has(e, goer)) trips.push(goer.trips[e]);
console.log(`wander with goers: trips per goer ${trips.join(' ')}, state hash ${sim.hashHex()}`);

// 2. A courier: the frame the player presses the action button, it is sent where the player stands.
const dispatch = defineSystem({
  name: 'dispatch',
  priority: 40, // before the navigation system (45), which walks it from this frame on
  create(host) {
    const goal = host.ecs.store(Goal);
    const { Position } = host.ecs.components;
    const couriers = host.ecs.defineQuery('couriers', [goal, Position]);
    return (ctx) => {
      if ((ctx.input & Buttons.Action) === 0) return;
      const p = ctx.player;
      for (const e of ctx.ecs.entities(couriers)) ctx.nav.setGoal(e, [Position.x[p], Position.y[p], Position.z[p]]);
    };
  },
});

const courier = defineScenario({
  name: 'courier',
  version: '1.0.0',
  description: 'a courier walks to where the player pressed the action button',
  components: [Goal],
  systems: [...DEFAULT_SYSTEMS, navigationSystem, dispatch],
  place(sim) {
    sim.spawnPlayer();
    const { Position, Velocity, BodySize, Motion } = sim.ecs.components;
    const goal = sim.ecs.store(Goal);
    const e = sim.ecs.spawn([Position, Velocity, BodySize, Motion, goal]);
    [Position.x[e], Position.y[e], Position.z[e]] = sim.world.sampleOpen(0.2, 0.8); // an open spot of the level
    Motion.contact[e] = -1;
    sim.setBody(e); // the body the navigation graph is built for
    goal.target[e] = -1; // no node chosen yet
  },
});

const run = createSimulation(world, { scenario: courier });
const goal = run.store(Goal);
const e = run.ecs.maxId; // the courier, spawned after the player
// The player walks by the demo's buttons for 300 frames, then presses the action button once and stands.
for (let f = 1; f <= 300; f++) run.step(demoButtons(f) & ~Buttons.Action);
run.step(Buttons.Action);
let frames = 1;
while (goal.status[e] === GoalStatus.going && frames < 3000) (run.step(0), frames++);
const { Position } = run.components;
const status = Object.keys(GoalStatus).find((k) => GoalStatus[k] === goal.status[e]);
console.log(`courier: ${status} after ${frames} frames at [${Position.x[e]}, ${Position.y[e]}, ${Position.z[e]}], the player at [${Position.x[run.player]}, ${Position.y[run.player]}, ${Position.z[run.player]}]`);
console.log(`re-plans on the way: ${goal.replans[e]}, state hash ${run.hashHex()}`);
