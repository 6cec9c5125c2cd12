/**
 * FRACTAL2 (fractal.cpp): a hill of size × size cells from a 5 × 5 grid of random keys, interpolated with
 * natural cubic splines along the rows, then along the columns of the rows' results. Every operation is an
 * EE single-precision operation on bit patterns, in the game's order (reference 2.5): the madd/msub of the
 * original are a truncated product followed by a truncated add/sub, which is what eeMul + eeAdd give.
 */
import type { FieldRand } from '../../rng/fieldrand.js';
import { eeAdd, eeCompareLt, eeDiv, eeFromInt, eeMul, eeSub } from '../../numeric/ee-float.js';
import { F } from './field-state.js';

/** Keys per spline. */
export const FRACTAL_KEYS = 5;
/** Key draws: fieldrand(128) on the rim of the 5 × 5 grid, fieldrand(768) inside. */
export const RIM_RANGE = 128;
export const INNER_RANGE = 768;

/**
 * One natural spline through 5 keys spread over `size` frames (NSPLINE in the game). Holds its coefficients
 * in typed arrays so a hill's ~size² steps allocate nothing.
 */
export class NaturalSpline {
  readonly frame = new Int32Array(FRACTAL_KEYS);
  readonly span = new Uint32Array(FRACTAL_KEYS);
  readonly a = new Uint32Array(FRACTAL_KEYS);
  readonly b = new Uint32Array(FRACTAL_KEYS);
  readonly c = new Uint32Array(FRACTAL_KEYS);
  readonly d = new Uint32Array(FRACTAL_KEYS);
  private readonly v = new Uint32Array(FRACTAL_KEYS + 2);
  nowFrame = 0;
  nowKey = 0;

  /** InitNaturalSpline: keys are EE floats; resets the frame and key. */
  init(keys: ArrayLike<number>, size: number): void {
    this.nowFrame = 0;
    this.nowKey = 0;
    const step = Math.trunc(size / 4);
    const { frame, span, v } = this;
    for (let i = 0; i < 4; i++) frame[i] = step * i;
    frame[4] = size;
    for (let i = 0; i < 4; i++) span[i] = eeFromInt(frame[i + 1]! - frame[i]!);
    // The last key's span is a constant 10 in the game.
    span[4] = F.TEN;
    for (let i = 0; i < FRACTAL_KEYS; i++) v[i] = keys[i]!;
    v[5] = v[4]!;
    v[6] = v[4]!;
    for (let i = 0; i < FRACTAL_KEYS; i++) {
      const f4 = v[i]!;
      const f5 = v[i + 1]!;
      let f2: number;
      if (i === 0) f2 = eeSub(f5, f4);
      else {
        const t1 = eeMul(span[i]!, eeSub(f4, v[i - 1]!));
        const t2 = eeAdd(t1, eeMul(span[i - 1]!, eeSub(f5, f4)));
        f2 = eeDiv(t2, eeAdd(span[i - 1]!, span[i]!));
      }
      let f3: number;
      if (i === 4) f3 = eeSub(v[6]!, f5);
      else {
        const t1 = eeMul(span[i]!, eeSub(v[i + 2]!, f5));
        const t2 = eeAdd(t1, eeMul(span[i + 1]!, eeSub(f5, f4)));
        f3 = eeDiv(t2, eeAdd(span[i]!, span[i + 1]!));
      }
      const f0 = eeSub(eeMul(F.TWO, f4), eeMul(F.TWO, f5));
      this.a[i] = eeAdd(f3, eeAdd(f2, f0));
      this.b[i] = eeSub(eeSub(eeAdd(eeMul(F.MINUS_THREE, f4), eeMul(F.THREE, f5)), eeMul(F.TWO, f2)), f3);
      this.c[i] = f2;
      this.d[i] = f4;
    }
  }

  /** Advance: moves to the next key (at most one per call) once the frame reaches the key's end. */
  advance(): void {
    const k = this.nowKey;
    if (!eeCompareLt(eeFromInt(this.nowFrame), eeAdd(eeFromInt(this.frame[k]!), this.span[k]!))) this.nowKey = k + 1;
  }

  /** Step: the next frame's value. */
  step(): number {
    this.nowFrame += 1;
    this.advance();
    const k = this.nowKey;
    const t = eeDiv(eeFromInt(this.nowFrame - this.frame[k]!), this.span[k]!);
    const t2 = eeMul(t, t);
    const t3 = eeMul(t2, t);
    const acc = eeAdd(eeMul(t3, this.a[k]!), eeMul(t2, this.b[k]!));
    return eeAdd(this.d[k]!, eeAdd(acc, eeMul(t, this.c[k]!)));
  }
}

/** Scratch reused across hills (the generator is single-threaded). */
const spline = new NaturalSpline();
const keys = new Uint32Array(FRACTAL_KEYS);

/**
 * FRACTAL2::Generate: 25 key draws (row by row, each row's keys right before the row is evaluated), then the
 * columns. Returns hill[col · size + s], negative values clamped to +0. `out` is reused when large enough.
 */
export function fractal2(rng: FieldRand, size: number, out?: Uint32Array): Uint32Array {
  const hill = out && out.length >= size * size ? out : new Uint32Array(size * size);
  const rows = new Uint32Array(FRACTAL_KEYS * size);
  for (let r = 0; r < FRACTAL_KEYS; r++) {
    for (let k = 0; k < FRACTAL_KEYS; k++) {
      const rim = k === 0 || k === 4 || r === 0 || r === 4;
      keys[k] = eeFromInt(rng.rand(rim ? RIM_RANGE : INNER_RANGE));
    }
    spline.init(keys, size);
    for (let s = 0; s < size; s++) rows[r * size + s] = spline.step();
  }
  for (let col = 0; col < size; col++) {
    for (let r = 0; r < FRACTAL_KEYS; r++) keys[r] = rows[r * size + col]!;
    spline.init(keys, size);
    // The column pass calls Advance once before stepping (the row pass does not).
    spline.advance();
    for (let s = 0; s < size; s++) {
      const h = spline.step();
      hill[col * size + s] = eeCompareLt(h, F.ZERO) ? F.ZERO : h;
    }
  }
  return hill;
}
