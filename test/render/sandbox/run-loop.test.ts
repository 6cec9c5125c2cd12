/**
 * The run loop on a real session, with the times the test gives: an animation frame runs the simulation
 * frames the clock owes (none paused, a few at most after a stall), a replay pauses at its end, footsteps
 * come every FOOTSTEP_FRAMES frames while the player walks and never while it stands, and the frame rate
 * is counted over each second.
 */
import { describe, expect, test } from 'vitest';
import { FOOTSTEP_FRAMES, RunLoop } from '../../../src/render/sandbox/run-loop.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { MAX_CATCH_UP, SIM_HZ } from '../../../src/render/scene/sim-clock.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

function loopOn(session: SandboxSession | null, buttons = 0) {
  const t = { now: 0, draws: 0, steps: 0 };
  const loop = new RunLoop(
    {
      session: () => session,
      buttons: () => buttons,
      footstep: () => t.steps++,
      draw: () => t.draws++,
    },
    () => t.now,
  );
  return { loop, t };
}

describe('run loop', () => {
  test('each animation frame runs what the clock owes, draws once; paused runs nothing; a stall is capped', async () => {
    const s = await SandboxSession.create(opener('piney-default'), { agents: 10 });
    const { loop, t } = loopOn(s);
    expect(loop.frame(1000 / SIM_HZ)).toBe(1);
    expect(s.sim.frame).toBe(1);
    loop.paused = true;
    expect(loop.frame(1000)).toBe(0);
    expect(s.sim.frame).toBe(1);
    loop.paused = false;
    expect(loop.frame(200)).toBe(MAX_CATCH_UP);
    expect(s.sim.frame).toBe(1 + MAX_CATCH_UP);
    expect(t.draws).toBe(3);
    // No world yet: nothing runs, the page still draws.
    const none = loopOn(null);
    expect(none.loop.frame(1000 / SIM_HZ)).toBe(0);
    expect(none.loop.stepOnce()).toBe(false);
    expect(none.t.draws).toBe(1);
  });

  test('a replay pauses at its end', async () => {
    const s = await SandboxSession.create(opener('piney-default'), { agents: 10 });
    await s.restart(true);
    for (let i = 0; i < 5; i++) s.stepLive(0);
    await s.loadReplay(s.finishRecording());
    const { loop } = loopOn(s);
    for (let i = 0; i < 5; i++) expect(loop.stepOnce()).toBe(true);
    expect(loop.paused).toBe(false);
    expect(loop.stepOnce()).toBe(false);
    expect(loop.paused).toBe(true);
  });

  test('footsteps every FOOTSTEP_FRAMES frames while the player walks, none while it stands', async () => {
    const standing = loopOn(await SandboxSession.create(opener('piney-default'), { agents: 10 }), 0);
    for (let i = 0; i < 100; i++) standing.loop.stepOnce();
    expect(standing.t.steps).toBe(0);
    const walking = loopOn(await SandboxSession.create(opener('piney-default'), { agents: 10 }), Buttons.Up);
    const n = 100;
    // The first step sounds as soon as the player moves (the second frame: the first has no place before it).
    walking.loop.stepOnce();
    expect(walking.t.steps).toBe(0);
    walking.loop.stepOnce();
    expect(walking.t.steps).toBe(1);
    for (let i = 2; i < n; i++) walking.loop.stepOnce();
    // The first frame has no place before it to compare with; from then on every frame moves.
    expect(walking.t.steps).toBe(Math.ceil((n - 1) / FOOTSTEP_FRAMES));
    // A new view forgets the last place: the jump to the new one is no step.
    walking.loop.forgetPlayer();
    walking.loop.stepOnce();
    expect(walking.t.steps).toBe(Math.ceil((n - 1) / FOOTSTEP_FRAMES));
  });

  test('the frame rate is counted over each second of the times given', async () => {
    const { loop, t } = loopOn(null);
    t.now = 1000;
    loop.frame(0);
    for (let i = 1; i <= 30; i++) {
      t.now = 1000 + i * (1000 / 30);
      loop.frame(1000 / 30);
    }
    expect(loop.fps).toBeCloseTo(30, 6);
  });

  test('in a room each simulation frame is the room\'s tick with the keys held, even paused; the page\'s own world stays', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 0 });
    const ticks: number[] = [];
    let inRoom = true;
    const loop = new RunLoop(
      { session: () => s, buttons: () => Buttons.Left, footstep: () => undefined, draw: () => undefined, roomStep: (b) => inRoom && ticks.push(b) > 0, inRoom: () => inRoom },
      () => 0,
    );
    loop.paused = true;
    expect(loop.frame(1000 / SIM_HZ)).toBe(1);
    expect(loop.frame(1000 / SIM_HZ)).toBe(1);
    expect(ticks).toEqual([Buttons.Left, Buttons.Left]);
    expect(s.sim.frame).toBe(0);
    inRoom = false;
    expect(loop.frame(1000 / SIM_HZ)).toBe(0);
    loop.paused = false;
    expect(loop.frame(1000 / SIM_HZ)).toBe(1);
    expect(ticks.length).toBe(2);
    expect(s.sim.frame).toBe(1);
  });
});
