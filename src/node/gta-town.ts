/**
 * The demo town: the default GTA world of the simulation, made by scripts/make-gta-assets.ts with the
 * project's own writer (assets/worlds/gta/town.col and town.placements.json).
 */
import { join } from 'node:path';
import { GtaWorld, parseGtaPlacements } from '../worlds/gta/collision-world.js';
import { parseColFile } from '../worlds/gta/parse.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { gtaAssetsDir } from './assets.js';
import { readBounded, readBoundedText } from './bounded-read.js';

/** Loads the demo town with its placements (from `dir`, by default the shipped assets/worlds/gta). */
export function loadGtaTown(dir: string = gtaAssetsDir()): GtaWorld {
  const bytes = readBounded(join(dir, 'town.col'), DEFAULT_LIMITS.fileBytes);
  const placements = parseGtaPlacements(readBoundedText(join(dir, 'town.placements.json'), DEFAULT_LIMITS.fileBytes));
  return new GtaWorld('gta town', parseColFile(bytes), placements);
}
