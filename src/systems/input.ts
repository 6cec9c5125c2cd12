/**
 * The input system: copies the frame's buttons (the only outside data a simulation takes) into each player's
 * Controller, and steers each player from its own word: left/right turn, up/down walk forward/back.
 */
import { cosAngle, sinAngle, wrapAngle } from '../ecs/angle.js';
import type { SystemDef, SystemHost } from './system.js';
import { horizontalAxes, walkSpeed } from './movement.js';

/** Button bits of the recorded input word. */
export const Buttons = {
  Up: 1 << 0,
  Down: 1 << 1,
  Left: 1 << 2,
  Right: 1 << 3,
  Action: 1 << 4,
  Jump: 1 << 5,
} as const;

/** All defined bits; replays may only hold these. */
export const BUTTON_MASK = 0x3f;

/** The player turns 1/128 turn per frame while left or right is held. */
export const PLAYER_TURN_PER_FRAME = 512;

/** The player walks at twice an agent's speed. */
export const PLAYER_SPEED_FACTOR = 2;

/**
 * The input system (priority 33, first): copies the frame's buttons into each player's Controller and steers
 * each player by its own word (player 0 first): left and right turn it, up and down walk it forward and back
 * at twice an agent's speed.
 */
export const inputSystem: SystemDef = {
  name: 'input',
  priority: 33,
  create(host: SystemHost) {
    const { Controller, Heading, Velocity } = host.ecs.components;
    const [h0, h1] = horizontalAxes(host.world);
    const vel = [Velocity.x, Velocity.y, Velocity.z] as const;
    const speed = walkSpeed(host.world) * PLAYER_SPEED_FACTOR;
    const steer = (p: number, word: number): void => {
      if (!host.ecs.has(p, Controller)) return;
      const buttons = word & BUTTON_MASK;
      Controller.previous[p] = Controller.buttons[p]!;
      Controller.buttons[p] = buttons;
      let angle = Heading.angle[p]!;
      if (buttons & Buttons.Left) angle += PLAYER_TURN_PER_FRAME;
      if (buttons & Buttons.Right) angle -= PLAYER_TURN_PER_FRAME;
      angle = wrapAngle(angle);
      Heading.angle[p] = angle;
      const dir = (buttons & Buttons.Up ? 1 : 0) - (buttons & Buttons.Down ? 1 : 0);
      let dx = dir * speed * cosAngle(angle);
      let dz = dir * speed * sinAngle(angle);
      if (host.world.integer) {
        dx = Math.round(dx);
        dz = Math.round(dz);
      }
      vel[0][p] = 0;
      vel[1][p] = 0;
      vel[2][p] = 0;
      vel[h0][p] = dx + 0; // + 0 turns −0 into 0, so a standing player hashes the same however it stopped
      vel[h1][p] = dz + 0;
    };
    return () => {
      steer(host.player, host.input);
      const players = host.players;
      const inputs = host.inputs;
      if (players && inputs) for (let k = 1; k < players.length; k++) steer(players[k]!, inputs[k]!);
    };
  },
};
