export * from './model.js';
export { parseColFile, parseColModel, COL_FORMAT, hasFaceGroups, hasShadowMesh } from './parse.js';
export { writeColFile, writeColFileOf, writeColModel, ColWriteError, VERTEX_ARRAY_ALIGN } from './write.js';
export { ModelCollider } from './bvh.js';
export { ColScene, newGtaHit, rotationMatrix, type GtaHit, type GtaPlacement } from './query.js';
export { GtaWorld, detectGtaCol, loadGtaWorld, parseGtaPlacements, newGtaGroundResult, type GtaGroundResult } from './collision-world.js';
export { MeshBuilder, computeBounds, groupFaces, withFaceGroups, MAX_FACES_PER_GROUP, snap, solidSurface } from './build.js';
