/**
 * Per-world behaviour of the systems, found by probing each demo world's own geometry (so the tests follow
 * the levels, not hand-copied coordinates): walking into a wall stops, walking off a ledge falls, a death
 * plane respawns, an exit floor raises its event.
 */
import { describe, expect, it } from 'vitest';
import { cosAngle, sinAngle } from '../../src/ecs/angle.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import type { ScenarioDef } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Buttons } from '../../src/systems/input.js';
import { horizontalAxes } from '../../src/systems/movement.js';
import { defaultKillPlane, triggersSystem, type TriggerConfig } from '../../src/systems/triggers.js';
import { MATERIAL_DEATH, MATERIAL_EXIT } from '../../src/worlds/llama/materials.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { newGroundResult, newSegmentResult } from '../../src/worlds/world.js';
import { DEMO_KINDS, openDemo, type DemoKind } from './demo-worlds.js';

function buildSim(world: CollisionWorld, triggers?: TriggerConfig): Simulation {
  const systems = DEFAULT_SYSTEMS.map((s) => (s.name === 'triggers' && triggers ? triggersSystem(triggers) : s));
  const scenario: ScenarioDef = { name: 'behaviour-test', version: '1', description: 'a lone player', systems };
  return simulationFromSettings(world, { ...defaultSettingsFor(world, { agents: 0, capacity: 16 }), scenario: 'wander' }, scenario);
}

const m = (w: CollisionWorld, metres: number) => (w.integer ? Math.round(metres * w.scale) : metres * w.scale);
/** Height along up (bigger is higher in every world). */
const height = (w: CollisionWorld, p: ArrayLike<number>) => w.up.sign * p[w.up.axis]!;
function offset(w: CollisionWorld, p: ArrayLike<number>, angle: number, dist: number, lift: number): Vec3 {
  const [h0, h1] = horizontalAxes(w);
  const q: Vec3 = [p[0]!, p[1]!, p[2]!];
  q[h0] += dist * cosAngle(angle);
  q[h1] += dist * sinAngle(angle);
  q[w.up.axis] += w.up.sign * lift;
  if (w.integer) for (let a = 0; a < 3; a++) q[a] = Math.round(q[a]!);
  return q;
}
function along(w: CollisionWorld, from: ArrayLike<number>, to: ArrayLike<number>, angle: number): number {
  const [h0, h1] = horizontalAxes(w);
  return (to[h0]! - from[h0]!) * cosAngle(angle) + (to[h1]! - from[h1]!) * sinAngle(angle);
}
function playerPos(sim: Simulation): Vec3 {
  const P = sim.ecs.components.Position;
  return [P.x[sim.player]!, P.y[sim.player]!, P.z[sim.player]!];
}
function place(sim: Simulation, p: Vec3, angle: number): void {
  const c = sim.ecs.components;
  c.Position.x[sim.player] = p[0];
  c.Position.y[sim.player] = p[1];
  c.Position.z[sim.player] = p[2];
  c.Heading.angle[sim.player] = angle;
}
const ANGLES = Array.from({ length: 16 }, (_, i) => i * 4096);

/** Standing spots across the world (sampleOpen on a grid). */
function spots(w: CollisionWorld, n = 14): Vec3[] {
  const out: Vec3[] = [w.spawnPoint()];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const p = w.sampleOpen((i + 0.5) / n, (j + 0.5) / n);
    if (p) out.push(p);
  }
  return out;
}

/** A spot and heading with a wall roughly square ahead at knee-to-chest height, 1–6 m away. */
function findWall(w: CollisionWorld): { p: Vec3; angle: number; dist: number } | null {
  const r = newSegmentResult();
  for (const p of spots(w)) {
    for (const angle of ANGLES) {
      const from = offset(w, p, angle, 0, m(w, 0.8));
      const to = offset(w, p, angle, m(w, 6), m(w, 0.8));
      w.segment(from, to, r);
      if (!r.hit || r.what === 'start') continue;
      const dist = r.fraction * m(w, 6);
      if (dist < m(w, 1)) continue;
      const [h0, h1] = horizontalAxes(w);
      const n = Math.hypot(r.normal[0], r.normal[1], r.normal[2]);
      const facing = -(r.normal[h0] * cosAngle(angle) + r.normal[h1] * sinAngle(angle)) / n;
      if (n > 0 && facing > 0.95) return { p, angle, dist };
    }
  }
  return null;
}

/** A spot and heading whose floor, straight ahead within 4 m, drops to another floor more than 0.6 m lower. */
function findLedge(w: CollisionWorld): { p: Vec3; angle: number } | null {
  const g = newGroundResult();
  for (const p of spots(w, 40)) {
    for (const angle of ANGLES) {
      for (let k = 1; k <= 16; k++) {
        const q = offset(w, p, angle, (k * m(w, 4)) / 16, m(w, 0.5));
        const knee = offset(w, p, angle, 0, m(w, 0.5));
        if (w.segmentFraction(knee[0], knee[1], knee[2], q[0], q[1], q[2]) >= 0) break;
        w.ground(q, g);
        // A missing floor is not a ledge (Rugrats refuses steps into cells with no tiles).
        if (!g.hasFloor || !Number.isFinite(g.floor)) break;
        const drop = height(w, p) - w.up.sign * g.floor;
        if (drop > m(w, 0.6)) return { p, angle };
        if (Math.abs(drop) > m(w, 0.3)) break; // a step or a wall: not a clean walk to a ledge
      }
    }
  }
  return null;
}

/** A spot and heading whose floor id changes within 0.5–6 m straight ahead on a clear walk. */
function findOtherFloor(w: CollisionWorld): { p: Vec3; angle: number; id: number } | null {
  const g = newGroundResult();
  for (const p of spots(w, 6)) {
    w.ground(offset(w, p, 0, 0, m(w, 0.1)), g);
    const start = g.id;
    for (const angle of ANGLES) {
      for (let k = 1; k <= 12; k++) {
        const q = offset(w, p, angle, (k * m(w, 6)) / 12, m(w, 0.1));
        const knee = offset(w, p, angle, 0, m(w, 0.6));
        const kq = offset(w, p, angle, (k * m(w, 6)) / 12 + m(w, 0.5), m(w, 0.6));
        if (w.segmentFraction(knee[0], knee[1], knee[2], kq[0], kq[1], kq[2]) >= 0) break;
        w.ground(q, g);
        if (!g.hasFloor || Math.abs(height(w, p) - w.up.sign * g.floor) > m(w, 0.2)) break;
        if (g.id >= 0 && g.id !== start) return { p, angle, id: g.id };
      }
    }
  }
  return null;
}

describe('walking into a wall stops', () => {
  for (const kind of DEMO_KINDS) {
    it(kind, () => {
      const w = openDemo(kind);
      const found = findWall(w);
      expect(found, 'a wall in the demo level').not.toBeNull();
      const { p, angle, dist } = found!;
      const sim = buildSim(w);
      place(sim, p, angle);
      // The player walks 0.05 m a frame (twice an agent's 1.5 m/s).
      const frames = Math.ceil(dist / m(w, 0.05)) + 40;
      let furthest = -Infinity;
      for (let f = 1; f <= frames; f++) {
        sim.step(Buttons.Up);
        furthest = Math.max(furthest, along(w, p, playerPos(sim), angle));
      }
      expect(furthest).toBeLessThan(dist);
      expect(furthest).toBeGreaterThan(dist - m(w, 1));
      expect(sim.ecs.components.Motion.blocked[sim.player]).toBeGreaterThan(0);
    });
  }
});

describe('walking off a ledge falls', () => {
  for (const kind of DEMO_KINDS) {
    it(kind, () => {
      const w = openDemo(kind);
      const found = findLedge(w);
      if (kind === 'piney') {
        // A heightfield has no ledges: the body follows the terrain, standing every frame.
        expect(found).toBeNull();
        const sim = buildSim(w);
        for (let f = 1; f <= 200; f++) {
          sim.step(Buttons.Up);
          const q = playerPos(sim);
          expect(sim.ecs.components.Motion.grounded[sim.player]).toBe(1);
          expect(q[2]).toBe((w as unknown as { heightAt(x: number, y: number): number }).heightAt(q[0], q[1]));
        }
        return;
      }
      expect(found, 'a ledge in the demo level').not.toBeNull();
      const { p, angle } = found!;
      const sim = buildSim(w);
      place(sim, p, angle);
      let lowest = Infinity;
      let airborne = 0;
      let deaths = 0;
      sim.events.on('death', () => deaths++);
      for (let f = 1; f <= 240 && deaths === 0; f++) {
        sim.step(Buttons.Up);
        lowest = Math.min(lowest, height(w, playerPos(sim)));
        if (sim.ecs.components.Motion.grounded[sim.player] === 0) airborne++;
      }
      expect(lowest).toBeLessThan(height(w, p) - m(w, 0.5));
      // COLBIN's move puts the feet on the highest floor below at once (no frames in the air).
      if (kind !== 'colbin') expect(airborne).toBeGreaterThan(0);
    });
  }
});

describe('a death plane respawns', () => {
  for (const kind of DEMO_KINDS) {
    it(kind, () => {
      const w = openDemo(kind);
      const [h0] = horizontalAxes(w);
      let sim: Simulation;
      const spawn = w.spawnPoint();
      if (kind === 'piney') {
        // The field never lets a body fall (heightfield, torus): its death plane is a death floor.
        const other = findOtherFloor(w);
        expect(other).not.toBeNull();
        sim = buildSim(w, { deathFloorIds: [other!.id] });
        place(sim, other!.p, other!.angle);
      } else {
        // Off the edge of the world, at its top: nothing underneath.
        sim = buildSim(w);
        const p: Vec3 = [...spawn];
        p[h0] = w.bounds.max[h0] + m(w, 3);
        p[w.up.axis] = w.up.sign > 0 ? w.bounds.max[w.up.axis] : w.bounds.min[w.up.axis];
        place(sim, p, 0);
        expect(w.up.sign * defaultKillPlane(w)).toBeLessThan(height(w, p));
      }
      const deaths: { frame: number; entity: number }[] = [];
      sim.events.on('death', (e) => deaths.push(e));
      let f = 0;
      while (deaths.length === 0 && f < 900) sim.step(kind === 'piney' ? Buttons.Up : 0), f++;
      expect(deaths).toEqual([{ frame: f, entity: sim.player }]);
      expect(playerPos(sim)).toEqual(spawn);
      for (let k = 0; k < 30; k++) sim.step(0);
      expect(deaths.length).toBe(1);
      expect(sim.ecs.components.Motion.grounded[sim.player]).toBe(1);
    });
  }

  it('llama: the material-30 floor of the demo level kills natively', () => {
    const w = openDemo('llama');
    const spot = findMaterialFloor(w, MATERIAL_DEATH);
    expect(spot).not.toBeNull();
    const sim = buildSim(w);
    place(sim, spot!, 0);
    const deaths: number[] = [];
    sim.events.on('death', (e) => deaths.push(e.entity));
    sim.step(0);
    // Exactly one death for the visit (movement used to raise a second one beside the triggers system).
    expect(deaths.filter((d) => d === sim.player)).toHaveLength(1);
    // Respawned at the start, standing on an ordinary floor: no more deaths.
    expect(playerPos(sim)).toEqual(w.spawnPoint());
    const n = deaths.length;
    for (let f = 0; f < 30; f++) sim.step(0);
    expect(deaths.length).toBe(n);
  });
});

describe('an exit floor raises its event', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: stepping onto a configured exit floor raises exactly one exit with its id`, () => {
      const w = openDemo(kind);
      const other = findOtherFloor(w);
      expect(other, 'a second floor ahead').not.toBeNull();
      const sim = buildSim(w, { exitFloorIds: [other!.id] });
      place(sim, other!.p, other!.angle);
      const exits: { frame: number; entity: number; id: number }[] = [];
      sim.events.on('exit', (e) => exits.push(e));
      const g = newGroundResult();
      let onIt = 0;
      for (let f = 1; f <= 400 && exits.length === 0; f++) {
        sim.step(Buttons.Up);
        w.ground(offset(w, playerPos(sim), 0, 0, m(w, 0.1)), g);
        if (g.id === other!.id) onIt = f;
      }
      expect(exits.length).toBe(1);
      expect(exits[0]).toMatchObject({ entity: sim.player, id: other!.id });
      expect(onIt).toBe(exits[0]!.frame);
      // Standing on it raises nothing more.
      for (let f = 0; f < 60; f++) sim.step(0);
      expect(exits.length).toBe(1);
    });
  }

  it('llama: the material-16 floor of the demo level is an exit natively', () => {
    const w = openDemo('llama');
    const g = newGroundResult();
    const spot = findMaterialFloor(w, MATERIAL_EXIT);
    expect(spot).not.toBeNull();
    const sim = buildSim(w);
    place(sim, spot!, 0);
    const exits: { frame: number; entity: number; id: number }[] = [];
    sim.events.on('exit', (e) => exits.push(e));
    sim.step(0);
    w.ground(spot!, g);
    expect(exits.filter((e) => e.entity === sim.player)).toEqual([{ frame: 1, entity: sim.player, id: g.id }]);
    // Standing on it raises nothing more.
    for (let f = 0; f < 30; f++) sim.step(0);
    expect(exits.filter((e) => e.entity === sim.player)).toHaveLength(1);
  });
});

/** The first point of the Llama demo (scanned on a 0.1-unit grid from above) standing on a floor of `material`. */
function findMaterialFloor(w: CollisionWorld, material: number): Vec3 | null {
  const g = newGroundResult();
  for (let i = 0; i < 60; i++) for (let j = 0; j < 50; j++) {
    const p: Vec3 = [(i + 0.5) / 10, w.bounds.max[1] + 1, (j + 0.5) / 10];
    w.ground(p, g);
    if (g.hasFloor && g.material === material) return [p[0], g.floor, p[2]];
  }
  return null;
}

export type { DemoKind };
