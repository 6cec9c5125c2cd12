/**
 * The navigation graph file (`.nav`), version 1, little-endian, written with the BinaryWriter and read with
 * the checked BinaryReader (every count checked against the bytes left before anything is allocated, every
 * refusal a FormatError naming what and where):
 *
 * ```
 * 0   "RNAV"  u16 version (1)  u8 world kind (0 rugrats, 1 llama, 2 colbin, 3 gta, 4 piney)  u8 a0  u8 a1  u8 0  u16 0
 * 12  f64 origin0  f64 origin1  f64 cell  u32 n0  u32 n1                        the grid
 * 44  f64 radius  f64 height  f64 step  f64 speed                               the body
 * 76  u32 tag length (≤ 1024)  tag (UTF-8)
 *     u32 node count  then per node: u32 cell, f64 × 3 position                  cells ascending
 *     u32 edge count  then per node: u8 edges (≤ 8)  then per edge: u32 target node
 *     u32 CRC-32 of every byte before it (checked first, after the magic and version)
 * ```
 *
 * What is checked on reading: the magic, version, kind and axes; a finite grid with a cell > 0 and at most
 * MAX_NAV_CELLS cells; a usable body; cells ascending with at most MAX_NAV_LEVELS nodes each; each node at its
 * cell's centre with finite coordinates; each edge to a node of a neighbouring cell, one per direction; the
 * counts adding up; the CRC; nothing after it.
 */
import { BinaryReader } from '../binary/reader.js';
import { BinaryWriter } from '../binary/writer.js';
import { crc32 } from '../binary/crc32.js';
import { fnv1a64Hex } from '../binary/fnv.js';
import type { WorldKind } from '../worlds/world.js';
import { cellCentre, MAX_NAV_CELLS, MAX_NAV_LEVELS, type NavGrid } from './walk-source.js';
import type { NavGraph } from './graph.js';

/** The format's name in errors. */
export const NAV_FORMAT = 'nav graph';
/** The version this runtime writes and reads. */
export const NAV_VERSION = 1;
/** The longest tag a file may carry, bytes. */
export const MAX_NAV_TAG_BYTES = 1024;

const KINDS: readonly WorldKind[] = ['rugrats', 'llama', 'colbin', 'gta', 'piney'];
const HEADER_BYTES = 76;

/** The file's bytes of a graph (the same graph gives the same bytes on every engine). */
export function writeNavGraph(g: NavGraph): Uint8Array {
  const tag = new TextEncoder().encode(g.tag);
  if (tag.length > MAX_NAV_TAG_BYTES) throw new RangeError(`nav graph tag is ${tag.length} bytes, more than ${MAX_NAV_TAG_BYTES}`);
  const n = g.nodeCount;
  const e = g.edgeTo.length;
  const w = new BinaryWriter(HEADER_BYTES + 16 + tag.length + n * 29 + e * 4);
  w.fourcc('RNAV').u16(NAV_VERSION).u8(KINDS.indexOf(g.kind)).u8(g.grid.a0).u8(g.grid.a1).u8(0).u16(0);
  w.f64(g.grid.origin0).f64(g.grid.origin1).f64(g.grid.cell).u32(g.grid.n0).u32(g.grid.n1);
  w.f64(g.body.radius).f64(g.body.height).f64(g.body.step).f64(g.body.speed);
  w.u32(tag.length).bytes(tag);
  w.u32(n);
  for (let a = 0; a < n; a++) w.u32(g.cellOf[a]!).f64(g.pos[3 * a]!).f64(g.pos[3 * a + 1]!).f64(g.pos[3 * a + 2]!);
  w.u32(e);
  for (let a = 0; a < n; a++) w.u8(g.edgeStart[a + 1]! - g.edgeStart[a]!);
  for (let k = 0; k < e; k++) w.u32(g.edgeTo[k]!);
  const body = w.finish();
  w.u32(crc32(body));
  return w.finish();
}

/** FNV-1a 64 of a graph's file bytes, "0x" + 16 hex digits: one value to compare graphs across engines. */
export function navGraphHash(g: NavGraph): string {
  return fnv1a64Hex(writeNavGraph(g));
}

/** Parses a `.nav` file. Throws a FormatError naming what is wrong and the offset. */
export function parseNavGraph(bytes: Uint8Array): NavGraph {
  const whole = new BinaryReader(bytes, NAV_FORMAT);
  if (whole.length < HEADER_BYTES + 16) whole.fail(`a file of ${whole.length} bytes is shorter than the smallest graph (${HEADER_BYTES + 16} bytes)`, 0);
  // Everything but the CRC-32 at the end, at the same offsets.
  const crcAt = whole.length - 4;
  const r = new BinaryReader(whole.bytes.subarray(0, crcAt), NAV_FORMAT);
  const magic = r.fourcc('magic');
  if (magic !== 'RNAV') r.fail(`magic ${JSON.stringify(magic)} is not "RNAV"`, 0);
  const version = r.u16('version');
  if (version !== NAV_VERSION) r.fail(`version ${version} is not ${NAV_VERSION}, the one this runtime reads`, 4);
  // The CRC first: a damaged file is named as such before its damage is read as structure.
  const crc = whole.u32At(crcAt, 'CRC-32');
  const want = crc32(whole.bytes, 0, crcAt);
  if (crc !== want) whole.fail(`CRC-32 0x${crc.toString(16)} does not match the bytes' 0x${want.toString(16)}`, crcAt);
  const kindCode = r.u8('world kind');
  const kind = KINDS[kindCode];
  if (kind === undefined) r.fail(`world kind ${kindCode} is not one of 0..${KINDS.length - 1}`, 6);
  const a0 = r.u8('axis a0');
  const a1 = r.u8('axis a1');
  if (!(a0 < 3 && a1 < 3 && a0 < a1)) r.fail(`horizontal axes ${a0}, ${a1} are not two ascending axes of 0..2`, 7);
  if (r.u8('reserved') !== 0 || r.u16('reserved') !== 0) r.fail('reserved header bytes are not 0', 9);
  const origin0 = finite(r, 'grid origin0');
  const origin1 = finite(r, 'grid origin1');
  const cellAt = r.pos;
  const cell = finite(r, 'grid cell');
  if (!(cell > 0)) r.fail(`grid cell ${cell} is not > 0`, cellAt);
  const n0At = r.pos;
  const n0 = r.u32('grid n0');
  const n1 = r.u32('grid n1');
  if (n0 * n1 > MAX_NAV_CELLS) r.fail(`grid of ${n0} × ${n1} cells passes the limit of ${MAX_NAV_CELLS}`, n0At);
  const grid: NavGrid = { a0: a0 as 0 | 1 | 2, a1: a1 as 0 | 1 | 2, origin0, origin1, cell, n0, n1 };
  const body = { radius: finite(r, 'body radius'), height: finite(r, 'body height'), step: finite(r, 'body step'), speed: finite(r, 'body speed') };
  if (!(body.radius >= 0 && body.height >= 0 && body.step >= 0 && body.speed > 0)) r.fail('body sizes must be ≥ 0 and its speed > 0', 44);
  const tagAt = r.pos;
  const tagLength = r.u32('tag length');
  if (tagLength > MAX_NAV_TAG_BYTES) r.fail(`tag length ${tagLength} passes the limit of ${MAX_NAV_TAG_BYTES}`, tagAt);
  const tagBytes = r.bytesView(tagLength, 'tag');
  let tag: string;
  try {
    tag = new TextDecoder('utf-8', { fatal: true }).decode(tagBytes);
  } catch {
    r.fail('tag is not UTF-8', tagAt + 4);
  }
  const cells = n0 * n1;
  const n = r.checkCount(r.u32('node count'), 28, 'nodes', cells * MAX_NAV_LEVELS);
  const cellOf = new Uint32Array(n);
  const pos = new Float64Array(3 * n);
  const cellStart = new Uint32Array(cells + 1);
  let prev = 0;
  let run = 0;
  for (let a = 0; a < n; a++) {
    const at = r.pos;
    const c = r.u32('node cell');
    if (c >= cells) r.fail(`node ${a}: cell ${c} is outside the grid's ${cells} cells`, at);
    if (c < prev) r.fail(`node ${a}: cell ${c} comes after cell ${prev} (cells must ascend)`, at);
    run = c === prev && a > 0 ? run + 1 : 1;
    if (run > MAX_NAV_LEVELS) r.fail(`node ${a}: cell ${c} holds more than ${MAX_NAV_LEVELS} nodes`, at);
    prev = c;
    cellOf[a] = c;
    const p = [finite(r, `node ${a} x`), finite(r, `node ${a} y`), finite(r, `node ${a} z`)];
    if (p[a0] !== cellCentre(origin0, cell, c % n0) || p[a1] !== cellCentre(origin1, cell, Math.floor(c / n0))) r.fail(`node ${a}: position is not the centre of its cell ${c}`, at + 4);
    pos[3 * a] = p[0]!;
    pos[3 * a + 1] = p[1]!;
    pos[3 * a + 2] = p[2]!;
  }
  // cellStart from the ascending cells.
  let a = 0;
  for (let c = 0; c <= cells; c++) {
    cellStart[c] = a;
    while (a < n && cellOf[a] === c) a++;
  }
  const edgeCountAt = r.pos;
  const e = r.u32('edge count');
  if (e > n * 8) r.fail(`edge count ${e} passes 8 per node (${n * 8})`, edgeCountAt);
  r.checkCount(n + e * 4, 1, 'edge degrees and targets');
  const edgeStart = new Uint32Array(n + 1);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const at = r.pos;
    const d = r.u8('edge degree');
    if (d > 8) r.fail(`node ${k}: ${d} edges, more than 8`, at);
    edgeStart[k] = total;
    total += d;
  }
  edgeStart[n] = total;
  if (total !== e) r.fail(`the nodes' edges add up to ${total}, not the edge count ${e}`, edgeCountAt);
  const edgeTo = new Uint32Array(e);
  for (let k = 0; k < n; k++) {
    const c = cellOf[k]!;
    const ci = c % n0;
    const cj = Math.floor(c / n0);
    let seen = 0;
    for (let q = edgeStart[k]!; q < edgeStart[k + 1]!; q++) {
      const at = r.pos;
      const t = r.u32('edge target');
      if (t >= n) r.fail(`node ${k}: edge to node ${t}, past the ${n} nodes`, at);
      const d = cellOf[t]!;
      const di = (d % n0) - ci;
      const dj = Math.floor(d / n0) - cj;
      if (!(Math.abs(di) <= 1 && Math.abs(dj) <= 1 && (di !== 0 || dj !== 0))) r.fail(`node ${k}: edge to node ${t}, whose cell is not a neighbour`, at);
      const bit = 1 << ((di + 1) * 3 + dj + 1);
      if (seen & bit) r.fail(`node ${k}: two edges in one direction`, at);
      seen |= bit;
      edgeTo[q] = t;
    }
  }
  r.expectEnd('the bytes between the last edge and the CRC-32');
  return { kind: kind!, tag: tag!, grid, body, nodeCount: n, cellOf, pos, cellStart, edgeStart, edgeTo };
}

function finite(r: BinaryReader, what: string): number {
  const at = r.pos;
  const v = r.f64(what);
  if (!Number.isFinite(v)) r.fail(`${what} ${v} is not finite`, at);
  return v;
}
