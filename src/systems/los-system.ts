/**
 * The line-of-sight system: every LOS_RATE frames, each agent with Sight looks at its target (the player)
 * from eye to eye, and the first LOS_MATRIX_AGENTS agents (ascending id) get a full visibility matrix. Both
 * are one `losBatch` each over flat typed arrays reused from frame to frame.
 *
 * An agent sees its target when the target is within `Sight.range` (eye to eye, compared squared: no root)
 * and the world's segment between the eyes is clear. `Sight.visible` holds the answer until the next look;
 * the controller's chasing agents read it. The matrix is state too (packed into bits for the hash).
 *
 * Runs after triggers (52), so it looks from where bodies ended the frame.
 */
import type { FrameContext, TaskBody } from '../ecs/scheduler.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { SystemDef, SystemHost } from './system.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE, VisibilityMatrix, type LosOutput } from './los/los-batch.js';
import { AscendingIds } from './ascending-ids.js';
import { Saved } from '../binary/saved-value.js';

/** Agents look every this many frames (frames 4, 8, 12, ...: 15 looks a second at 60 frames per second). */
export const LOS_RATE = 4;
/** Eyes are this fraction of the body height above the feet. */
export const EYE_HEIGHT_FRACTION = 0.9;
/** How many agents (lowest ids) the visibility matrix covers. */
export const LOS_MATRIX_AGENTS = 32;
/** The matrix's range, in metres. */
export const LOS_MATRIX_RANGE_METRES = 20;

/** Eye height above the feet for a body of `height` (whole units in integer worlds). */
export function eyeHeight(world: CollisionWorld, height: number): number {
  const h = height * EYE_HEIGHT_FRACTION;
  return world.integer ? Math.round(h) : h;
}

/**
 * The line-of-sight system (priority 56): every LOS_RATE frames each agent with Sight looks at its target eye to
 * eye (within `Sight.range`, through the world's segment test) and keeps the answer in `Sight.visible`; the first
 * 32 agents also get a visibility matrix among themselves.
 */
export const losSystem: SystemDef = {
  name: 'line-of-sight',
  priority: 56,
  create(host: SystemHost): TaskBody {
    const ecs = host.ecs;
    const world = host.world;
    const c = ecs.components;
    const { Sight, Position, BodySize } = c;
    const q = ecs.defineQuery('line-of-sight', [Sight, Position, BodySize]);
    const pos = [Position.x, Position.y, Position.z] as const;
    const axis = world.up.axis;
    const sign = world.up.sign;
    let segments = new Float64Array(64 * SEGMENT_STRIDE);
    let who = new Uint32Array(64);
    let out: LosOutput = newLosOutput(64);
    const ascending = new AscendingIds();
    const feet = new Float64Array(3 * LOS_MATRIX_AGENTS);
    const matrix = new VisibilityMatrix();
    const matrixBits = new Uint32Array(Math.ceil((LOS_MATRIX_AGENTS * LOS_MATRIX_AGENTS) / 32));
    const matrixIds = new Uint32Array(LOS_MATRIX_AGENTS);
    // The matrix's size lives in an array so that its state is three arrays (`stateArrays`, for rollback).
    const matrixSize = new Uint32Array(1);
    const hashBuf = new Float64Array(1 + LOS_MATRIX_AGENTS + matrixBits.length);
    const scale = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
    const matrixRange = LOS_MATRIX_RANGE_METRES * scale;

    const eye = (e: number, a: number): number => pos[a][e]! + (a === axis ? sign * eyeHeight(world, BodySize.height[e]!) : 0);

    return {
      run(ctx: FrameContext) {
        if (ctx.frame % LOS_RATE !== 0) return;
        const ids = ascending.of(ecs.entities(q), ecs.structureId);
        const n = ids.length;
        if (who.length < ascending.capacity) {
          // The per-entity buffers grow with the id buffer, to its length.
          const cap = ascending.capacity;
          segments = new Float64Array(cap * SEGMENT_STRIDE);
          who = new Uint32Array(cap);
          out = newLosOutput(cap);
        }
        const target = host.player;
        const hasTarget = ecs.has(target, Position) && ecs.has(target, BodySize);
        const tx = hasTarget ? eye(target, 0) : 0;
        const ty = hasTarget ? eye(target, 1) : 0;
        const tz = hasTarget ? eye(target, 2) : 0;
        let k = 0;
        for (let i = 0; i < n; i++) {
          const e = ids[i]!;
          Sight.visible[e] = 0;
          Sight.target[e] = hasTarget && e !== target ? target : 0;
          if (Sight.target[e] === 0) continue;
          const ex = eye(e, 0), ey = eye(e, 1), ez = eye(e, 2);
          const dx = tx - ex, dy = ty - ey, dz = tz - ez;
          const r = Sight.range[e]!;
          if (!(dx * dx + dy * dy + dz * dz <= r * r)) continue;
          const o = k * SEGMENT_STRIDE;
          segments[o] = ex; segments[o + 1] = ey; segments[o + 2] = ez;
          segments[o + 3] = tx; segments[o + 4] = ty; segments[o + 5] = tz;
          who[k++] = e;
        }
        losBatch(world, segments, out, 0, k);
        for (let j = 0; j < k; j++) Sight.visible[who[j]!] = out.visible[j]!;

        // The matrix of the lowest-id agents, eye height from the first one's body (all share one size).
        const matrixN = Math.min(n, LOS_MATRIX_AGENTS);
        matrixSize[0] = matrixN;
        for (let i = 0; i < matrixN; i++) {
          const e = ids[i]!;
          matrixIds[i] = e;
          feet[3 * i] = pos[0][e]!;
          feet[3 * i + 1] = pos[1][e]!;
          feet[3 * i + 2] = pos[2][e]!;
        }
        const m = matrix.compute(world, feet, matrixN, matrixN > 0 ? eyeHeight(world, BodySize.height[ids[0]!]!) : 0, matrixRange);
        matrixBits.fill(0);
        for (let i = 0; i < matrixN * matrixN; i++) if (m[i] === 1) matrixBits[i >>> 5] = (matrixBits[i >>> 5]! | (1 << (i & 31))) >>> 0;
      },
      /** The matrix's size, its agents, then its bits. */
      hashState() {
        const h = hashBuf;
        const matrixN = matrixSize[0]!;
        h[0] = matrixN;
        for (let i = 0; i < matrixN; i++) h[1 + i] = matrixIds[i]!;
        h.set(matrixBits, 1 + matrixN);
        return h.subarray(0, 1 + matrixN + matrixBits.length);
      },
      save: () => ({ n: matrixSize[0]!, ids: matrixIds.slice(), bits: matrixBits.slice() }),
      stateArrays: [matrixSize, matrixIds, matrixBits],
      /**
       * The matrix's size (0..LOS_MATRIX_AGENTS), its agents (entity ids for the first n) and its bits (none
       * past n × n): checked before use, so a saved size cannot make the hash read past its buffers.
       */
      restore(s: unknown) {
        const v = new Saved(s, 'state').object(['n', 'ids', 'bits']);
        const n = v.get('n').int(0, LOS_MATRIX_AGENTS);
        const ids = v.get('ids').typed(Uint32Array, matrixIds.length);
        const bits = v.get('bits').typed(Uint32Array, matrixBits.length);
        // The first n are the ids the matrix was cast for (alive then; one may have died since).
        v.get('ids').elementsIn(ids.subarray(0, n), 1, ecs.capacity - 1);
        for (let i = n * n; i < matrixBits.length * 32; i++) if ((bits[i >>> 5]! >>> (i & 31)) & 1) v.get('bits').fail(`bit ${i} is set, past the ${n} × ${n} matrix`);
        matrixSize[0] = n;
        matrixIds.set(ids);
        matrixBits.set(bits);
      },
    };
  },
};
