// The page's side of the pair walk's WebAssembly comparison (determinism.test.ts): test/engines/pair-walk-wasm.mjs's
// comparePairWalks with the runtime's own grid and kernel, bundled with the runtime's sources.
import { comparePairWalks } from '../engines/pair-walk-wasm.mjs';
import { AgentPairGrid } from '../../src/systems/los/agent-pairs.ts';
import { pairWalkWasmModule } from '../../src/systems/los/pair-walk-wasm.ts';
import { jsEngine } from '../../src/worlds/wasm-mode.ts';

/** comparePairWalks over `crowds` seeded crowds; and the engine this page runs on. */
export function run(crowds, seed) {
  return { ...comparePairWalks(AgentPairGrid, pairWalkWasmModule(), crowds, seed), engine: jsEngine() };
}
