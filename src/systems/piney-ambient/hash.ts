/**
 * A compact digest of the ambient state for the scheduler's state hash: every number, flag and typed-array
 * word of the state, the statics and the view source's state, folded in a fixed order (the state's own field order, which its
 * constructors fix) into four 32-bit FNV-1a lanes.
 */
import type { AmbientState } from './ambient.js';
import type { AmbientStatics } from './statics.js';

const PRIME = 0x01000193;

class Fold {
  lanes = [0x811c9dc5, 0x050c5d1f, 0x2b6b5a6d, 0x7a3f0c11];
  n = 0;
  word(w: number): void {
    const i = this.n++ & 3;
    this.lanes[i] = Math.imul(this.lanes[i]! ^ (w >>> 0), PRIME) >>> 0;
  }
  number(x: number): void {
    if (Number.isInteger(x) && x >= -0x80000000 && x <= 0xffffffff) {
      this.word(x);
    } else {
      // Non-integers never occur in the state (floats are bit patterns); fold a marker and the value's text.
      this.word(0xdeadbeef);
      for (const c of String(x)) this.word(c.charCodeAt(0));
    }
  }
  value(v: unknown): void {
    if (v === null || v === undefined) return this.word(0xfffffffe);
    if (typeof v === 'number') return this.number(v);
    if (typeof v === 'boolean') return this.word(v ? 1 : 0);
    if (typeof v === 'string') {
      this.word(v.length);
      for (let i = 0; i < v.length; i++) this.word(v.charCodeAt(i));
      return;
    }
    if (ArrayBuffer.isView(v)) {
      const a = v as unknown as ArrayLike<number>;
      this.word(a.length);
      for (let i = 0; i < a.length; i++) this.word(a[i]!);
      return;
    }
    if (Array.isArray(v)) {
      this.word(v.length);
      for (const x of v) this.value(x);
      return;
    }
    if (typeof v === 'object') {
      for (const k of Object.keys(v as object)) this.value((v as Record<string, unknown>)[k]);
    }
  }
}

/** The four lanes over the state, the statics and (when given) the view source's saved state. */
export function hashAmbient(state: AmbientState, statics: AmbientStatics, view?: unknown): number[] {
  const f = new Fold();
  f.value(state);
  f.value(statics);
  if (view !== undefined) f.value(view);
  return f.lanes;
}
