/**
 * A world's native axes and units against the ones `world export` writes (metres, +Y up, right-handed: the
 * table at the top of src/worlds/export/worlds.ts), for comparing with a peer that reads the export (navcat's
 * navmesh is y-up). Each world's map is a signed permutation of the axes over its scale:
 *
 * | world | native → export |
 * |---|---|
 * | Rugrats, COLBIN (−Y up) | (x, −y, −z) / scale |
 * | COLBIN (+Y up) | (−x, y, −z) / scale |
 * | Llama | (x, y, z) / scale |
 * | GTA, Piney | (x, z, −y) / scale |
 */
import type { CollisionWorld, Vec3 } from '../src/worlds/world.js';
import type { ColbinWorld } from '../src/worlds/colbin/collision-world.js';

/** Export axis k takes native axis `from[k]` times `sign[k]`, over the world's scale. */
export interface ExportAxes {
  readonly from: readonly [0 | 1 | 2, 0 | 1 | 2, 0 | 1 | 2];
  readonly sign: readonly [1 | -1, 1 | -1, 1 | -1];
  readonly scale: number;
  /** Whether native points are whole numbers (then `toNative` rounds). */
  readonly integer: boolean;
}

/** The export's axes of `world` (see the module comment). */
export function exportAxes(world: CollisionWorld): ExportAxes {
  const base = { scale: world.scale, integer: world.integer };
  switch (world.kind) {
    case 'rugrats':
      return { ...base, from: [0, 1, 2], sign: [1, -1, -1] };
    case 'colbin':
      return (world as ColbinWorld).upSign < 0 ? { ...base, from: [0, 1, 2], sign: [1, -1, -1] } : { ...base, from: [0, 1, 2], sign: [-1, 1, -1] };
    case 'llama':
      return { ...base, from: [0, 1, 2], sign: [1, 1, 1] };
    case 'gta':
    case 'piney':
      return { ...base, from: [0, 2, 1], sign: [1, 1, -1] };
  }
}

/** A native point in the export's metres and axes. */
export function toExport(ax: ExportAxes, p: Readonly<Vec3>): [number, number, number] {
  const s = ax.scale;
  // `+ 0` turns −0 into 0.
  return [(ax.sign[0] * p[ax.from[0]]) / s + 0, (ax.sign[1] * p[ax.from[1]]) / s + 0, (ax.sign[2] * p[ax.from[2]]) / s + 0];
}

/** A point of the export back in native units and axes (rounded to whole units in an integer world). */
export function toNative(ax: ExportAxes, q: readonly number[]): Vec3 {
  const out: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const v = ax.sign[k]! * q[k]! * ax.scale;
    out[ax.from[k]!] = (ax.integer ? Math.round(v) : v) + 0;
  }
  return out;
}
