import type { FrameContext } from '../../ecs/scheduler.js';
import type { MoveResult, Vec3 } from '../world.js';
import type { LlamaWorld } from './collision-world.js';

/**
 * What the death plane does (the seed: falling onto material 30 empties the energy and the llama respawns
 * at the last checkpoint or the start). A movement system calls `afterMove` with each body's move result;
 * on a "death" contact it emits the `death` event and returns where the body respawns.
 */
export class LlamaRespawner {
  /** Last checkpoint per entity (entity → position); iteration is by ascending entity for the hash. */
  private readonly checkpoints = new Map<number, Vec3>();

  constructor(readonly world: LlamaWorld) {}

  setCheckpoint(entity: number, pos: Vec3): void {
    this.checkpoints.set(entity, [pos[0], pos[1], pos[2]]);
  }

  /** The respawn position of an entity: its last checkpoint, else the level's start. */
  respawnPoint(entity: number): Vec3 {
    const c = this.checkpoints.get(entity);
    return c ? [c[0], c[1], c[2]] : this.world.spawnPoint();
  }

  /** Emits `death` and returns the respawn position when the move touched a death plane; else null. */
  afterMove(ctx: Pick<FrameContext, 'frame' | 'events'>, entity: number, result: MoveResult): Vec3 | null {
    for (const c of result.contacts) {
      if (c.kind === 'death') {
        ctx.events.emit('death', { frame: ctx.frame, entity });
        return this.respawnPoint(entity);
      }
    }
    return null;
  }

  /** Checkpoints by ascending entity: entity, x, y, z each. */
  hashState(): number[] {
    const out: number[] = [];
    for (const e of [...this.checkpoints.keys()].sort((a, b) => a - b)) {
      const p = this.checkpoints.get(e)!;
      out.push(e, p[0], p[1], p[2]);
    }
    return out;
  }

  save(): [number, Vec3][] {
    return [...this.checkpoints.entries()].sort((a, b) => a[0] - b[0]).map(([e, p]) => [e, [p[0], p[1], p[2]]]);
  }

  restore(s: unknown): void {
    this.checkpoints.clear();
    for (const [e, p] of s as [number, Vec3][]) this.setCheckpoint(e, p);
  }
}
