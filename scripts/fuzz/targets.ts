/**
 * The fuzz targets: every parser of the project, each with its corpus (the project's synthetic files and,
 * for GTA, the real fixtures when they are present) and, for worlds, queries at hostile positions.
 */
import type { FuzzTarget } from './engine.js';

export const TARGETS: Record<string, () => Promise<FuzzTarget>> = {};

export async function loadTarget(name: string): Promise<FuzzTarget> {
  const make = TARGETS[name];
  if (!make) throw new Error(`unknown fuzz target ${JSON.stringify(name)} (known: ${Object.keys(TARGETS).join(', ')})`);
  return make();
}
