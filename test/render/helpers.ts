/** Opens the sandbox's catalog worlds in Node from assets/, as the page does from its public folder. */
import { readFileSync } from 'node:fs';
import { catalogEntry, catalogSource, openWorldBytes, variantSpecBytes } from '../../src/render/sandbox/world-catalog.js';
import type { OpenedWorld } from '../../src/replay/world-identity.js';
import { defaultPineyTables } from '../../src/node/assets.js';
import { readReplay, ReplayWriter } from '../../src/replay/format.js';

export const read = (p: string): Uint8Array => new Uint8Array(readFileSync(p));

export function opener(id: string): () => Promise<OpenedWorld> {
  const e = catalogEntry(id);
  return () => {
    const bytes = variantSpecBytes(read(`assets/${e.file}`), e);
    return openWorldBytes(bytes, e.variant ? `${e.id}.field.json` : e.file, catalogSource(e), {
      ...(e.map ? { map: read(`assets/${e.map}`) } : {}),
      ...(e.placements ? { placements: read(`assets/${e.placements}`) } : {}),
      pineyTables: defaultPineyTables(),
    });
  };
}

/**
 * The same replay with the recorded hash of one frame (1-based, not the last) changed: a replay that no
 * longer verifies from that frame on, written back with correct checksums.
 */
export function tamperHash(bytes: Uint8Array, frame: number): Uint8Array {
  const rp = readReplay(bytes);
  const f = rp.frames;
  if (!(frame >= 1 && frame < f.count)) throw new RangeError(`frame ${frame} is not one of 1..${f.count - 1}`);
  const S = rp.header.sections.length;
  const hashHi = f.hashHi.slice();
  hashHi[frame - 1] = (hashHi[frame - 1]! ^ 1) >>> 0;
  const w = new ReplayWriter();
  w.header(rp.header);
  const kfs = rp.keyframes;
  for (let k = 0; k < kfs.length; k++) {
    const kf = kfs[k]!;
    w.keyframe(kf.frame, kf.hashHi, kf.hashLo, kf.snapshot);
    const start = kf.frame;
    const end = k + 1 < kfs.length ? kfs[k + 1]!.frame : f.count;
    if (end > start) {
      w.frames(start + 1, end - start, { inputs: f.inputs.subarray(start, end), hashHi: hashHi.subarray(start, end), hashLo: f.hashLo.subarray(start, end), fieldrand: f.fieldrand.subarray(start, end), ccrand: f.ccrand.subarray(start, end), sections: f.sections.subarray(start * S, end * S) }, S);
    }
  }
  return w.end(rp.final.frames, rp.final.hashHi, rp.final.hashLo);
}
