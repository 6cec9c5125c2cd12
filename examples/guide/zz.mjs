import { Goal, GoalStatus, Goer, createSimulation, openWorld, navCacheFor } from 'retrosim';
const { world } = await openWorld('rugrats-demo');
const sim = createSimulation(world, { scenario: 'wander', agents: 12, params: { goers: 4 } });
const goal = sim.store(Goal), goer = sim.store(Goer); const P = sim.components.Position; const g = navCacheFor(world).graph;
const fall = sim.ecs.components.byName.get('retrosim:fall').speed;
for (let f = 1; f <= 200; f++) { sim.step(0); const e = 3; if (f % 5 === 0) { const t = goal.target[e]; console.log(f, goal.status[e], t, t >= 0 ? [g.pos[3*t], g.pos[3*t+1], g.pos[3*t+2]].join(',') : '', [P.x[e], P.y[e], P.z[e]].join(','), goal.replans[e], goal.frames[e], fall[e], sim.components.Velocity.x[e], sim.components.Velocity.z[e]); } }
