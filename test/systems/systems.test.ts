import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/rng/streams.js';
import { DEFAULT_SETTINGS, type ScenarioDef } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { angleOf, Behaviour, BEHAVIOUR_STREAM, BEHAVIOUR_WEIGHTS, controllerSystem, PATROL_LEG_FRAMES } from '../../src/systems/controller.js';
import { fallSpeeds, gravityOf, gravitySystem, groundContactSystem, jumpSpeedOf, nativeRate, terminalSpeedOf } from '../../src/systems/gravity.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Buttons, inputSystem } from '../../src/systems/input.js';
import { eyeHeight, LOS_RATE, losSystem } from '../../src/systems/los-system.js';
import { movementSystem } from '../../src/systems/movement.js';
import { frameLog, RECORD_STRIDE, recordingSystem } from '../../src/systems/recording.js';
import { belowKillPlane, defaultKillPlane, triggersSystem } from '../../src/systems/triggers.js';
import { wanderSystem } from '../../src/systems/wander.js';
import { SyncTest } from '../../src/sim/synctest.js';
import { LedgeWorld } from './ledge-world.js';
import { cosAngle, sinAngle } from '../../src/ecs/angle.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

function sim(world: LedgeWorld, agents = 0, systems = DEFAULT_SYSTEMS): Simulation {
  const scenario: ScenarioDef = { name: 'systems-test', version: '1', description: '', systems };
  return simulationFromSettings(world, { ...DEFAULT_SETTINGS, agents, capacity: 64 }, scenario);
}

describe('gravity and ground contact', () => {
  it('native rates: whole units (at least 1) in integer worlds, exact in float worlds', () => {
    expect(nativeRate(new LedgeWorld(50, { integer: true, scale: 1024 }), 9.8 / 3600)).toBe(3);
    expect(nativeRate(new LedgeWorld(50, { integer: true, scale: 1 }), 9.8 / 3600)).toBe(1);
    expect(nativeRate(new LedgeWorld(50, { scale: 2 }), 0.25)).toBe(0.5);
  });

  for (const upSign of [1, -1] as const) {
    it(`a body off the ledge falls with speeds g, 2g, ... to the terminal speed (up sign ${upSign})`, () => {
      const w = new LedgeWorld(50, { upSign, scale: 100 });
      const s = sim(w, 0, [gravitySystem, movementSystem, groundContactSystem]);
      const P = s.ecs.components.Position;
      P.x[s.player] = 70; // past the ledge
      const g = gravityOf(w);
      const terminal = terminalSpeedOf(w);
      let y = 0;
      let speed = 0;
      for (let f = 1; f <= 400; f++) {
        s.step(0);
        speed = Math.min(terminal, speed + g);
        y -= upSign * speed;
        expect(P.y[s.player]).toBeCloseTo(y, 6);
        expect(fallSpeeds(s.ecs)[s.player]).toBe(speed);
      }
      expect(speed).toBe(terminal);
    });
  }

  it('standing stops the fall; a standing body is pushed down by one frame of gravity only', () => {
    const w = new LedgeWorld();
    const s = sim(w, 0, [gravitySystem, movementSystem, groundContactSystem]);
    for (let f = 0; f < 50; f++) {
      s.step(0);
      expect(s.ecs.components.Motion.grounded[s.player]).toBe(1);
      expect(fallSpeeds(s.ecs)[s.player]).toBe(0);
      expect(s.ecs.components.Velocity.y[s.player]).toBe(-gravityOf(w));
    }
  });

  it('the player jumps on a fresh press while standing, rises, lands, and does not jump again while the button is held', () => {
    const w = new LedgeWorld(50, { scale: 10 });
    const s = sim(w);
    const P = s.ecs.components.Position;
    s.step(0);
    s.step(Buttons.Jump);
    expect(fallSpeeds(s.ecs)[s.player]).toBeCloseTo(-jumpSpeedOf(w) + gravityOf(w), 12);
    expect(P.y[s.player]).toBeGreaterThan(0);
    let peak = 0;
    let landed = 0;
    for (let f = 0; f < 120; f++) {
      s.step(Buttons.Jump); // held: no new jump
      peak = Math.max(peak, P.y[s.player]!);
      if (landed === 0 && s.ecs.components.Motion.grounded[s.player] === 1) landed = f;
    }
    // v²/2g with v = 5 m/s, g = 9.8 m/s²: about 1.28 m (10 units per metre here), sampled once a frame.
    expect(peak).toBeGreaterThan(11);
    expect(peak).toBeLessThan(13.5);
    expect(landed).toBeGreaterThan(0);
    expect(P.y[s.player]).toBe(0);
  });
});

describe('controller', () => {
  it('assigns behaviours from the behaviour stream in ascending entity id, by the weights', () => {
    const w = new LedgeWorld();
    const s = sim(w, 40);
    s.step(0);
    const expected = new RandomStreams(DEFAULT_SETTINGS.streamSeed);
    // The placement stream was drawn at set-up, the wander stream in frame 1: independent of "behaviour".
    const sum = BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] + BEHAVIOUR_WEIGHTS[2];
    const task = s.scheduler.list().find((t) => t.name === 'controller')!;
    const saved = (task as unknown as { body: { save(): { behaviour: Uint8Array } } }).body.save();
    const counts = [0, 0, 0, 0];
    for (let e = 2; e <= 41; e++) {
      const r = expected.get(BEHAVIOUR_STREAM).int(sum);
      const b = r < BEHAVIOUR_WEIGHTS[0] ? Behaviour.Wander : r < BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] ? Behaviour.Patrol : Behaviour.Chase;
      expect(saved.behaviour[e], `entity ${e}`).toBe(b);
      counts[b]++;
    }
    expect(counts[Behaviour.Wander]! * counts[Behaviour.Patrol]! * counts[Behaviour.Chase]!).toBeGreaterThan(0);
  });

  it('angleOf inverts the angle table across the turn', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), (a) => {
        const back = angleOf(cosAngle(a), sinAngle(a));
        const d = Math.abs(back - a);
        expect(Math.min(d, 65536 - d)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('patrolling agents turn back when blocked or after a leg; chasing agents walk straight at a visible target', () => {
    const w = new LedgeWorld(100, { scale: 100 });
    const s = sim(w, 30);
    const c = s.ecs.components;
    s.step(0);
    const task = s.scheduler.list().find((t) => t.name === 'controller')!;
    const body = (task as unknown as { body: { save(): { behaviour: Uint8Array; patrolAngle: Int32Array } } }).body;
    const st = body.save();
    const patrol = [...st.behaviour.keys()].find((e) => st.behaviour[e] === Behaviour.Patrol)!;
    const chase = [...st.behaviour.keys()].find((e) => st.behaviour[e] === Behaviour.Chase)!;
    expect(patrol).toBeGreaterThan(0);
    expect(chase).toBeGreaterThan(0);
    const a0 = c.Heading.angle[patrol]!;
    // Blocked: next frame it turns half a turn.
    c.Motion.hitWall[patrol] = 1;
    // The chaser sees the player 3 m away along +z.
    c.Position.x[chase] = c.Position.x[s.player]!;
    c.Position.z[chase] = c.Position.z[s.player]! - 300;
    c.Sight.visible[chase] = 1;
    c.Sight.target[chase] = s.player;
    s.step(0);
    expect(c.Heading.angle[patrol]).toBe((a0 + 32768) & 65535);
    expect(c.Velocity.z[chase]).toBeCloseTo(c.Agent.speed[chase]!, 12);
    expect(c.Velocity.x[chase]).toBeCloseTo(0, 12);
    // A leg ends after PATROL_LEG_FRAMES frames even without walls.
    const a1 = c.Heading.angle[patrol]!;
    let turnedAt = -1;
    for (let f = 1; f <= PATROL_LEG_FRAMES + 1 && turnedAt < 0; f++) {
      c.Motion.hitWall[patrol] = 0;
      s.step(0);
      if (c.Heading.angle[patrol] !== a1) turnedAt = f;
    }
    expect(turnedAt).toBe(PATROL_LEG_FRAMES);
  });
});

describe('triggers', () => {
  it('the kill plane lies 2 m under the lowest point along up, for either up sign', () => {
    const up = new LedgeWorld(50, { scale: 100 });
    const down = new LedgeWorld(50, { upSign: -1, scale: 100 });
    expect(defaultKillPlane(up)).toBe(-200);
    expect(defaultKillPlane(down)).toBe(200);
    expect(belowKillPlane(up, [0, -201, 0], -200)).toBe(true);
    expect(belowKillPlane(up, [0, -199, 0], -200)).toBe(false);
    expect(belowKillPlane(down, [0, 201, 0], 200)).toBe(true);
    expect(belowKillPlane(down, [0, 199, 0], 200)).toBe(false);
  });

  it('with only the kill plane, exactly the bodies below it die, in ascending id, for either up sign', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.constantFrom(-1, 0, 1, NaN), { minLength: 8, maxLength: 8 }), (downward, where) => {
        const w = new LedgeWorld(50, downward ? { upSign: -1, scale: 100 } : { scale: 100 });
        const s = sim(w, 7, [triggersSystem()]);
        const kill = defaultKillPlane(w);
        const axis = w.up.axis;
        const up = [s.ecs.components.Position.x, s.ecs.components.Position.y, s.ecs.components.Position.z][axis]!;
        const bodies = s.ecs.entities(s.ecs.defineQuery('probe', [s.ecs.components.Position, s.ecs.components.Velocity, s.ecs.components.BodySize, s.ecs.components.Motion])).slice();
        expect(bodies.length).toBe(8);
        // -1: below the plane, 0: on it, 1: above it, NaN: nowhere (not below).
        const below: number[] = [];
        bodies.forEach((e, i) => {
          up[e] = kill - w.up.sign * where[i]!;
          if (where[i] === 1) below.push(e);
        });
        const deaths: number[] = [];
        s.events.on('death', (d) => deaths.push(d.entity));
        s.step(0);
        expect(deaths).toEqual(below.sort((a, b) => a - b));
        for (const e of below) expect(up[e]).toBe(w.spawnPoint()[axis]);
      }),
      { numRuns: 60 },
    );
  });

  it('a death floor respawns at rest at the spawn point; an exit raises once per visit', () => {
    const w = new LedgeWorld(100, { scale: 1 });
    const systems = DEFAULT_SYSTEMS.map((d) => (d.name === 'triggers' ? triggersSystem({ exitFloorIds: [3], deathMaterials: [6] }) : d));
    const s = sim(w, 0, systems);
    const c = s.ecs.components;
    const exits: number[] = [];
    const deaths: number[] = [];
    s.events.on('exit', (e) => exits.push(e.id));
    s.events.on('death', (e) => deaths.push(e.frame));
    c.Heading.angle[s.player] = 0; // +x
    c.Position.x[s.player] = 15;
    let f = 0;
    while (deaths.length === 0 && f < 2000) s.step(Buttons.Up), f++;
    // Walked +x through floors 2, 3 (exit), 4, 5 and died on floor 6 (x ≥ 50).
    expect(exits).toEqual([3]);
    expect(deaths).toEqual([f]);
    expect([c.Position.x[s.player], c.Position.y[s.player], c.Position.z[s.player]]).toEqual(w.spawnPoint());
    expect(c.Velocity.x[s.player]).toBe(0);
    expect(fallSpeeds(s.ecs)[s.player]).toBe(0);
  });

  it('switches a world tile swap while a body stands on its floor', () => {
    const w = new LedgeWorld(100) as LedgeWorld & { swaps: boolean[]; setSwap(i: number, on: boolean): void; getSwap(i: number): boolean };
    w.swaps = [false, false];
    w.setSwap = (i, on) => void (w.swaps[i] = on);
    w.getSwap = (i) => w.swaps[i]!;
    const systems = DEFAULT_SYSTEMS.map((d) => (d.name === 'triggers' ? triggersSystem({ swaps: [{ floorId: 2, swap: 1, on: true }] }) : d));
    const s = sim(w, 0, systems);
    s.step(0);
    expect(w.swaps).toEqual([false, false]);
    s.ecs.components.Position.x[s.player] = 12;
    s.step(0);
    expect(w.swaps).toEqual([false, true]);
  });
});

describe('line of sight system', () => {
  it(`agents look every ${LOS_RATE} frames; visible iff in range and the eye-to-eye segment is clear`, () => {
    const w = new LedgeWorld(100, { scale: 10 });
    w.wallX = 50;
    const s = sim(w, 30, [inputSystem, losSystem]);
    const c = s.ecs.components;
    const p = s.player;
    c.Position.x[p] = 40;
    c.Position.z[p] = 50;
    let visibleSeen = 0;
    let blockedInRange = 0;
    for (let f = 1; f <= 3 * LOS_RATE; f++) {
      const before = c.Sight.visible.slice();
      s.step(0);
      if (f % LOS_RATE !== 0) {
        expect(Array.from(c.Sight.visible)).toEqual(Array.from(before));
        continue;
      }
      for (let e = 2; e <= 31; e++) {
        const dx = c.Position.x[e]! - 40, dz = c.Position.z[e]! - 50;
        const inRange = dx * dx + dz * dz <= c.Sight.range[e]! ** 2;
        const clear = (c.Position.x[e]! < 50) === (40 < 50);
        expect(c.Sight.target[e]).toBe(p);
        expect(c.Sight.visible[e], `agent ${e}`).toBe(inRange && clear ? 1 : 0);
        visibleSeen += c.Sight.visible[e]!;
        if (inRange && !clear) blockedInRange++;
      }
      expect(eyeHeight(w, c.BodySize.height[p]!)).toBeCloseTo(9, 12);
    }
    // Both answers occurred: some agents seen, some in range but behind the wall.
    expect(visibleSeen).toBeGreaterThan(0);
    expect(blockedInRange).toBeGreaterThan(0);
  });
});

describe('recording', () => {
  it('logs every frame (buttons, player, footing, events) as output only, and cuts back on restore', () => {
    const w = new LedgeWorld(100, { scale: 10 });
    const s = sim(w, 5);
    const a = sim(new LedgeWorld(100, { scale: 10 }), 5, DEFAULT_SYSTEMS.filter((d) => d.name !== 'recording'));
    const log = frameLog(s.ecs);
    let snap = s.save();
    for (let f = 1; f <= 30; f++) {
      s.step(f % 3 === 0 ? Buttons.Up : 0);
      a.step(f % 3 === 0 ? Buttons.Up : 0);
      if (f === 10) snap = s.save();
      // Output only: the state of the rest of the simulation is the same without it.
      expect(s.hash().sections.slice(0, 20)).toEqual(a.hash().sections.slice(0, 20));
    }
    expect(log.frames).toBe(30);
    const f12 = log.frame(11);
    expect(f12.frame).toBe(12);
    expect(f12.buttons).toBe(Buttons.Up);
    expect(log.data.length).toBeGreaterThanOrEqual(30 * RECORD_STRIDE);
    s.restore(snap);
    expect(log.frames).toBe(10);
  });
});

describe('synctest over every system', () => {
  it('re-simulating the last 6 frames every frame gives the same hashes (every task state is saved)', () => {
    const make = () => sim(new LedgeWorld(60, { scale: 10 }), 20);
    const main = make();
    const st = new SyncTest(main, make(), 6);
    for (let f = 1; f <= 150; f++) expect(st.step((f * 7) % 5 === 0 ? Buttons.Up | Buttons.Jump : Buttons.Up | (f % 40 < 20 ? Buttons.Left : 0)), `frame ${f}`).toBe(true);
    expect(st.failures).toEqual([]);
  });
});
