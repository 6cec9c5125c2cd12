/**
 * Compiling a WebAssembly kernel carried in a module of the package as base64 (see scripts/wasm-kernels.mjs):
 * once per process, lazily, remembering why an engine could not; and running a batch of segments through a
 * kernel in chunks.
 */
import { checkSegmentBatch } from './world.js';

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

/** A kernel compiled on first use: `module()` is the compiled kernel or null, `error()` why it did not compile. */
export interface LazyWasmModule {
  /** The compiled kernel, or null when this engine cannot compile it (compiled on the first call only). */
  module(): WebAssembly.Module | null;
  /** Why the kernel did not compile ('' when it did or was not tried). */
  error(): string;
}

/** The kernel whose bytes are `base64`, compiled the first time it is asked for. */
export function lazyWasmModule(base64: string): LazyWasmModule {
  // undefined: not tried yet; null: this engine cannot compile it (the reason in why).
  let compiled: WebAssembly.Module | null | undefined;
  let why = '';
  return {
    module(): WebAssembly.Module | null {
      if (compiled === undefined) {
        try {
          if (typeof WebAssembly !== 'object') throw new Error('this engine has no WebAssembly');
          compiled = new WebAssembly.Module(decodeBase64(base64));
        } catch (e) {
          compiled = null;
          why = e instanceof Error ? e.message : String(e);
        }
      }
      return compiled;
    },
    error: () => why,
  };
}

/**
 * A batch through a kernel in chunks: segments `[start, end)` of `segments` (6 doubles each) are copied into the
 * kernel's `segmentView` (room for `outView.length` segments) a chunk at a time, `walk(m)` answers the chunk's
 * `m` segments into `outView`, and the answers are copied into `out` at the segments' own places. The batch is
 * checked first (`checkSegmentBatch`).
 */
export function walkInChunks(segments: Float64Array, start: number, end: number, out: Float64Array, segmentView: Float64Array, outView: Float64Array, walk: (m: number) => void): void {
  checkSegmentBatch(segments, start, end, out.length);
  const chunk = outView.length;
  for (let s = start; s < end; s += chunk) {
    const m = Math.min(chunk, end - s);
    segmentView.set(segments.subarray(s * 6, (s + m) * 6));
    walk(m);
    out.set(m === chunk ? outView : outView.subarray(0, m), s);
  }
}
