// The page's side of the Rugrats walk's WebAssembly comparison (determinism.test.ts): test/engines/
// rugrats-walk-wasm.mjs's compareWalks over worlds made from the levels' bytes, bundled with the runtime's sources.
import { compareWalks } from '../engines/rugrats-walk-wasm.mjs';
import { loadRugratsWorld } from '../../src/worlds/rugrats/collision-world.ts';
import { jsEngine } from '../../src/worlds/wasm-mode.ts';

/** compareWalks on `count` segments a level, the levels' bytes given as base64 by file; and what `auto` chooses here. */
export function run(levelsBase64, count, seed) {
  const bytes = (file) => Uint8Array.from(atob(levelsBase64[file]), (c) => c.charCodeAt(0));
  const result = compareWalks((file, wasm) => loadRugratsWorld(bytes(file), file, undefined, wasm), count, seed);
  const auto = loadRugratsWorld(bytes('demo.col'), 'demo').wasmKernels;
  return { ...result, engine: jsEngine(), auto };
}
