/**
 * `retrosim`: the runtime for Node. Everything of `retrosim/core` (src/core.ts), plus what needs the file
 * system or threads: opening worlds and scenario modules by path, the shipped assets, and line of sight on
 * worker threads. The format modules are their own entries (`retrosim/worlds/<format>`); the Pixi renderer
 * is `retrosim/render` (browsers only).
 */
export * from './core.js';
export { loadWorld, loadWorldFile, type LoadWorldFileOptions, type OpenedWorldFile } from './node/world-files.js';
export { openWorld, openBuiltinWorld, openWorldFile, type OpenedWorldSource } from './node/open-world.js';
export { loadScenarioFile, importScenarioModule, GraphMismatchError, type LoadedScenario, type LoadScenarioOptions } from './node/scenario-file.js';
export { SystemPool, MAX_SYSTEM_THREADS, MIN_IDS_PER_THREAD, SYSTEM_JOIN_TIMEOUT_MS, autoThreads, AUTO_THREADS_MAX, AUTO_THREADS_MIN_AGENTS, AUTO_THREADS_MIN_AGENT_FRAMES, type SystemPoolOptions } from './node/system-pool.js';
export { defaultPineyTables, packageRoot } from './node/assets.js';
export { loadGtaTown } from './node/gta-town.js';
export { LosPool, type MatrixAnswers, type WorldSource } from './node/los-pool.js';
/**
 * Netplay in Node: the relay (`retrosim relay` in a program), a `ws` client as a `NetplayTransport`, and this
 * runtime's identity for a session's `join` (the relay seats only clients of the room's runtime).
 */
export { startRelay, type Relay, type RelayOptions, type RelayEvent, type RelayStats } from './node/relay-server.js';
export { connectWsTransport, type WsTransportOptions } from './node/ws-transport.js';
export { nodeRuntimeIdentity } from './node/runtime-hash.js';
