// The comparison the WebAssembly kernels' engine and page tests share (piney-cast-wasm.mjs, rugrats-walk-wasm.mjs):
// a JavaScript world and a WebAssembly one answer the same segments through `segmentFractions`, the kernel in
// uneven pieces (so the chunks of its batch and their ends are crossed); every answer must have the same bits.

/** FNV-1a 32 × 2 of the answers' bits. */
export function digest(answers) {
  const u = new Uint32Array(answers.buffer, answers.byteOffset, answers.length * 2);
  let a = 0x811c9dc5, b = 0x5bd1e995;
  for (let i = 0; i < u.length; i++) {
    a = Math.imul(a ^ u[i], 0x01000193) >>> 0;
    b = Math.imul(b ^ (u[i] >>> 7), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * `cases`: per world `{ js, wa, segs }` (the world with `wasm: 'off'`, the same with `'on'`, `count` segments).
 * Returns `{ count, hits, mismatches: [first few], digest, wasm }`: `wasm` says the kernel ran in `wa` and not
 * in `js`.
 */
export function compareWorlds(cases, count) {
  const mismatches = [];
  let hits = 0;
  const all = [];
  let wasm = true;
  cases.forEach(({ js, wa, segs }, f) => {
    wasm = wasm && wa.wasmKernels && !js.wasmKernels;
    const a = new Float64Array(count), b = new Float64Array(count);
    js.segmentFractions(segs, 0, count, a);
    for (let s = 0; s < count; ) {
      const e = Math.min(count, s + 1 + ((s * 7919) % 5000));
      wa.segmentFractions(segs, s, e, b);
      s = e;
    }
    const ua = new Uint32Array(a.buffer), ub = new Uint32Array(b.buffer);
    for (let i = 0; i < count; i++) {
      if (a[i] >= 0) hits++;
      if (ua[2 * i] !== ub[2 * i] || ua[2 * i + 1] !== ub[2 * i + 1]) {
        if (mismatches.length < 5) mismatches.push({ world: f, segment: Array.from(segs.subarray(i * 6, i * 6 + 6)).map(String), js: String(a[i]), wasm: String(b[i]) });
      }
    }
    all.push(digest(a));
  });
  return { count: count * cases.length, hits, mismatches, digest: all.join(''), wasm };
}

/** A seeded generator of doubles in [0, 1), integer operations only (the same numbers in every engine). */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
