/**
 * `retrosim/worlds/export`: any world's collision geometry as triangles for Blender and other tools: glTF 2.0
 * (`.gltf` with the buffer embedded, or `.glb`) and Wavefront OBJ with its MTL. Right-handed, +Y up, native
 * units divided by the world's scale to metres; one part per natural piece of the format (floors, ceilings,
 * walls, spheres, boxes, meshes, hidden shadow meshes, terrain, objects), named materials with stable colours,
 * and the id the world's own queries report as the vertex attribute `_FLOOR_ID` (a comment in OBJ). An
 * export is counted before it is built and refused past `maxTriangles` (DEFAULT_MAX_EXPORT_TRIANGLES).
 *
 * @example
 * ```ts
 * import { exportScene, writeGlb } from 'retrosim/worlds/export';
 * const glb = writeGlb(exportScene(world));
 * ```
 *
 * @module
 */
export { DEFAULT_MAX_EXPORT_TRIANGLES, exportScene, exportTriangleCount, SPHERE_RINGS, SPHERE_SEGMENTS, SPHERE_TRIANGLES, type ExportOptions } from './worlds.js';
export { writeGltf, writeGlb } from './gltf.js';
export { writeObj } from './obj.js';
export { stableColour, type ExportMaterial, type ExportPart, type ExportScene } from './scene.js';
