/**
 * Synthesises the sandbox's sound effects as WAV files (assets/sounds/): thunder, steam, the traveller's hum
 * (a seamless loop) and a footstep. Nothing is downloaded or sampled: each sound is built from a seeded noise
 * generator and oscillators, with arithmetic limited to + - * / and integer operations (a polynomial sine and
 * exponential, no Math.sin or Math.exp), so the files come out byte for byte the same on every machine.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/make-sounds.js [--check]
 *
 * With --check nothing is written: the exit status says whether the files on disk match.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAMPLE_RATE = 22050;

const TWO_PI = 6.283185307179586;
const PI = 3.141592653589793;

/** sin(x) by range reduction to [−π, π] and an odd polynomial (error below 1e-6; exact IEEE steps only). */
export function polySin(x: number): number {
  let r = x - TWO_PI * Math.floor(x / TWO_PI + 0.5);
  // Fold to [−π/2, π/2] where the polynomial is accurate.
  if (r > PI / 2) r = PI - r;
  else if (r < -PI / 2) r = -PI - r;
  const r2 = r * r;
  return r * (1 + r2 * (-1 / 6 + r2 * (1 / 120 + r2 * (-1 / 5040 + r2 * (1 / 362880 + r2 * (-1 / 39916800))))));
}

/** exp(x) by halving to |x| ≤ 0.5, a Taylor polynomial and squaring back (exact IEEE steps only). */
export function polyExp(x: number): number {
  if (!(x > -700)) return 0;
  let k = 0;
  while (Math.abs(x) > 0.5) {
    x /= 2;
    k++;
  }
  // Taylor to x^12: the remainder is below 2e-14 for |x| ≤ 0.5.
  let r = 1;
  for (let n = 12; n >= 1; n--) r = 1 + (x * r) / n;
  while (k-- > 0) r *= r;
  return r;
}

/** xorshift32 noise in [−1, 1): deterministic from its seed. */
export class Noise {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let s = this.s;
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    this.s = s >>> 0;
    return this.s / 2147483648 - 1;
  }
}

/** One-pole low-pass: `a` in (0, 1], smaller is darker. */
function lowPass(x: Float64Array, a: number): Float64Array {
  const y = new Float64Array(x.length);
  let v = 0;
  for (let i = 0; i < x.length; i++) {
    v += a * (x[i]! - v);
    y[i] = v;
  }
  return y;
}

function normalise(x: Float64Array, peak: number): Float64Array {
  let m = 0;
  for (const v of x) if (Math.abs(v) > m) m = Math.abs(v);
  if (m > 0) for (let i = 0; i < x.length; i++) x[i] = (x[i]! / m) * peak;
  return x;
}

/** Short fades at both ends so nothing clicks. */
function fadeEnds(x: Float64Array, samples: number): Float64Array {
  const n = Math.min(samples, x.length >> 1);
  for (let i = 0; i < n; i++) {
    const g = i / n;
    x[i]! *= g;
    x[x.length - 1 - i]! *= g;
  }
  return x;
}

export function thunder(): Float64Array {
  const n = Math.round(SAMPLE_RATE * 3.5);
  const noise = new Noise(236);
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = noise.next();
  const rumble = lowPass(lowPass(raw, 0.02), 0.05);
  const crack = lowPass(raw, 0.35);
  const out = new Float64Array(n);
  // Rolls: secondary peaks at fixed times, each decaying.
  const rolls = [0, 0.45, 0.9, 1.6];
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    let env = 0;
    for (const r of rolls) if (t >= r) env += (r === 0 ? 1 : 0.6) * polyExp(-(t - r) * 1.6);
    const crackEnv = t < 0.25 ? (1 - t / 0.25) * (1 - t / 0.25) : 0;
    out[i] = rumble[i]! * env * 6 + crack[i]! * crackEnv * 0.9;
  }
  return fadeEnds(normalise(out, 0.9), 64);
}

export function steam(): Float64Array {
  const n = Math.round(SAMPLE_RATE * 1.4);
  const noise = new Noise(43);
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = noise.next();
  const low = lowPass(raw, 0.25);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    const env = t < 0.08 ? t / 0.08 : t > 1.0 ? Math.max(0, 1 - (t - 1.0) / 0.4) : 1;
    // Hiss: white noise minus its low part (a high-pass), with a slow flutter.
    out[i] = (raw[i]! - low[i]!) * env * (0.85 + 0.15 * polySin(TWO_PI * 7 * t));
  }
  return fadeEnds(normalise(out, 0.6), 64);
}

/** Two seconds that loop seamlessly: every frequency makes whole cycles in the loop. */
export function hum(): Float64Array {
  const seconds = 2;
  const n = SAMPLE_RATE * seconds;
  const out = new Float64Array(n);
  const partials: [number, number][] = [
    [110, 1],
    [220, 0.45],
    [330, 0.25],
    [165, 0.3],
    [440, 0.1],
  ];
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    let v = 0;
    for (const [f, a] of partials) v += a * polySin(TWO_PI * f * t);
    const tremolo = 0.75 + 0.25 * polySin(TWO_PI * 2 * t);
    out[i] = v * tremolo;
  }
  return normalise(out, 0.5);
}

export function footstep(): Float64Array {
  const n = Math.round(SAMPLE_RATE * 0.18);
  const noise = new Noise(7);
  const out = new Float64Array(n);
  const crunch = lowPass(Float64Array.from({ length: n }, () => noise.next()), 0.3);
  for (let i = 0; i < n; i++) {
    const t = i / SAMPLE_RATE;
    const thump = polySin(TWO_PI * (95 - 120 * t) * t) * polyExp(-t * 28);
    out[i] = thump + crunch[i]! * polyExp(-t * 45) * 0.8;
  }
  return fadeEnds(normalise(out, 0.7), 16);
}

/** 16-bit mono PCM WAV bytes. */
export function encodeWav(samples: Float64Array, rate = SAMPLE_RATE): Uint8Array {
  const data = samples.length * 2;
  const bytes = new Uint8Array(44 + data);
  const v = new DataView(bytes.buffer);
  const tag = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) bytes[at + i] = s.charCodeAt(i);
  };
  tag(0, 'RIFF');
  v.setUint32(4, 36 + data, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  tag(36, 'data');
  v.setUint32(40, data, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    v.setInt16(44 + 2 * i, Math.round(s * 32767), true);
  }
  return bytes;
}

/** The files, by name under assets/sounds/. */
export function soundFiles(): Record<string, Uint8Array> {
  return {
    'thunder.wav': encodeWav(thunder()),
    'steam.wav': encodeWav(steam()),
    'hum.wav': encodeWav(hum()),
    'footstep.wav': encodeWav(footstep()),
  };
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the repository root (package.json beside assets/)');
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const out = join(repoRoot(), 'assets', 'sounds');
  let same = true;
  for (const [name, bytes] of Object.entries(soundFiles())) {
    const path = join(out, name);
    const old = existsSync(path) ? new Uint8Array(readFileSync(path)) : null;
    const equal = old !== null && old.length === bytes.length && old.every((b, i) => b === bytes[i]);
    if (!equal) same = false;
    if (check) console.log(`${equal ? 'ok     ' : 'differs'} ${name}`);
    else {
      mkdirSync(out, { recursive: true });
      writeFileSync(path, bytes);
      console.log(`wrote ${name} (${bytes.length} bytes)`);
    }
  }
  return check && !same ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
