/**
 * `retrosim/render`: the Pixi top-down renderer, for browsers (pixi.js, an optional peer dependency of the
 * package, crashes Node at load). `WorldView` draws a simulation's world, entities, sight and weather into a
 * Pixi container; the scene helpers beside it are the pure drawing data it is made from (a projection onto
 * the map plane, a camera, the ground raster, format overlays, entities, the Piney weather's operations).
 *
 * Reading for the view never changes the simulation: only inputs do.
 */
export { WorldView, MAX_SIGHT_RAYS, type ViewOptions } from './pixi/world-view.js';
export { Camera } from './scene/camera.js';
export { mapPlaneOf, mapRectOf, worldAt, type MapPlane, type MapRect } from './scene/projection.js';
export { rasterizeGround, materialTintFor, type GroundRaster, type MaterialTint, type RasterOptions } from './scene/ground-raster.js';
export { samplerFor, type GroundSample, type GroundSampler } from './scene/ground-sampler.js';
export { overlayFor, type Overlay, type Shape } from './scene/overlays.js';
export { newEntityFrame, readEntities, type EntityFrame } from './scene/entities.js';
export { ambientOpsSource, decodeAmbient, type AmbientFrame, type AmbientItem, type AmbientOpsSource } from './scene/ambient-ops.js';
