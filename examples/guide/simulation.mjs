// A simulation of the demo level: step it, read components, write one, and see which way a heading points.
import { Buttons, createSimulation, horizontalAxes, openWorld, walkSpeed } from 'retrosim';

const { world } = await openWorld('rugrats-demo');
const sim = createSimulation(world, { agents: 20 }); // the world's default scenario: the player and 20 wanderers

// A component's store is a set of typed arrays, one per field, indexed by entity id.
const { Position, Velocity, Heading, Agent } = sim.components;
const player = sim.player;

for (let f = 1; f <= 60; f++) sim.step(0); // no buttons held: the player stands, the agents wander
let agents = 0;
for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.has(e, Agent)) agents++;
console.log(`frame ${sim.frame}: ${agents} agents, state hash ${sim.hashHex()}`);
console.log('player', player, 'stands at', [Position.x[player], Position.y[player], Position.z[player]]);

// Headings turn about the up axis, 65536 units to a turn. Walking at heading a moves cos(a) along the first
// horizontal axis and sin(a) along the second: here x and z, as y is up.
console.log('horizontal axes:', horizontalAxes(world), 'walking speed:', walkSpeed(world), 'units per frame');
for (const angle of [0, 16384, 32768]) {
  Heading.angle[player] = angle; // writing a component: set the entity's field
  sim.step(Buttons.Up); // the input system walks the player along its heading, at twice an agent's speed
  console.log(`heading ${angle}: velocity [${Velocity.x[player]}, ${Velocity.y[player]}, ${Velocity.z[player]}]`);
}
console.log('player now at', [Position.x[player], Position.y[player], Position.z[player]]);
