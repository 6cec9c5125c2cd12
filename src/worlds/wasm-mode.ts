/**
 * Whether a world's hot walks run in WebAssembly: the choice (`WasmMode`), and the rule `auto` follows. The
 * kernels give the same answers as the JavaScript walks bit for bit (property tests compare them), so the
 * choice changes speed only, never a hash.
 */

/**
 * How a world runs its WebAssembly kernels (the Piney field's segment cast and the Rugrats line-of-sight walk,
 * for line of sight in batches):
 * - `off`: the JavaScript walks;
 * - `on`: the kernels, or an error when this engine cannot compile them;
 * - `auto`: each kernel where it was measured faster and the engine compiles it (`wasmKernelAutoChoice`: the
 *   Piney cast on V8 and SpiderMonkey, the Rugrats walk on V8, SpiderMonkey and JavaScriptCore), else the
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
 * The rule of `auto`: the kernels run on V8 (Node, Chromium) and SpiderMonkey (Firefox) when they compile, and
 * the JavaScript walks run elsewhere. Measured on batches of line-of-sight segments over the default field
 * (docs/benchmarks.md), in one process alternating: the Piney cast took less time in WebAssembly than in
 * JavaScript on V8 and on SpiderMonkey, and more on JavaScriptCore (Bun), whose JIT runs the JavaScript walk
 * faster than V8's. An engine not measured keeps the JavaScript.
 */
export function wasmAutoChoice(compiles: boolean, engine: JsEngine = jsEngine()): boolean {
  return wasmKernelAutoChoice('piney-cast', compiles, engine);
}

/** The WebAssembly kernels, by name: the Piney field's segment cast, the Rugrats line-of-sight walk. */
export type WasmKernel = 'piney-cast' | 'rugrats-walk';

/**
 * Per kernel, the engines on which `auto` runs it: where it was measured faster than the JavaScript walk, in one
 * process alternating, on batches of line-of-sight segments (docs/benchmarks.md). The Piney cast: see
 * `wasmAutoChoice`. The Rugrats walk, on the demo level's eye-to-eye segments between agents within 20 m: less
 * time in WebAssembly on V8 (Node, Chromium), SpiderMonkey (Firefox) and JavaScriptCore (Bun).
 */
const AUTO_ENGINES: Readonly<Record<WasmKernel, readonly JsEngine[]>> = {
  'piney-cast': ['v8', 'spidermonkey'],
  'rugrats-walk': ['v8', 'spidermonkey', 'jsc'],
};

/** The rule of `auto` for one kernel: it runs when it compiles and this engine is one it was measured faster on. */
export function wasmKernelAutoChoice(kernel: WasmKernel, compiles: boolean, engine: JsEngine = jsEngine()): boolean {
  return compiles && AUTO_ENGINES[kernel].includes(engine);
}
