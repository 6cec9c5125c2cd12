/**
 * A steered run's inputs in a link: the buttons of frames 1..N, one word a frame, compressed as runs (each run
 * a button word and how many frames it lasts, both as unsigned LEB128 varints) and written in URL-safe base64
 * without padding, for the link's fragment (`#in=...`). Keys are held for many frames at a time, so a minute of
 * walking takes a few hundred characters. Pure string handling, the same in every browser and in Node.
 *
 * Decoding checks everything: the alphabet, each varint, the button bits, that no run is empty and that the
 * runs add up to the link's frame; a bad text is refused with a sentence saying what is wrong.
 */

/** The most characters of inputs a link carries; a longer run is shared as a replay file. */
export const MAX_LINK_INPUT_CHARS = 6000;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

function pushVarint(out: number[], v: number): void {
  let x = v >>> 0;
  while (x >= 0x80) {
    out.push((x & 0x7f) | 0x80);
    x >>>= 7;
  }
  out.push(x);
}

function toBase64Url(bytes: readonly number[]): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const left = bytes.length - i;
    s += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    if (left > 1) s += B64[(n >> 6) & 63]!;
    if (left > 2) s += B64[n & 63]!;
  }
  return s;
}

function fromBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new Error(`${text.length} characters is not a whole number of bytes in base64`);
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    const chunk = text.slice(i, i + 4);
    for (let k = 0; k < 4; k++) {
      const c = chunk[k];
      const v = c === undefined ? 0 : B64_INDEX.get(c);
      if (v === undefined) throw new Error(`character ${JSON.stringify(c)} at ${i + k} is not URL-safe base64 (A-Z a-z 0-9 - _)`);
      n = (n << 6) | v;
    }
    out[o++] = (n >> 16) & 255;
    if (chunk.length > 2) out[o++] = (n >> 8) & 255;
    if (chunk.length > 3) out[o++] = n & 255;
  }
  return out.subarray(0, o);
}

/** The link text of the buttons of frames 1..N (`inputs[f − 1]` for frame f). */
export function encodeInputs(inputs: ArrayLike<number>): string {
  const bytes: number[] = [];
  let i = 0;
  while (i < inputs.length) {
    const v = inputs[i]! >>> 0;
    let j = i + 1;
    while (j < inputs.length && inputs[j]! >>> 0 === v) j++;
    pushVarint(bytes, v);
    pushVarint(bytes, j - i);
    i = j;
  }
  return toBase64Url(bytes);
}

/**
 * A run's buttons as runs (a button word and how many frames it lasts), kept up to date frame by frame: the
 * page's link is written every half second, and a run hours long must not be scanned from frame 1 each time.
 * Appending a frame and encoding cost the runs (key changes), never the frames.
 */
export class InputRuns {
  private readonly values: number[] = [];
  private readonly counts: number[] = [];
  /** Frames held: the buttons of frames 1..frames. */
  frames = 0;

  /** Appends frame `frames + 1`'s buttons. */
  push(buttons: number): void {
    const v = buttons >>> 0;
    const n = this.values.length;
    if (n && this.values[n - 1] === v) this.counts[n - 1]!++;
    else {
      this.values.push(v);
      this.counts.push(1);
    }
    this.frames++;
  }

  /** Forgets the frames after `frames` (a run cut there goes on differently). */
  truncate(frames: number): void {
    while (this.frames > frames) {
      const n = this.values.length - 1;
      const over = this.frames - frames;
      if (this.counts[n]! <= over) {
        this.frames -= this.counts[n]!;
        this.values.pop();
        this.counts.pop();
      } else {
        this.counts[n]! -= over;
        this.frames = frames;
      }
    }
  }

  /** Whether any frame held has a button down. */
  get held(): boolean {
    return this.values.some((v) => v !== 0);
  }

  /** The link text of the frames held (as `encodeInputs` of the same buttons). */
  encode(): string {
    const bytes: number[] = [];
    for (let i = 0; i < this.values.length; i++) {
      pushVarint(bytes, this.values[i]!);
      pushVarint(bytes, this.counts[i]!);
    }
    return toBase64Url(bytes);
  }
}

/**
 * The buttons of frames 1..`frames` from a link's text; throws an Error saying what is wrong: a character
 * outside the alphabet, a varint cut short or over 32 bits, a run of no frames, button bits outside `mask`,
 * or runs that do not add up to `frames`.
 */
export function decodeInputs(text: string, frames: number, mask: number): Uint32Array {
  if (text.length > MAX_LINK_INPUT_CHARS) throw new Error(`${text.length} characters, more than the ${MAX_LINK_INPUT_CHARS} a link carries`);
  const bytes = fromBase64Url(text);
  const out = new Uint32Array(frames);
  let at = 0;
  let f = 0;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= bytes.length) throw new Error(`a number cut short at byte ${at}`);
      const b = bytes[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (v > 0xffffffff) throw new Error(`a number over 32 bits ending at byte ${at - 1}`);
        return v;
      }
    }
    throw new Error(`a number over 32 bits ending at byte ${at - 1}`);
  };
  while (at < bytes.length) {
    const runAt = at;
    const v = varint();
    const n = varint();
    if ((v & ~mask) !== 0) throw new Error(`buttons 0x${v.toString(16)} at byte ${runAt} have bits no button has`);
    if (n === 0) throw new Error(`a run of no frames at byte ${runAt}`);
    if (f + n > frames) throw new Error(`the runs hold more than the link's ${frames} frames`);
    out.fill(v, f, f + n);
    f += n;
  }
  if (f !== frames) throw new Error(`the runs hold ${f} frames, the link's frame is ${frames}`);
  return out;
}
