/**
 * The demo town: the default GTA world of the simulation, made by scripts/make-gta-assets.ts with the
 * project's own writer (assets/worlds/gta/town.col and town.placements.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GtaWorld, parseGtaPlacements } from './collision-world.js';
import { parseColFile } from './parse.js';

/** assets/worlds/gta of the repository this module belongs to (found upward from here, from src/ or dist/src/). */
export function gtaAssetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets', 'worlds', 'gta'))) return join(dir, 'assets', 'worlds', 'gta');
    const up = dirname(dir);
    if (up === dir) throw new Error('assets/worlds/gta not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** Loads the demo town with its placements. */
export function loadGtaTown(dir: string = gtaAssetsDir()): GtaWorld {
  const bytes = new Uint8Array(readFileSync(join(dir, 'town.col')));
  const placements = parseGtaPlacements(readFileSync(join(dir, 'town.placements.json'), 'utf8'));
  return new GtaWorld('gta town', parseColFile(bytes), placements);
}
