/**
 * Converting collision models between versions, saying exactly what each direction loses:
 *
 * - to COL2 or COL3: mesh and shadow vertices become int16 × 1/128 (truncated toward zero, as SA compresses
 *   them), so a coordinate beyond −256 … 255.9921875 or finer than 1/128 cannot survive; COLL faces' piece
 *   (flag) and brightness bytes have no room; COLL lines are dropped; vertices no face refers to are dropped
 *   (COL2+ stores no vertex count); COL2 has no shadow mesh; COL4's extra header word is dropped.
 * - to COLL: no face groups, no shadow mesh, and no light values: COLL games read a face's material and piece
 *   bytes only, so the light byte (day | night << 4) is copied into the COLL surface's light byte, where
 *   converting back finds it, but it means nothing to them.
 *
 * `convertColModel` refuses (ColConvertError listing every loss with counts) unless `lossy` is set, builds
 * face groups for COL2/COL3 the way the game expects them (groups of at most 50 consecutive faces with their
 * boxes; faces reordered by group, the new order reported), and makes the bounds enclose the converted
 * geometry when quantisation moved a vertex out of them.
 */
import { COL_FOURCC, convertModel, referencedVertexCount, type ColFaceGroup, type ColMesh, type ColModel } from './model.js';
import { computeBounds, groupFaces, MAX_FACES_PER_GROUP } from './build.js';
import type { Vec3 } from '../world.js';

/** The versions a model can be converted to. */
export type ColTargetVersion = 1 | 2 | 3;

/** One kind of data a conversion loses, with how many items. */
export interface ColLoss {
  /** A stable key: vertex-range, vertex-precision, face-piece-brightness, lines, unreferenced-vertices, shadow-mesh, face-groups, light, col4-word. */
  kind: string;
  /** How many items (vertices, faces, lines, groups, words) are affected. */
  count: number;
  /** What is lost, in words. */
  detail: string;
}

/** Thrown when a conversion would lose data and `lossy` is not set, or when the target cannot hold the model at all. */
export class ColConvertError extends Error {
  override readonly name = 'ColConvertError';
}

/** How face groups are made for a COL2/COL3 target. */
export type FaceGroupPolicy = 'auto' | 'build' | 'keep' | 'none';

/** Options of convertColModel. */
export interface ConvertOptions {
  /** Convert even when data is lost (the losses are still reported). Default false: refuse. */
  lossy?: boolean;
  /**
   * Face groups of a COL2/COL3 target: "auto" (default) keeps the source's groups when they are valid and
   * otherwise builds them when there are more than MAX_FACES_PER_GROUP faces; "build" always builds them;
   * "keep" keeps the source's (none when it has none); "none" writes none.
   */
  faceGroups?: FaceGroupPolicy;
}

/** A converted model and what the conversion did. */
export interface ConvertedModel {
  model: ColModel;
  /** Everything lost (empty when the conversion is exact). */
  losses: ColLoss[];
  /** When faces were reordered by group: `faceOrder[new index] = old index`; null when the order is unchanged. */
  faceOrder: Uint32Array | null;
  /** How the face groups came about. */
  faceGroups: 'kept' | 'built' | 'none';
  /** True when the bounds were recomputed because quantised geometry left the stored ones. */
  boundsRecomputed: boolean;
}

const MAX_PACKED = 32767 / 128;
const MIN_PACKED = -256;

function meshVertexLosses(mesh: ColMesh): { range: number; precision: number } {
  const used = new Uint8Array(mesh.vertexCount);
  for (let i = 0; i < mesh.faceCount * 3; i++) used[mesh.indices[i]!] = 1;
  let range = 0;
  let precision = 0;
  for (let v = 0; v < mesh.vertexCount; v++) {
    if (!used[v]) continue;
    let out = false;
    let fine = false;
    for (let k = 0; k < 3; k++) {
      const x = mesh.vertices[v * 3 + k]!;
      if (!(x >= MIN_PACKED && x <= MAX_PACKED)) out = true;
      else if (!Number.isInteger(x * 128)) fine = true; // −0 becomes 0: the same place, not a loss
    }
    if (out) range++;
    else if (fine) precision++;
  }
  return { range, precision };
}

/** What converting `m` to `to` loses (empty when nothing is). */
export function conversionLosses(m: ColModel, to: ColTargetVersion): ColLoss[] {
  const out: ColLoss[] = [];
  const add = (kind: string, count: number, detail: string): void => {
    if (count > 0) out.push({ kind, count, detail });
  };
  if (to >= 2) {
    const a = meshVertexLosses(m.mesh);
    const b = m.shadow && to >= 3 ? meshVertexLosses(m.shadow) : { range: 0, precision: 0 };
    add('vertex-range', a.range + b.range, `${a.range + b.range} vertices have a coordinate beyond −256 … 255.992 (COL2/COL3 store int16 × 1/128; they saturate)`);
    add('vertex-precision', a.precision + b.precision, `${a.precision + b.precision} vertices are not on the 1/128 grid (COL2/COL3 store int16 × 1/128; they move toward zero by less than 1/128 per axis)`);
    const used = referencedVertexCount(m.mesh.indices, m.mesh.faceCount);
    let unused = Math.max(0, m.mesh.vertexCount - used);
    if (m.shadow && to >= 3) unused += Math.max(0, m.shadow.vertexCount - referencedVertexCount(m.shadow.indices, m.shadow.faceCount));
    add('unreferenced-vertices', unused, `${unused} vertices after the last one a face refers to are dropped (COL2/COL3 store no vertex count)`);
    if (m.version === 1) {
      let pb = 0;
      for (let f = 0; f < m.mesh.faceCount; f++) if (m.mesh.surfaces[f * 4 + 1] !== 0 || m.mesh.surfaces[f * 4 + 2] !== 0) pb++;
      add('face-piece-brightness', pb, `${pb} faces have piece (flag) or brightness bytes, which COL2/COL3 faces have no room for`);
      add('lines', m.lines.length / 6, `${m.lines.length / 6} COLL lines are dropped (COL2/COL3 have none)`);
    }
    if (to === 2 && m.shadow) add('shadow-mesh', m.shadow.faceCount, `the shadow mesh (${m.shadow.faceCount} faces) is dropped: COL2 has none`);
    if (m.version === 4 && m.col4Unknown !== 0) add('col4-word', 1, `COL4's extra header word ${m.col4Unknown} is dropped`);
  } else {
    if (m.faceGroups) add('face-groups', m.faceGroups.length, `${m.faceGroups.length} face groups are dropped: COLL has none`);
    if (m.shadow) add('shadow-mesh', m.shadow.faceCount, `the shadow mesh (${m.shadow.faceCount} faces) is dropped: COLL has none`);
    let lit = 0;
    for (let f = 0; f < m.mesh.faceCount; f++) if (m.mesh.surfaces[f * 4 + 3] !== 0 && m.version >= 2) lit++;
    add('light', lit, `${lit} faces carry light values (day | night << 4), which COLL games do not read (the byte is kept in the COLL surface's light byte)`);
    if (m.version === 4 && m.col4Unknown !== 0) add('col4-word', 1, `COL4's extra header word ${m.col4Unknown} is dropped`);
  }
  return out;
}

/** Throws ColConvertError when the target version cannot hold the model at all (its counts are u16 there). */
function checkCounts(m: ColModel, to: ColTargetVersion): void {
  if (to === 1) return;
  const name = `${COL_FOURCC[m.version]} model ${JSON.stringify(m.name)}`;
  if (m.spheres.length > 0xffff || m.boxes.length > 0xffff) throw new ColConvertError(`${name}: COL${to} counts spheres and boxes in 16 bits (${m.spheres.length} spheres, ${m.boxes.length} boxes)`);
  for (const [mesh, what] of [[m.mesh, 'mesh'], [to >= 3 ? m.shadow : null, 'shadow mesh']] as const) {
    if (!mesh) continue;
    if (mesh.faceCount > 0xffff) throw new ColConvertError(`${name}: the ${what} has ${mesh.faceCount} faces, more than COL${to}'s 16-bit count holds`);
    if (referencedVertexCount(mesh.indices, mesh.faceCount) > 0x10000) throw new ColConvertError(`${name}: the ${what} refers to more vertices than COL${to}'s 16-bit indices reach`);
  }
}

/** Whether face groups are contiguous runs, in order, covering every face (as the game's tools write them). */
export function faceGroupsValid(groups: readonly ColFaceGroup[], faceCount: number): boolean {
  let next = 0;
  for (const g of groups) {
    if (g.first !== next || g.last < g.first || g.last >= faceCount) return false;
    next = g.last + 1;
  }
  return next === faceCount;
}

/** Whether a group's box holds its faces' vertices. */
function boxHolds(g: ColFaceGroup, mesh: ColMesh): boolean {
  for (let f = g.first; f <= g.last && f < mesh.faceCount; f++) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[f * 3 + k]!;
      for (let a = 0; a < 3; a++) {
        const x = mesh.vertices[v * 3 + a]!;
        if (!(x >= g.min[a]! && x <= g.max[a]!)) return false;
      }
    }
  }
  return true;
}

function enclosed(m: ColModel): boolean {
  const b = m.bounds;
  const inBox = (x: number, y: number, z: number): boolean => x >= b.min[0] && x <= b.max[0] && y >= b.min[1] && y <= b.max[1] && z >= b.min[2] && z <= b.max[2];
  const V = m.mesh.vertices;
  for (let v = 0; v < m.mesh.vertexCount; v++) if (!inBox(V[v * 3]!, V[v * 3 + 1]!, V[v * 3 + 2]!)) return false;
  return true;
}

/**
 * Converts a model to COLL, COL2 or COL3 (see the module comment for what each direction loses). Throws
 * ColConvertError listing the losses when something would be lost and `options.lossy` is not set, or when the
 * target cannot hold the model at all.
 */
export function convertColModel(m: ColModel, to: ColTargetVersion, options: ConvertOptions = {}): ConvertedModel {
  checkCounts(m, to);
  const losses = conversionLosses(m, to);
  if (losses.length > 0 && options.lossy !== true) {
    throw new ColConvertError(`${COL_FOURCC[m.version]} model ${JSON.stringify(m.name)} to ${COL_FOURCC[to]} would lose data: ${losses.map((l) => l.detail).join('; ')} (--lossy converts anyway)`);
  }
  const policy = options.faceGroups ?? 'auto';
  // Only quantisation moves geometry: otherwise the stored boxes stay as they are.
  const moved = losses.some((l) => l.kind === 'vertex-range' || l.kind === 'vertex-precision');
  let model = convertModel(m, to);
  let faceOrder: Uint32Array | null = null;
  let groups: ConvertedModel['faceGroups'] = 'none';
  if (to >= 2 && model.mesh.faceCount > 0) {
    const source = model.faceGroups;
    const keepOk = source !== null && faceGroupsValid(source, model.mesh.faceCount);
    const build = policy === 'build' || (policy === 'auto' && !keepOk && model.mesh.faceCount > MAX_FACES_PER_GROUP);
    if (build) {
      const g = groupFaces(model.mesh);
      let moved = false;
      for (let i = 0; i < g.faceOrder.length; i++) if (g.faceOrder[i] !== i) moved = true;
      model = { ...model, mesh: g.mesh, faceGroups: g.groups };
      faceOrder = moved ? g.faceOrder : null;
      groups = 'built';
    } else if ((policy === 'auto' || policy === 'keep') && source !== null) {
      // Groups whose boxes no longer hold their faces once quantised get their boxes recomputed.
      model = { ...model, faceGroups: moved ? source.map((gr) => (boxHolds(gr, model.mesh) ? gr : reboxed(gr, model.mesh))) : source };
      groups = 'kept';
    } else model = { ...model, faceGroups: null };
  } else model = { ...model, faceGroups: null };
  model.flags = flagsFor(model, m.flags);
  let boundsRecomputed = false;
  if (moved && !enclosed(model)) {
    model = { ...model, bounds: computeBounds(model) };
    boundsRecomputed = true;
  }
  return { model, losses, faceOrder, faceGroups: groups, boundsRecomputed };
}

function reboxed(g: ColFaceGroup, mesh: ColMesh): ColFaceGroup {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const last = Math.min(g.last, mesh.faceCount - 1);
  for (let f = g.first; f <= last; f++) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[f * 3 + k]!;
      for (let a = 0; a < 3; a++) {
        const x = mesh.vertices[v * 3 + a]!;
        if (x < min[a]!) min[a] = x;
        if (x > max[a]!) max[a] = x;
      }
    }
  }
  return { min, max, first: g.first, last: g.last };
}

/** The canonical flags of the converted model, the source's other bits kept (none for COLL). */
function flagsFor(model: ColModel, sourceFlags: number): number {
  if (model.version === 1) return 0;
  let f = sourceFlags & ~(2 | 8 | 16);
  if (model.spheres.length > 0 || model.boxes.length > 0 || model.mesh.faceCount > 0) f |= 2;
  if (model.faceGroups !== null) f |= 8;
  if (model.version >= 3 && model.shadow !== null) f |= 16;
  return f >>> 0;
}
