/**
 * Whether a world's hot walks run in WebAssembly: the choice (`WasmMode`), and the rule `auto` follows. The
 * kernels give the same answers as the JavaScript walks bit for bit (property tests compare them), so the
 * choice changes speed only, never a hash.
 */

/**
 * How a world runs its WebAssembly kernels (the Piney field's segment cast, the GTA scene's segment walk and the
 * Rugrats line-of-sight walk, for line of sight in batches; line of sight's pair walk over its agents):
 * - `off`: the JavaScript walks;
 * - `on`: the kernels, or an error when this engine cannot compile them;
 * - `auto`: each kernel where it was measured faster and the engine compiles it (`wasmAutoChoiceFor`: the
 *   Piney cast on V8 and SpiderMonkey, the others on V8, SpiderMonkey and JavaScriptCore), else the
 *   JavaScript walks.
 */
export type WasmMode = 'off' | 'on' | 'auto';

/** The modes, for parsers. */
export const WASM_MODES: readonly WasmMode[] = ['off', 'on', 'auto'];

/** Throws a RangeError naming `where` unless `mode` is a WasmMode. */
export function checkWasmMode(mode: unknown, where: string): WasmMode {
  if (mode === 'off' || mode === 'on' || mode === 'auto') return mode;
  throw new RangeError(`${where}: wasm mode must be one of off, on, auto (got ${typeof mode === 'string' ? JSON.stringify(mode) : typeof mode})`);
}

/** The JavaScript engines `auto` tells apart: V8 (Node, Chromium), SpiderMonkey (Firefox), JavaScriptCore (Bun, Safari), others. */
export type JsEngine = 'v8' | 'spidermonkey' | 'jsc' | 'other';

/**
 * The engine this code runs on, from what each engine's hosts say of themselves: Bun's `process.versions.bun`
 * (JavaScriptCore, though it also names a V8 version), Node's `process.versions.v8`, a browser's user agent
 * ("Chrome/" or "Chromium/", headless too; "Firefox/" is SpiderMonkey; "Safari/" without them is JavaScriptCore).
 */
export function jsEngine(): JsEngine {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; navigator?: { userAgent?: string } };
  return jsEngineOf(g.process?.versions, typeof g.navigator?.userAgent === 'string' ? g.navigator.userAgent : '');
}

/** `jsEngine` from a host's `process.versions` (if any) and its user agent ('' if none). */
export function jsEngineOf(versions: Readonly<Record<string, string | undefined>> | undefined, userAgent: string): JsEngine {
  if (versions?.['bun'] !== undefined) return 'jsc';
  if (versions?.['v8'] !== undefined) return 'v8';
  // "Chrome/" also inside "HeadlessChrome/"; Firefox's agent never names Chrome.
  if (/Chrom(e|ium)\//.test(userAgent)) return 'v8';
  if (/\bFirefox\//.test(userAgent)) return 'spidermonkey';
  if (/\bSafari\//.test(userAgent)) return 'jsc';
  return 'other';
}

/**
 * The rule of `auto` for the Piney field's segment cast (`wasmAutoChoiceFor('piney-cast')`): on V8 (Node,
 * Chromium) and SpiderMonkey (Firefox) when it compiles.
 */
export function wasmAutoChoice(compiles: boolean, engine: JsEngine = jsEngine()): boolean {
  return wasmAutoChoiceFor('piney-cast', compiles, engine);
}

/**
 * The WebAssembly kernels, by name: the Piney field's segment cast, the GTA scene's segment walk, the Rugrats
 * line-of-sight walk, and line of sight's pair walk.
 */
export type WasmKernel = 'piney-cast' | 'gta-walk' | 'rugrats-walk' | 'pair-walk';

/**
 * Per kernel, the engines on which `auto` runs it: where it was measured faster than its JavaScript walk, in one
 * process alternating (docs/benchmarks.md, docs/systems.md). An engine not listed keeps the JavaScript.
 * - `piney-cast`, on batches of line-of-sight segments over the default field: less time on V8 and
 *   SpiderMonkey; more on JavaScriptCore (Bun), whose JIT runs the JavaScript walk faster than V8's.
 * - `gta-walk`, on the demo town's segments between agents within 20 m: less time on all three.
 * - `rugrats-walk`, on the demo level's eye-to-eye segments between agents within 20 m: less time on all three.
 * - `pair-walk`, on 10,000 agents scattered as the matrix's: less time on all three.
 */
const AUTO_ENGINES: Readonly<Record<WasmKernel, readonly JsEngine[]>> = {
  'piney-cast': ['v8', 'spidermonkey'],
  'gta-walk': ['v8', 'spidermonkey', 'jsc'],
  'rugrats-walk': ['v8', 'spidermonkey', 'jsc'],
  'pair-walk': ['v8', 'spidermonkey', 'jsc'],
};

/** The rule of `auto` for one kernel: it runs when it compiles and this engine is one it was measured faster on. */
export function wasmAutoChoiceFor(kernel: WasmKernel, compiles: boolean, engine: JsEngine = jsEngine()): boolean {
  return compiles && AUTO_ENGINES[kernel].includes(engine);
}
