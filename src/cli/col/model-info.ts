/**
 * What `col info` and `col build --json` print of a GTA collision model: its counts, flags and bounds.
 */
import type { ColModel } from '../../worlds/gta/model.js';

/** The `info` JSON of one model. */
export function modelInfo(m: ColModel) {
  return {
    version: m.version,
    name: m.name,
    modelId: m.modelId,
    flags: m.flags,
    spheres: m.spheres.length,
    boxes: m.boxes.length,
    faces: m.mesh.faceCount,
    vertices: m.mesh.vertexCount,
    faceGroups: m.faceGroups ? m.faceGroups.length : 0,
    shadowFaces: m.shadow ? m.shadow.faceCount : 0,
    shadowVertices: m.shadow ? m.shadow.vertexCount : 0,
    bounds: { min: m.bounds.min, max: m.bounds.max, center: m.bounds.center, radius: m.bounds.radius },
  };
}
