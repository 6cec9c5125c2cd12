// A scenario of agents sent across the world by the navigation system, written against the runtime's API
// given as `R` (the sources in vitest, the compiled runtime in Bun), so that Node and Bun run the same one.
// `agents` agents stand on graph nodes drawn from the "nav-place" stream; every 200 frames each agent that is
// not going anywhere is sent to a node drawn from the "nav-goals" stream (through ctx.nav).

/** The scenario on runtime `R`. */
export function navScenario(R, agents = 24) {
  const dispatcher = R.defineSystem({
    name: 'nav-dispatch',
    priority: 40,
    create: (host) => {
      const goal = host.ecs.store(R.Goal);
      const q = host.ecs.defineQuery('nav-dispatch', [host.ecs.components.Position, goal]);
      return (ctx) => {
        if (ctx.frame % 200 !== 1) return;
        const g = ctx.nav.graph();
        const s = ctx.rng.streams.get('nav-goals');
        const ents = [...ctx.ecs.entities(q)].sort((a, b) => a - b);
        for (const e of ents) {
          if (goal.active[e] === 1) continue;
          ctx.nav.setGoal(e, R.nodePosition(g, s.int(g.nodeCount)));
        }
      };
    },
  });
  return R.defineScenario({
    name: 'nav-agents',
    version: '1',
    description: 'agents sent across the world by the navigation system',
    components: [R.Goal],
    systems: [...R.DEFAULT_SYSTEMS, R.navigationSystem, dispatcher],
    place(sim) {
      const g = R.navCacheFor(sim.world).graph;
      const c = sim.ecs.components;
      const goal = sim.ecs.store(R.Goal);
      const s = sim.rng.streams.get('nav-place');
      for (let k = 0; k < agents; k++) {
        const e = sim.ecs.spawn([c.Position, c.Velocity, c.BodySize, c.Motion, c.Heading, goal]);
        const p = R.nodePosition(g, s.int(g.nodeCount));
        c.Position.x[e] = p[0];
        c.Position.y[e] = p[1];
        c.Position.z[e] = p[2];
        c.BodySize.radius[e] = g.body.radius;
        c.BodySize.height[e] = g.body.height;
        c.BodySize.step[e] = g.body.step;
        c.Motion.contact[e] = -1;
        goal.target[e] = -1;
      }
    },
  });
}

/** Runs the scenario `frames` frames on `world` (no input): the hash after every frame and the agents' goal counts. */
export function runNav(R, world, frames, agents = 24) {
  const scenario = navScenario(R, agents);
  const sim = R.simulationFromSettings(world, { ...R.defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name }, scenario);
  const hashes = [sim.hashHex()];
  for (let f = 1; f <= frames; f++) {
    sim.step(0);
    hashes.push(sim.hashHex());
  }
  const goal = sim.ecs.store(R.Goal);
  const counts = { going: 0, arrived: 0, unreachable: 0, replans: 0 };
  for (let e = 1; e <= sim.ecs.maxId; e++) {
    if (!sim.ecs.has?.(e, goal) && goal.status[e] === 0 && goal.replans[e] === 0) continue;
    const st = goal.status[e];
    if (st === 1) counts.going++;
    else if (st === 2) counts.arrived++;
    else if (st === 3) counts.unreachable++;
    counts.replans += goal.replans[e];
  }
  return { hashes, counts };
}
