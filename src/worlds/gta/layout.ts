/**
 * The layout of a parsed `.col` file, for writing a model back where it was: each model's original bytes (its
 * template) and where its sections lie in them. The canonical writer (write.ts) decides positions itself; a
 * layout-keeping write instead overlays every field the model holds onto a copy of its template, at the
 * template's positions, so that what the model does not hold — section order, gaps, an unpadded vertex
 * array, unreferenced vertices, non-zero offsets of empty sections, the line count and its pad byte, NaN
 * payloads — stays as it was. A model whose counts no longer fit its template is written canonically.
 *
 * `colLayoutDifferences` says why the canonical writer's bytes differ from a file's, with offsets.
 */
import { canonicalFlags, COL_FOURCC, type ColFile, type ColMesh, type ColModel } from './model.js';
import { HEADER_BYTES_AFTER_PREFIX, MODEL_PREFIX_BYTES, OFFSET_BASE, hasFaceGroups } from './parse.js';
import { validateColModel, VERTEX_ARRAY_ALIGN, writeColFile, writeColModel } from './write.js';

/** Where one model's sections lie in its template (offsets from the model's start; -1 when absent). */
export interface ColModelLayout {
  /** The model's bytes as the file holds them, FourCC to the end of its size. */
  template: Uint8Array;
  /** Where the model starts in the file. */
  fileOffset: number;
  spheres: number;
  boxes: number;
  vertices: number;
  /** The face-group block's first byte (the groups, then their u32 count right before the faces). */
  faceGroups: number;
  faces: number;
  shadowVertices: number;
  shadowFaces: number;
  /** Counts the template holds: a model is overlaid only when it has the same. */
  counts: ColCounts;
}

/** A parsed file's layout: per model, and the bytes after the last model. */
export interface ColFileLayout {
  models: ColModelLayout[];
  trailing: Uint8Array;
}

/** The counts that fix a model's layout: equal counts, same places. */
export interface ColCounts {
  version: number;
  spheres: number;
  boxes: number;
  lines: number;
  vertices: number;
  faces: number;
  /** -1 when there is no face-group block. */
  faceGroups: number;
  /** -1 when there is no shadow mesh. */
  shadowFaces: number;
  shadowVertices: number;
}

/** One way a file's bytes differ from what the canonical writer makes of them. */
export interface LayoutDifference {
  /** Byte offset in the input file (-1 for the whole file). */
  offset: number;
  /** What differs and why. */
  reason: string;
}

function countsOf(m: ColModel): ColCounts {
  return {
    version: m.version,
    spheres: m.spheres.length,
    boxes: m.boxes.length,
    lines: m.lines.length / 6,
    vertices: m.mesh.vertexCount,
    faces: m.mesh.faceCount,
    faceGroups: m.faceGroups ? m.faceGroups.length : -1,
    shadowFaces: m.shadow ? m.shadow.faceCount : -1,
    shadowVertices: m.shadow ? m.shadow.vertexCount : -1,
  };
}

const sameCounts = (a: ColCounts, b: ColCounts): boolean =>
  a.version === b.version && a.spheres === b.spheres && a.boxes === b.boxes && a.lines === b.lines && a.vertices === b.vertices &&
  a.faces === b.faces && a.faceGroups === b.faceGroups && a.shadowFaces === b.shadowFaces && a.shadowVertices === b.shadowVertices;

/**
 * The layout of a file `parseColFile(data)` returned `file` for: each model's template and section positions.
 * `data` must be the bytes that were parsed (the offsets are read from them again).
 */
export function colLayoutOf(data: Uint8Array, file: Pick<ColFile, 'models' | 'modelOffsets' | 'trailing'>): ColFileLayout {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const models = file.models.map((m, i): ColModelLayout => {
    const start = file.modelOffsets[i]!;
    const size = view.getUint32(start + 4, true);
    const template = data.slice(start, start + 8 + size);
    const out: ColModelLayout = { template, fileOffset: start, spheres: -1, boxes: -1, vertices: -1, faceGroups: -1, faces: -1, shadowVertices: -1, shadowFaces: -1, counts: countsOf(m) };
    if (m.version === 1) return out;
    const tv = new DataView(template.buffer, template.byteOffset, template.byteLength);
    const at = (field: number): number => tv.getUint32(field, true) + OFFSET_BASE;
    if (m.spheres.length > 0) out.spheres = at(84);
    if (m.boxes.length > 0) out.boxes = at(88);
    if (m.mesh.faceCount > 0) {
      out.faces = at(100);
      if (m.mesh.vertexCount > 0) out.vertices = at(96);
      if (m.faceGroups) out.faceGroups = out.faces - 4 - 28 * m.faceGroups.length;
    }
    if (m.shadow) {
      out.shadowFaces = at(116);
      if (m.shadow.vertexCount > 0) out.shadowVertices = at(112);
    }
    return out;
  });
  return { models, trailing: file.trailing.slice() };
}

/** A cursor over a copy of a template; floats that are NaN keep the template's NaN bits when it has a NaN there. */
class Overlay {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  pos = 0;
  constructor(template: Uint8Array) {
    this.bytes = template.slice();
    this.view = new DataView(this.bytes.buffer);
  }
  at(p: number): this {
    this.pos = p;
    return this;
  }
  u8(v: number): this {
    this.bytes[this.pos++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    this.view.setUint16(this.pos, v & 0xffff, true);
    this.pos += 2;
    return this;
  }
  i16(v: number): this {
    return this.u16(v);
  }
  u32(v: number): this {
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
    return this;
  }
  f32(v: number): this {
    const old = this.view.getFloat32(this.pos, true);
    if (!(v !== v && old !== old)) this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
    return this;
  }
  bytesOf(b: Uint8Array): this {
    this.bytes.set(b, this.pos);
    this.pos += b.length;
    return this;
  }
  vec(v: readonly number[]): this {
    return this.f32(v[0]!).f32(v[1]!).f32(v[2]!);
  }
  surface(s: { material: number; flag: number; brightness: number; light: number }): this {
    return this.u8(s.material).u8(s.flag).u8(s.brightness).u8(s.light);
  }
}

/**
 * A model written into its template: every field the model holds, at the template's positions. Returns null
 * when the template cannot take the model (other counts or version); throws ColWriteError for a model its
 * version cannot hold exactly (the flags excepted: they are written as they are).
 */
export function overlayColModel(m: ColModel, layout: ColModelLayout): Uint8Array | null {
  validateColModel(m, false);
  if (!sameCounts(countsOf(m), layout.counts)) return null;
  if (m.version !== 1 && hasFaceGroups(m.flags, m.mesh.faceCount) !== (m.faceGroups !== null)) return null;
  const o = new Overlay(layout.template);
  o.at(8).bytesOf(m.nameBytes);
  o.at(30).u16(m.modelId);
  if (m.version === 1) {
    o.at(32).f32(m.bounds.radius).vec(m.bounds.center).vec(m.bounds.min).vec(m.bounds.max);
    o.u32(m.spheres.length);
    for (const s of m.spheres) o.f32(s.radius).vec(s.center).surface(s.surface);
    o.u32(m.lines.length / 6);
    for (let i = 0; i < m.lines.length; i++) o.f32(m.lines[i]!);
    o.u32(m.boxes.length);
    for (const b of m.boxes) o.vec(b.min).vec(b.max).surface(b.surface);
    o.u32(m.mesh.vertexCount);
    for (let i = 0; i < m.mesh.vertices.length; i++) o.f32(m.mesh.vertices[i]!);
    o.u32(m.mesh.faceCount);
    const { indices: I, surfaces: S } = m.mesh;
    for (let f = 0; f < m.mesh.faceCount; f++) o.u32(I[f * 3]!).u32(I[f * 3 + 1]!).u32(I[f * 3 + 2]!).u8(S[f * 4]!).u8(S[f * 4 + 1]!).u8(S[f * 4 + 2]!).u8(S[f * 4 + 3]!);
    return o.bytes;
  }
  o.at(32).vec(m.bounds.min).vec(m.bounds.max).vec(m.bounds.center).f32(m.bounds.radius);
  o.u16(m.spheres.length).u16(m.boxes.length).u16(m.mesh.faceCount);
  o.at(80).u32(m.flags);
  // Without a shadow mesh the count stays as the template has it (SA reads none while an offset is 0).
  if (m.shadow) o.at(108).u32(m.shadow.faceCount);
  if (m.version === 4) o.at(120).u32(m.col4Unknown);
  if (layout.spheres >= 0) {
    o.at(layout.spheres);
    for (const s of m.spheres) o.vec(s.center).f32(s.radius).surface(s.surface);
  }
  if (layout.boxes >= 0) {
    o.at(layout.boxes);
    for (const b of m.boxes) o.vec(b.min).vec(b.max).surface(b.surface);
  }
  if (layout.vertices >= 0) packedVerticesAt(o, layout.vertices, m.mesh);
  if (layout.faceGroups >= 0 && m.faceGroups) {
    o.at(layout.faceGroups);
    for (const g of m.faceGroups) o.vec(g.min).vec(g.max).u16(g.first).u16(g.last);
    o.u32(m.faceGroups.length);
  }
  if (layout.faces >= 0) packedFacesAt(o, layout.faces, m.mesh);
  if (m.shadow) {
    if (layout.shadowVertices >= 0) packedVerticesAt(o, layout.shadowVertices, m.shadow);
    packedFacesAt(o, layout.shadowFaces, m.shadow);
  }
  return o.bytes;
}

function packedVerticesAt(o: Overlay, at: number, mesh: ColMesh): void {
  o.at(at);
  for (let i = 0; i < mesh.vertices.length; i++) o.i16(mesh.vertices[i]! * 128);
}

function packedFacesAt(o: Overlay, at: number, mesh: ColMesh): void {
  o.at(at);
  const { indices: I, surfaces: S } = mesh;
  for (let f = 0; f < mesh.faceCount; f++) o.u16(I[f * 3]!).u16(I[f * 3 + 1]!).u16(I[f * 3 + 2]!).u8(S[f * 4]!).u8(S[f * 4 + 3]!);
}

/** What a layout-keeping write did: the bytes, and the models that no longer fitted their template (written canonically). */
export interface KeptLayoutWrite {
  bytes: Uint8Array;
  /** Indices of the models written in the canonical layout because their counts or version changed. */
  canonical: number[];
}

/**
 * Writes models keeping a parsed file's layout: model i into layout.models[i] when its counts still fit, else
 * in the canonical layout (with its flags made canonical); models beyond the layout's are written canonically;
 * then the layout's trailing bytes. For the models a file was parsed into, unchanged, this gives the file's
 * bytes back. Throws ColWriteError for a model its version cannot hold exactly.
 */
export function writeColFileKeepingLayout(models: readonly ColModel[], layout: ColFileLayout): KeptLayoutWrite {
  const parts: Uint8Array[] = [];
  const canonical: number[] = [];
  models.forEach((m, i) => {
    const l = layout.models[i];
    const kept = l ? overlayColModel(m, l) : null;
    if (kept) parts.push(kept);
    else {
      canonical.push(i);
      parts.push(writeColModel(canonicalColModel(m)));
    }
  });
  parts.push(layout.trailing);
  let n = 0;
  for (const p of parts) n += p.length;
  const bytes = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, canonical };
}

/** The model with its flags made canonical (the only field of a parsed model the canonical writer may refuse). */
export function canonicalColModel(m: ColModel): ColModel {
  const flags = canonicalFlags(m);
  return flags === m.flags ? m : { ...m, flags };
}

/**
 * The canonical writer's bytes for a parsed file: every model in the canonical layout with canonical flags,
 * then the file's trailing bytes (a sector pad is data the model keeps).
 */
export function writeColFileCanonical(file: Pick<ColFile, 'models' | 'trailing'>): Uint8Array {
  return writeColFile(file.models.map(canonicalColModel), file.trailing);
}

const NAMES = ['spheres', 'boxes', 'vertices', 'face groups', 'faces', 'shadow vertices', 'shadow faces'] as const;

/**
 * Why the canonical writer's bytes for a file differ from the file, model by model, with the offset in the
 * file of each difference: non-canonical flags, the line count and pad bytes, line and triangle-plane offsets,
 * offsets of empty sections, shadow data SA does not read, sections out of the canonical order or not where the
 * canonical layout puts them (an unpadded vertex array, a gap), bytes after a vertex array or after the last
 * section, NaN payloads. Empty when the file is canonical.
 */
export function colLayoutDifferences(data: Uint8Array, file: Pick<ColFile, 'models' | 'modelOffsets' | 'trailing'>): LayoutDifference[] {
  const layout = colLayoutOf(data, file);
  const out: LayoutDifference[] = [];
  file.models.forEach((m, i) => {
    const l = layout.models[i]!;
    const canon = writeColModel(canonicalColModel(m));
    if (equalBytes(canon, l.template)) return;
    const base = l.fileOffset;
    const before = out.length;
    const where = `model ${i} (${COL_FOURCC[m.version]} ${JSON.stringify(m.name)})`;
    const tv = new DataView(l.template.buffer, l.template.byteOffset, l.template.byteLength);
    if (m.version !== 1) {
      const cf = canonicalFlags(m);
      if (cf !== m.flags) out.push({ offset: base + 80, reason: `${where}: flags ${m.flags} are not the canonical ${cf} for its contents (${flagWhy(m, cf)}); the writer stores ${cf}` });
      if (l.template[78] !== 0) out.push({ offset: base + 78, reason: `${where}: line count byte ${l.template[78]} (COL2+ has no lines; the writer stores 0)` });
      if (l.template[79] !== 0) out.push({ offset: base + 79, reason: `${where}: pad byte ${l.template[79]} after the line count (the writer stores 0)` });
      if (tv.getUint32(92, true) !== 0) out.push({ offset: base + 92, reason: `${where}: line offset ${tv.getUint32(92, true)} (unused; the writer stores 0)` });
      if (tv.getUint32(104, true) !== 0) out.push({ offset: base + 104, reason: `${where}: triangle-plane offset ${tv.getUint32(104, true)} (unused; the writer stores 0)` });
      const empties: [number, string, boolean][] = [
        [84, 'sphere', m.spheres.length === 0],
        [88, 'box', m.boxes.length === 0],
        [96, 'vertex', m.mesh.faceCount === 0],
        [100, 'face', m.mesh.faceCount === 0],
      ];
      if (m.version >= 3) {
        empties.push([112, 'shadow vertex', m.shadow === null], [116, 'shadow face', m.shadow === null]);
        const nShadow = tv.getUint32(108, true);
        if (m.shadow === null && nShadow !== 0) out.push({ offset: base + 108, reason: `${where}: shadow face count ${nShadow} with a zero shadow offset (SA reads no shadow mesh then; the writer stores 0)` });
      }
      for (const [field, what, empty] of empties) {
        const v = tv.getUint32(field, true);
        if (empty && v !== 0) out.push({ offset: base + field, reason: `${where}: ${what} offset ${v} for an empty section (the writer stores 0)` });
      }
      // Sections: where they are against where the canonical layout puts them.
      const actual = [l.spheres, l.boxes, l.vertices, l.faceGroups, l.faces, l.shadowVertices, l.shadowFaces];
      const sizes = [m.spheres.length * 20, m.boxes.length * 28, m.mesh.vertexCount * 6, m.faceGroups ? m.faceGroups.length * 28 + 4 : 0, m.mesh.faceCount * 8, m.shadow ? m.shadow.vertexCount * 6 : 0, m.shadow ? m.shadow.faceCount * 8 : 0];
      let expect = MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[m.version];
      let last = expect;
      for (let s = 0; s < NAMES.length; s++) {
        if (actual[s]! < 0) continue;
        const end = actual[s]! + sizes[s]!;
        if (actual[s] !== expect) {
          const odd = (s === 3 || s === 4 || s === 6) && actual[s] === expect - 2 && (expect - 2) % VERTEX_ARRAY_ALIGN !== 0;
          const reason = odd
            ? `${where}: ${NAMES[s]} at ${actual[s]} follow an odd vertex array without the 2-byte pad the canonical layout has (it puts them at ${expect})`
            : actual[s]! < expect
              ? `${where}: ${NAMES[s]} at model offset ${actual[s]}, out of the canonical order (spheres, boxes, vertices, face groups, faces, shadow vertices, shadow faces), which puts them at ${expect}`
              : `${where}: ${NAMES[s]} at model offset ${actual[s]}, after ${actual[s]! - expect} byte(s) the canonical layout does not have (it puts them at ${expect}); unreferenced vertices or a gap`;
          out.push({ offset: base + actual[s]!, reason });
        }
        expect = actual[s]! >= expect ? end : expect + sizes[s]!;
        if (s === 2 || s === 5) {
          const r = (sizes[s]!) % VERTEX_ARRAY_ALIGN;
          if (r !== 0) expect += VERTEX_ARRAY_ALIGN - r;
        }
        if (end > last) last = end;
      }
      if (last < l.template.length) {
        out.push({ offset: base + last, reason: `${where}: ${l.template.length - last} byte(s) at the end of the model after its last section (the canonical model ends there)` });
      }
      if (l.template.length !== canon.length) out.push({ offset: base + 4, reason: `${where}: size ${l.template.length - 8}; the canonical layout's is ${canon.length - 8}` });
    }
    nanPayloads(canon, l.template, base, where, out);
    if (out.length === before) {
      let k = 0;
      while (k < canon.length && k < l.template.length && canon[k] === l.template[k]) k++;
      out.push({ offset: base + k, reason: `${where}: the canonical writer's bytes differ from here` });
    }
  });
  return out;
}

/** Float positions where the template holds a NaN whose bits the writer does not reproduce. */
function nanPayloads(canon: Uint8Array, template: Uint8Array, base: number, where: string, out: LayoutDifference[]): void {
  if (canon.length !== template.length) return;
  const a = new DataView(canon.buffer, canon.byteOffset, canon.byteLength);
  const b = new DataView(template.buffer, template.byteOffset, template.byteLength);
  let count = 0;
  let first = -1;
  for (let p = 32; p + 4 <= canon.length; p++) {
    const x = a.getUint32(p, true), y = b.getUint32(p, true);
    if (x !== y && isNanBits(x) && isNanBits(y)) {
      if (first < 0) first = p;
      count++;
      p += 3;
    }
  }
  if (count > 0) out.push({ offset: base + first, reason: `${where}: ${count} NaN float(s) with a payload the writer does not keep` });
}

const isNanBits = (u: number): boolean => (u & 0x7f800000) === 0x7f800000 && (u & 0x007fffff) !== 0;

function flagWhy(m: ColModel, cf: number): string {
  const d = (m.flags ^ cf) >>> 0;
  const parts: string[] = [];
  if (d & 2) parts.push(m.flags & 2 ? 'bit 2 "not empty" set on an empty model' : 'bit 2 "not empty" missing');
  if (d & 8) parts.push(m.flags & 8 ? 'bit 8 "face groups" set without a face-group block' : 'bit 8 "face groups" missing');
  if (d & 16) parts.push(m.flags & 16 ? 'bit 16 "shadow mesh" set without a shadow mesh' : 'bit 16 "shadow mesh" missing');
  return parts.join(', ');
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
