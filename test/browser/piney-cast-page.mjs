// The page's side of the WebAssembly cast comparison (determinism.test.ts): test/engines/piney-cast-wasm.mjs's
// compareCasts over worlds made from the field tables' bytes, bundled with the runtime's sources.
import { compareCasts } from '../engines/piney-cast-wasm.mjs';
import { loadPineyWorld } from '../../src/worlds/piney/collision-world.ts';
import { loadPineyTables } from '../../src/worlds/piney/tables.ts';
import { jsEngine } from '../../src/worlds/wasm-mode.ts';

/** compareCasts on `count` segments a field, the tables given as base64; and what `auto` chooses here. */
export function run(tablesBase64, count, seed) {
  const tables = loadPineyTables(Uint8Array.from(atob(tablesBase64), (c) => c.charCodeAt(0)));
  const result = compareCasts((p, wasm) => loadPineyWorld(p, 'field', tables, undefined, wasm), count, seed);
  const auto = loadPineyWorld({ seed: 1, fieldType: 0, weather: 0, ground: 0, object: 0, event: 0, protect: false }, 'f', tables).wasmKernels;
  return { ...result, engine: jsEngine(), auto };
}
