// The checkpoints of a lap: four cells of the Llama demo level's flat ground (a cell is one world unit
// square; `retrosim world png` shows the level), visited in order, around the death cell and away from it.
// A racer that comes within REACH metres of its next checkpoint's middle moves on to the one after.
export const CHECKPOINT_CELLS = [
  [0, 0],
  [2, 0],
  [2, 2],
  [0, 2],
];
export const CHECKPOINTS = CHECKPOINT_CELLS.length;
export const REACH = 1;

/** The middles of the checkpoint cells, in lap order: [horizontal axis 0, axis 1] of each, in world units. */
export function checkpointsOf(world, axes) {
  const { min } = world.bounds; // [x, y, z]
  return CHECKPOINT_CELLS.map(([c0, c1]) => [min[axes[0]] + c0 + 0.5, min[axes[1]] + c1 + 0.5]);
}
