/**
 * A frame's pictures as a list of operations in the game's order (sprite, smoke puff, 2D smoke mask, model,
 * sound, 3D sound, hum start, hum, flash). The list lives in one growable Uint32Array with a fixed stride
 * per operation so that a frame writes it without allocating; `toJSON` gives the plain form for traces.
 * Every float field is a u32 bit pattern (exact), every name an interned string.
 */
import type { F, M4, V4 } from './ee-vec.js';

export const OP_SPRITE = 1;
export const OP_SMOKE = 2;
export const OP_MASK = 3;
export const OP_MODEL = 4;
export const OP_SOUND = 5;
export const OP_SOUND3D = 6;
export const OP_HUM_START = 7;
export const OP_HUM = 8;
export const OP_FLASH = 9;

export const OP_KIND_NAMES = ['', 'sprite', 'smoke', 'mask', 'model', 'sound', 'sound3d', 'humStart', 'hum', 'flash'] as const;
export type OpKindName = Exclude<(typeof OP_KIND_NAMES)[number], ''>;

/** The layers WORLD_MAN::SetActiveLayer names. */
export const LAYER_SYS = 0;
export const LAYER_EFFECT = 3;
export const LAYER_CHAR = 5;
export const LAYER_REFLECT = 6;

/** Which model a model operation draws. */
export const MODEL_BIRD = 0;
export const MODEL_TOBJ = 1;
export const MODEL_TOBJ_RUNNER_0 = 2;
export const MODEL_TOBJ_RUNNER_1 = 3;
export const MODEL_HAZE = 4;
export const MODEL_NAMES = ['bird', 'tobj', 'tobj-runner-0', 'tobj-runner-1', 'haze'] as const;

/** Words per operation in an OpList. */
export const OP_STRIDE = 28;
const STRIDE = OP_STRIDE;

/** Interned names (sprite, file and animation names); ids are internal, JSON carries the strings. */
const NAMES: string[] = [''];
const NAME_IDS = new Map<string, number>([['', 0]]);

export function nameId(name: string): number {
  let id = NAME_IDS.get(name);
  if (id === undefined) {
    id = NAMES.length;
    NAMES.push(name);
    NAME_IDS.set(name, id);
  }
  return id;
}

export function nameOf(id: number): string {
  return NAMES[id] ?? '';
}

export interface SpriteOp {
  op: 'sprite';
  layer: number;
  file: string;
  name: string;
  pos: number[];
  pattern: number;
  scale: number[];
  rotate: number;
  transparency: number;
  fog: boolean;
  ztest: boolean;
}
export interface SmokeOp {
  op: 'smoke';
  pos: number[];
  v: number[];
  s: number;
  life: number;
  t: number;
  fadeIn: number;
  fadeOut: number;
}
export interface MaskOp {
  op: 'mask';
  layer: number;
  alpha: number;
  x: number;
  y: number;
}
export interface ModelOp {
  op: 'model';
  layer: number;
  what: string;
  file: string;
  name: string;
  matrix: number[];
  alpha: number;
  shadow: { length: number; alpha: number } | null;
}
export interface SoundOp {
  op: 'sound';
  se: number;
}
export interface Sound3dOp {
  op: 'sound3d';
  se: number;
  pos: number[];
}
export interface HumStartOp {
  op: 'humStart';
  se: number;
}
export interface HumOp {
  op: 'hum';
  pos: number[];
  rate: number;
}
export interface FlashOp {
  op: 'flash';
  frames: number;
  colour: number;
  rect: number[];
}
export type Op = SpriteOp | SmokeOp | MaskOp | ModelOp | SoundOp | Sound3dOp | HumStartOp | HumOp | FlashOp;

/** The sound TOBJ's hum plays (seData[44]). */
export const HUM_SE = 44;

export class OpList {
  words: Uint32Array;
  length = 0;

  constructor(capacity = 64) {
    this.words = new Uint32Array(Math.max(1, capacity) * STRIDE);
  }

  clear(): void {
    this.length = 0;
  }

  /** Makes room for one more operation of `kind`; returns its base index. */
  private slot(kind: number, used: number): number {
    const base = this.length * STRIDE;
    if (base + STRIDE > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    const o = this.words;
    // Words past those the kind writes are zeroed, so equal operations are equal word for word.
    for (let i = base + used; i < base + STRIDE; i++) o[i] = 0;
    o[base] = kind;
    this.length++;
    return base;
  }

  kind(i: number): number {
    return this.words[i * STRIDE]!;
  }

  sprite(layer: number, file: number, name: number, x: F, y: F, z: F, w: F, pattern: number, sx: F, sy: F, transparency: F, fog: boolean, ztest: boolean): void {
    const b = this.slot(OP_SPRITE, 15);
    const o = this.words;
    o[b + 1] = layer;
    o[b + 2] = file;
    o[b + 3] = name;
    o[b + 4] = x;
    o[b + 5] = y;
    o[b + 6] = z;
    o[b + 7] = w;
    o[b + 8] = pattern;
    o[b + 9] = sx;
    o[b + 10] = sy;
    o[b + 11] = 0;
    o[b + 12] = transparency;
    o[b + 13] = fog ? 1 : 0;
    o[b + 14] = ztest ? 1 : 0;
  }

  /**
   * n sprites at once, sharing layer, file, pattern 0, scale, transparency and flags: sprite i is named
   * names[i] and stands at pos[4i..4i+3]. The same words as n calls of `sprite`.
   */
  spriteRun(layer: number, file: number, names: Uint32Array, pos: Uint32Array, n: number, scale: F, transparency: F, fog: boolean, ztest: boolean): void {
    const need = (this.length + n) * STRIDE;
    if (need > this.words.length) {
      let size = this.words.length;
      while (size < need) size *= 2;
      const grown = new Uint32Array(size);
      grown.set(this.words.subarray(0, this.length * STRIDE));
      this.words = grown;
    }
    const o = this.words;
    let b = this.length * STRIDE;
    const f = fog ? 1 : 0;
    const z = ztest ? 1 : 0;
    for (let i = 0; i < n; i++, b += STRIDE) {
      const p = i * 4;
      o[b] = OP_SPRITE;
      o[b + 1] = layer;
      o[b + 2] = file;
      o[b + 3] = names[i]!;
      o[b + 4] = pos[p]!;
      o[b + 5] = pos[p + 1]!;
      o[b + 6] = pos[p + 2]!;
      o[b + 7] = pos[p + 3]!;
      o[b + 8] = 0;
      o[b + 9] = scale;
      o[b + 10] = scale;
      o[b + 11] = 0;
      o[b + 12] = transparency;
      o[b + 13] = f;
      o[b + 14] = z;
      for (let j = b + 15; j < b + STRIDE; j++) o[j] = 0;
    }
    this.length += n;
  }

  smoke(pos: V4, v: V4, s: F, life: number, t: number, fadeIn: number, fadeOut: number): void {
    const b = this.slot(OP_SMOKE, 0);
    const o = this.words;
    for (let k = 0; k < 4; k++) {
      o[b + 4 + k] = pos[k]!;
      o[b + 8 + k] = v[k]!;
    }
    o[b + 12] = s;
    o[b + 13] = life >>> 0;
    o[b + 14] = t >>> 0;
    o[b + 15] = fadeIn;
    o[b + 16] = fadeOut;
  }

  mask(layer: number, alpha: F, x: F, y: F): void {
    const b = this.slot(OP_MASK, 0);
    const o = this.words;
    o[b + 1] = layer;
    o[b + 4] = x;
    o[b + 5] = y;
    o[b + 12] = alpha;
  }

  model(layer: number, what: number, file: number, name: number, m: M4, alpha: F, shadow: { length: F; alpha: number } | null): void {
    const b = this.slot(OP_MODEL, 0);
    const o = this.words;
    o[b + 1] = layer;
    o[b + 2] = what;
    o[b + 3] = name;
    for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) o[b + 4 + c * 4 + k] = m[c][k]!;
    o[b + 20] = alpha;
    o[b + 21] = shadow ? 1 : 0;
    o[b + 22] = shadow ? shadow.length : 0;
    o[b + 23] = shadow ? shadow.alpha : 0;
    o[b + 24] = file;
  }

  sound(se: number): void {
    const b = this.slot(OP_SOUND, 0);
    this.words[b + 2] = se;
  }

  sound3d(se: number, pos: V4): void {
    const b = this.slot(OP_SOUND3D, 0);
    const o = this.words;
    o[b + 2] = se;
    for (let k = 0; k < 4; k++) o[b + 4 + k] = pos[k]!;
  }

  humStart(): void {
    const b = this.slot(OP_HUM_START, 0);
    this.words[b + 2] = HUM_SE;
  }

  hum(pos: V4, rate: F): void {
    const b = this.slot(OP_HUM, 0);
    const o = this.words;
    for (let k = 0; k < 4; k++) o[b + 4 + k] = pos[k]!;
    o[b + 12] = rate;
  }

  flash(frames: number, colour: number, x: F, y: F, w: F, h: F): void {
    const b = this.slot(OP_FLASH, 0);
    const o = this.words;
    o[b + 2] = frames;
    o[b + 3] = colour >>> 0;
    o[b + 4] = x;
    o[b + 5] = y;
    o[b + 6] = w;
    o[b + 7] = h;
  }

  /** Replaces this list's contents with `other`'s. */
  copyFrom(other: OpList): void {
    if (this.words.length < other.words.length) this.words = new Uint32Array(other.words.length);
    this.words.set(other.words.subarray(0, other.length * STRIDE));
    this.length = other.length;
  }

  /** Appends `other`'s operations. */
  append(other: OpList): void {
    const need = (this.length + other.length) * STRIDE;
    if (need > this.words.length) {
      let n = this.words.length;
      while (n < need) n *= 2;
      const grown = new Uint32Array(n);
      grown.set(this.words.subarray(0, this.length * STRIDE));
      this.words = grown;
    }
    this.words.set(other.words.subarray(0, other.length * STRIDE), this.length * STRIDE);
    this.length += other.length;
  }

  /** Counts of each kind, by name. */
  counts(into: Record<string, number> = {}): Record<string, number> {
    for (let i = 0; i < this.length; i++) {
      const n = OP_KIND_NAMES[this.kind(i)]!;
      into[n] = (into[n] ?? 0) + 1;
    }
    return into;
  }

  /** Whether two lists hold the same operations word for word. */
  equals(other: OpList): boolean {
    if (this.length !== other.length) return false;
    const n = this.length * STRIDE;
    for (let i = 0; i < n; i++) if (this.words[i] !== other.words[i]) return false;
    return true;
  }

  /** A 32-bit FNV-1a fold of the list, for state hashes. */
  digest(): number {
    let h = 0x811c9dc5;
    const n = this.length * STRIDE;
    for (let i = 0; i < n; i++) {
      h = Math.imul(h ^ this.words[i]!, 0x01000193) >>> 0;
    }
    return h;
  }

  /** The plain form of operation i. */
  toJSON(i: number): Op {
    const o = this.words;
    const b = i * STRIDE;
    const vec = (at: number, n = 4): number[] => Array.from(o.subarray(b + at, b + at + n));
    switch (o[b]) {
      case OP_SPRITE:
        return {
          op: 'sprite',
          layer: o[b + 1]!,
          file: nameOf(o[b + 2]!),
          name: nameOf(o[b + 3]!),
          pos: vec(4),
          pattern: o[b + 8]!,
          scale: [o[b + 9]!, o[b + 10]!],
          rotate: o[b + 11]!,
          transparency: o[b + 12]!,
          fog: o[b + 13] === 1,
          ztest: o[b + 14] === 1,
        };
      case OP_SMOKE:
        return { op: 'smoke', pos: vec(4), v: vec(8), s: o[b + 12]!, life: o[b + 13]! | 0, t: o[b + 14]! | 0, fadeIn: o[b + 15]!, fadeOut: o[b + 16]! };
      case OP_MASK:
        return { op: 'mask', layer: o[b + 1]!, alpha: o[b + 12]!, x: o[b + 4]!, y: o[b + 5]! };
      case OP_MODEL:
        return {
          op: 'model',
          layer: o[b + 1]!,
          what: MODEL_NAMES[o[b + 2]!] ?? 'unknown',
          file: nameOf(o[b + 24]!),
          name: nameOf(o[b + 3]!),
          matrix: vec(4, 16),
          alpha: o[b + 20]!,
          shadow: o[b + 21] === 1 ? { length: o[b + 22]!, alpha: o[b + 23]! } : null,
        };
      case OP_SOUND:
        return { op: 'sound', se: o[b + 2]! };
      case OP_SOUND3D:
        return { op: 'sound3d', se: o[b + 2]!, pos: vec(4) };
      case OP_HUM_START:
        return { op: 'humStart', se: o[b + 2]! };
      case OP_HUM:
        return { op: 'hum', pos: vec(4), rate: o[b + 12]! };
      case OP_FLASH:
        return { op: 'flash', frames: o[b + 2]!, colour: o[b + 3]!, rect: vec(4) };
      default:
        throw new RangeError(`operation ${i} has no kind`);
    }
  }

  toArray(): Op[] {
    const out: Op[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.toJSON(i));
    return out;
  }
}
