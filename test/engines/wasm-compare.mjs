// Shared by the WebAssembly kernels' engine comparisons (piney-cast-wasm.mjs, gta-walk-wasm.mjs,
// rugrats-walk-wasm.mjs, pair-walk-wasm.mjs), which run in
// Node, Bun and the browsers: a seeded generator of integer operations only, a digest of answers' bits, and the
// comparison of a world's kernel with its JavaScript walk on the same segments.

/** A seeded generator of numbers in [0, 1) from integer operations only (the same in every engine). */
export function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
 * Each world's answers to its segments through the JavaScript walk (`load(k, 'off')`) and the kernel
 * (`load(k, 'on')`, the batch given in uneven pieces so the kernel's chunks and their ends are crossed), compared
 * bit for bit: { count, hits, mismatches: [first few], digest, wasm } (wasm: the kernel ran, and only there).
 */
export function compareWorlds(worlds, load, segmentsFor, count, seed) {
  const mismatches = [];
  let hits = 0;
  const all = [];
  let wasm = true;
  for (let f = 0; f < worlds; f++) {
    const js = load(f, 'off');
    const wa = load(f, 'on');
    wasm = wasm && wa.wasmKernels && !js.wasmKernels;
    const segs = segmentsFor(js, count, seed + f);
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
  }
  return { count: count * worlds, hits, mismatches, digest: all.join(''), wasm };
}
