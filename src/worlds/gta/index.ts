/**
 * `retrosim/worlds/gta`: GTA collision files (`.col`: COLL for GTA III and Vice City, COL2/COL3 for San
 * Andreas, COL4): spheres, boxes, triangle meshes, face groups and shadow meshes. Parse and write every
 * version (canonically, or keeping a parsed file's layout), convert between them saying what is lost, build
 * models (in code, from JSON or OBJ), place models (as an IPL does) and query them: the nearest
 * hit of a segment, a sphere's overlap and push-out, the ground under a point, and bodies walking as a
 * CollisionWorld.
 *
 * Units are the game's metres, z up, float coordinates.
 *
 * @example
 * ```ts
 * import { loadGtaWorld } from 'retrosim/worlds/gta';
 * const world = loadGtaWorld(bytes, 'town.col');
 * const hit = world.segmentHit([0, 0, 10], [0, 0, -10]);
 * if (hit.hit) console.log(hit.what, hit.model, hit.point);
 * ```
 *
 * @module
 */
export {
  COL_FOURCC,
  convertModel,
  emptyMesh,
  emptyModel,
  surface,
  type ColBounds,
  type ColBox,
  type ColFaceGroup,
  type ColFile,
  type ColMesh,
  type ColModel,
  type ColSphere,
  type ColSurface,
  type ColVersion,
} from './model.js';
export { parseColFile, parseColModel, COL_FORMAT } from './parse.js';
export { writeColFile, writeColFileOf, writeColModel, validateColModel, ColWriteError } from './write.js';
export {
  colLayoutOf,
  colLayoutDifferences,
  overlayColModel,
  writeColFileKeepingLayout,
  writeColFileCanonical,
  canonicalColModel,
  type ColCounts,
  type ColFileLayout,
  type ColModelLayout,
  type KeptLayoutWrite,
  type LayoutDifference,
} from './layout.js';
export { convertColModel, conversionLosses, faceGroupsValid, ColConvertError, type ColLoss, type ColTargetVersion, type ConvertOptions, type ConvertedModel, type FaceGroupPolicy } from './convert.js';
export { buildColFromDescription, buildColFromJson, COL_DESCRIPTION_FORMAT, MAX_DESCRIPTION_ELEMENTS, type BuiltCol } from './describe.js';
export { buildColFromObj, type ObjBuildOptions } from './describe-obj.js';
export { MeshBuilder, computeBounds, groupFaces, withFaceGroups, solidSurface, MAX_FACES_PER_GROUP } from './build.js';
export { BROAD_PHASE_MIN_PLACEMENTS, ColScene, newGtaHit, type ColSceneOptions, type GtaHit, type GtaHitKind, type GtaPlacement } from './query.js';
export { HIT_BOX, HIT_FACE, HIT_NONE, HIT_SPHERE } from './bvh.js';
export { GtaWorld, detectGtaCol, loadGtaWorld, newGtaGroundResult, DEFAULT_BODY, DEFAULT_STEP_HEIGHT, type GtaGroundResult } from './collision-world.js';
export { parseGtaPlacements, checkGtaPlacementsSize, gtaPlacementsByteLimit, GTA_PLACEMENT_ENTRY_BYTES } from './placements.js';
