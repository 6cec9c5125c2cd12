/**
 * The demo town: the default GTA world of the simulation, made by scripts/make-gta-assets.ts with the
 * project's own writer (assets/worlds/gta/town.col and town.placements.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GtaWorld, parseGtaPlacements } from '../worlds/gta/collision-world.js';
import { parseColFile } from '../worlds/gta/parse.js';
import { gtaAssetsDir } from './assets.js';

/** Loads the demo town with its placements (from `dir`, by default the shipped assets/worlds/gta). */
export function loadGtaTown(dir: string = gtaAssetsDir()): GtaWorld {
  const bytes = new Uint8Array(readFileSync(join(dir, 'town.col')));
  const placements = parseGtaPlacements(readFileSync(join(dir, 'town.placements.json'), 'utf8'));
  return new GtaWorld('gta town', parseColFile(bytes), placements);
}
