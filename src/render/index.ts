/**
 * `retrosim/render`: the Pixi top-down renderer, for browsers (pixi.js, an optional peer dependency of the
 * package, crashes Node at load). `WorldView` draws a simulation's world, entities, sight and weather into a
 * Pixi container; the scene helpers beside it are the pure drawing data it is made from (a projection onto
 * the map plane, a camera, the ground raster, format overlays, entities, the Piney weather's operations), and
 * what the sandbox's inspector reads with them (the ground at a point, a tile's data, an entity, the selected
 * agent's rays, the visibility heat map, the legend).
 *
 * Reading for the view never changes the simulation: only inputs do.
 */
export { WorldView, MAX_SIGHT_RAYS, RAYS_BY_DENSITY, type ViewOptions, type ViewState } from './pixi/world-view.js';
export type { RayDensity } from './scene/view-link.js';
export { Camera, FRAME_MARGIN, OPENING_PIXELS_PER_METRE, type CloserView } from './scene/camera.js';
export { groundPalette, rampColour, GROUND_RAMP, type GroundPalette, type MaterialTint as GroundMaterialTint } from './scene/ground-palette.js';
export { mapPlaneOf, mapRectOf, worldAt, type MapPlane, type MapRect } from './scene/projection.js';
export { rasterizeGround, materialTintFor, type GroundRaster, type MaterialTint, type RasterOptions } from './scene/ground-raster.js';
export { samplerFor, probeHeight, type GroundSample, type GroundSampler } from './scene/ground-sampler.js';
export { overlayFor, type Overlay, type Shape } from './scene/overlays.js';
export { newEntityFrame, readEntities, type EntityFrame } from './scene/entities.js';
/** The selected entity's path trail (WorldView's `trail`) and who holds each seat of a room shown (`roomSeats`). */
export { PathTrail, TRAIL_POINTS } from './scene/path-trail.js';
export { seatLabels, type RoomSeats } from './scene/seat-labels.js';
export { ambientOpsSource, decodeAmbient, type AmbientFrame, type AmbientItem, type AmbientOpsSource } from './scene/ambient-ops.js';
export { probeAt, probePoint, describeAt, describeEntity, pickEntity, behaviours, type ProbeAnswer, type GroundAnswer, type TileInfo, type Highlight, type EntityInfo, type ComponentView } from './scene/inspect.js';
export { SightProbe, SIGHT_PROBE_RAYS } from './scene/sight-probe.js';
export { VisibilityHeatMap, heatCellsFor, type HeatGrid, type HeatMapOptions } from './scene/heat-map.js';
export { legendFor, type LegendEntry, type LegendContext, type LegendSymbol } from './scene/legend.js';
export { fieldAmbience, weatherKindOf, type FieldAmbience, type WeatherKind, type TimeOfDay, type Tint } from './scene/weather-look.js';
