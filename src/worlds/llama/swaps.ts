import type { FrameContext, TaskBody } from '../../ecs/scheduler.js';
import type { LlamaWorld } from './collision-world.js';

/**
 * Tile swaps (doors, bridges: strat opcodes 0x11a / 0x11b in the game) switched at run time. A swap is
 * changed only by a command applied in a given frame, so the swap states and the commands still pending
 * are simulation state: both go into the state hash and into save/restore.
 */

export interface SwapCommand {
  /** The frame in whose run the command takes effect. */
  frame: number;
  /** Swap index (the k-th tile with hasAlt set). */
  swap: number;
  /** true: the alternative model; false: the tile's own model. */
  on: boolean;
}

export interface SwapTaskState {
  states: number[];
  pending: SwapCommand[];
}

/**
 * A scheduler task that applies queued swap commands. Commands of the same frame apply in the order they
 * were queued (a later one wins); commands for a frame already past apply at the next run.
 */
export class SwapTask implements TaskBody {
  private pending: SwapCommand[] = [];

  constructor(readonly world: LlamaWorld) {}

  /** Queues a command. Throws RangeError for a swap index the world does not have. */
  queue(cmd: SwapCommand): void {
    if (!Number.isInteger(cmd.swap) || cmd.swap < 0 || cmd.swap >= this.world.swapCount) {
      throw new RangeError(`swap index ${cmd.swap} is not in 0..${this.world.swapCount - 1}`);
    }
    if (!Number.isInteger(cmd.frame)) throw new RangeError(`frame ${cmd.frame} is not an integer`);
    // Stable insertion by frame keeps the queue ordered by (frame, queue order).
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.frame > cmd.frame) i--;
    this.pending.splice(i, 0, { frame: cmd.frame, swap: cmd.swap, on: cmd.on });
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  run(ctx: Pick<FrameContext, 'frame'>): void {
    let n = 0;
    while (n < this.pending.length && this.pending[n]!.frame <= ctx.frame) {
      const c = this.pending[n]!;
      this.world.setSwap(c.swap, c.on);
      n++;
    }
    if (n > 0) this.pending.splice(0, n);
  }

  /** Swap states, then each pending command as (frame, swap, on). */
  hashState(): number[] {
    const out = this.world.swapStates();
    out.push(this.pending.length);
    for (const c of this.pending) out.push(c.frame, c.swap, c.on ? 1 : 0);
    return out;
  }

  save(): SwapTaskState {
    return { states: this.world.swapStates(), pending: this.pending.map((c) => ({ ...c })) };
  }

  restore(s: unknown): void {
    const st = s as SwapTaskState;
    this.world.setSwapStates(st.states);
    this.pending = st.pending.map((c) => ({ ...c }));
  }
}
