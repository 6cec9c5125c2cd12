// The page's side of the GTA walk's WebAssembly comparison (determinism.test.ts): test/engines/gta-walk-wasm.mjs's
// compareWalks over the demo town given as bytes and text, bundled with the runtime's sources.
import { compareWalks } from '../engines/gta-walk-wasm.mjs';
import { loadGtaWorld, parseGtaPlacements } from '../../src/worlds/gta/collision-world.ts';
import { jsEngine } from '../../src/worlds/wasm-mode.ts';

/** compareWalks on `count` segments a scene, the town's .col as base64 and its placements' text; and what `auto` chooses here. */
export function run(colBase64, placementsText, count, seed) {
  const bytes = Uint8Array.from(atob(colBase64), (c) => c.charCodeAt(0));
  const result = compareWalks(bytes, placementsText, count, seed);
  const auto = loadGtaWorld(bytes, 'town', parseGtaPlacements(placementsText)).wasmKernels;
  return { ...result, engine: jsEngine(), auto };
}
