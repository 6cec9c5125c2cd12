/**
 * Walking relative to the screen: the keys' screen direction becomes the simulation's own buttons (turn toward
 * it, walk once within an eighth of a turn), in integer maths; a run walked so records those buttons, and its
 * replay verifies with the runtime's verifier. Also the keyboard's pointing (N cycles the entities in view) and
 * the world menu's browsing keys.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cyclePointed } from '../../../src/render/sandbox/map-keys.js';
import { screenHeading, screenWalkButtons, walkButtons, WALK_WITHIN } from '../../../src/render/sandbox/screen-walk.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { browseTo } from '../../../src/render/sandbox/world-controls.js';
import { mapPlaneOf } from '../../../src/render/scene/projection.js';
import { openBuiltinWorld } from '../../../src/node/open-world.js';
import { readReplay } from '../../../src/replay/format.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { simulationFromSettings } from '../../../src/scenarios/builtin.js';
import { BUTTON_MASK, Buttons, PLAYER_TURN_PER_FRAME } from '../../../src/systems/input.js';
import { opener, read } from '../helpers.js';

const { Up, Down, Left, Right, Action, Jump } = Buttons;
const wrap = (a: number) => a & 0xffff;
/** The input system's turn, as it applies the buttons. */
const turned = (heading: number, b: number) => wrap(heading + (b & Left ? PLAYER_TURN_PER_FRAME : 0) - (b & Right ? PLAYER_TURN_PER_FRAME : 0));
const keysArb = fc.integer({ min: 0, max: 15 }).filter((k) => screenHeading(k, 1) !== null);

describe('screen-relative walking', () => {
  test('each arrow points the way it shows on the screen, for either sign of the map\'s y', () => {
    // y runs down the screen when ySign is +1: ↑ is the world's −y direction (a quarter turn clockwise).
    expect(screenHeading(Right, 1)).toBe(0);
    expect(screenHeading(Up, 1)).toBe(49152);
    expect(screenHeading(Up, -1)).toBe(16384);
    expect(screenHeading(Left, 1)).toBe(32768);
    expect(screenHeading(Up | Right, -1)).toBe(8192);
    expect(screenHeading(Left | Right, 1)).toBeNull();
    expect(screenHeading(0, 1)).toBeNull();
  });

  test('from any heading the player turns toward the keys\' direction and walks once it faces it (within a few frames), only with defined bits', () => {
    fc.assert(
      fc.property(keysArb, fc.integer({ min: 0, max: 65535 }), fc.constantFrom(1 as const, -1 as const), fc.boolean(), (keys, start, ySign, extra) => {
        const held = keys | (extra ? Action | Jump : 0);
        const target = screenHeading(keys, ySign)!;
        let h = start;
        let walked = false;
        // Half a turn at 512 a frame is 64 frames.
        for (let f = 0; f < 70; f++) {
          const b = screenWalkButtons(held, h, ySign);
          expect(b & ~BUTTON_MASK).toBe(0);
          expect(b & Down).toBe(0);
          expect(b & (Action | Jump)).toBe(extra ? Action | Jump : 0);
          const off = Math.abs(((target - h + 98304) % 65536) - 32768);
          if (b & Up) {
            expect(off).toBeLessThanOrEqual(WALK_WITHIN);
            walked = true;
          }
          h = turned(h, b);
        }
        expect(walked).toBe(true);
        expect(Math.abs(((target - h + 98304) % 65536) - 32768)).toBeLessThanOrEqual(256);
      }),
    );
  });

  test('off, the keys are the buttons as they are', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 65535 }), (keys, h) => {
      const s = { sim: { player: 1, ecs: { components: { Heading: { angle: [0, h] } } } } };
      expect(walkButtons(keys, false, s, { ySign: 1 })).toBe(keys);
      expect(walkButtons(keys, true, s, { ySign: 1 })).toBe(screenWalkButtons(keys, h, 1));
    }));
  });

  test("in a room it turns this page's seat by its own heading, not seat 1's", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 65535 }), (keys, h0, h2) => {
      const s = { sim: { player: 0, ecs: { components: { Heading: { angle: [h0, 0, h2] } } } } };
      expect(walkButtons(keys, true, s, { ySign: -1 }, 2)).toBe(screenWalkButtons(keys, h2, -1));
      expect(walkButtons(keys, true, s, { ySign: -1 })).toBe(screenWalkButtons(keys, h0, -1));
    }));
  });

  test('a run walked relative to the screen records its buttons, and its replay verifies', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 4 });
    await s.restart(true);
    const plane = mapPlaneOf(s.sim.world);
    const keys = [Up, Up | Right, Right, Down, Left | Down, Left];
    const sent: number[] = [];
    for (let f = 0; f < 360; f++) {
      const b = walkButtons(keys[Math.floor(f / 60)]!, true, s, plane);
      sent.push(b);
      s.stepLive(b);
    }
    // It turned and walked: the screen keys became turns and steps.
    expect(sent.some((b) => b & Left) && sent.some((b) => b & Right) && sent.some((b) => b & Up)).toBe(true);
    const rp = readReplay(s.finishRecording());
    expect(Array.from({ length: rp.frames.count }, (_, f) => rp.frames.inputs[f])).toEqual(sent);
    const { world } = await openBuiltinWorld('rugrats-demo', read);
    expect(verifyReplay(rp, simulationFromSettings(world, rp.header.settings)).ok).toBe(true);
  });
});

describe('the keyboard: pointing at entities, browsing the world menu', () => {
  test('N cycles the entities in view in id order, wrapping; Shift+N goes back', () => {
    expect(cyclePointed([1, 4, 9], -1, 1)).toBe(1);
    expect(cyclePointed([1, 4, 9], 4, 1)).toBe(9);
    expect(cyclePointed([1, 4, 9], 9, 1)).toBe(1);
    expect(cyclePointed([1, 4, 9], 1, -1)).toBe(9);
    expect(cyclePointed([1, 4, 9], 5, -1)).toBe(4);
    expect(cyclePointed([], 3, 1)).toBe(-1);
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 4095 }), { minLength: 1, maxLength: 40 }), (raw) => {
      const ids = [...raw].sort((a, b) => a - b);
      // Around the whole list and back to the start, visiting each once.
      const seen: number[] = [];
      let p = -1;
      for (let i = 0; i < ids.length; i++) seen.push((p = cyclePointed(ids, p, 1)));
      expect(seen).toEqual(ids);
      expect(cyclePointed(ids, p, 1)).toBe(ids[0]);
    }));
  });

  test('the world menu\'s browsing keys move its choice within the list; other keys do not browse', () => {
    expect(browseTo('ArrowDown', 0, 9)).toBe(1);
    expect(browseTo('ArrowUp', 0, 9)).toBe(0);
    expect(browseTo('ArrowDown', 8, 9)).toBe(8);
    expect(browseTo('End', 2, 9)).toBe(8);
    expect(browseTo('Home', 5, 9)).toBe(0);
    expect(browseTo('Enter', 5, 9)).toBeNull();
    expect(browseTo('a', 5, 9)).toBeNull();
  });
});
