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
import type { Vec3 } from '../world.js';
import { canonicalFlags, COL_FOURCC, type ColFile, type ColModel, type ColSurface } from './model.js';
import { HEADER_BYTES_AFTER_PREFIX, MODEL_PREFIX_BYTES, OFFSET_BASE, hasFaceGroups } from './parse.js';
import {
  canonicalColModelBytes,
  ColOut,
  checkColModel,
  packFacesAt,
  packVerticesAt,
  validateColModel,
  VERTEX_ARRAY_ALIGN,
  writeCanonicalModelAt,
  writeCollFacesAt,
  writeColFile,
  writeColModel,
} from './write.js';
import { floatBits } from '../../binary/float-bits.js';

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

/**
 * A model written into its template: every field the model holds, at the template's positions. Returns null
 * when the template cannot take the model (other counts or version); throws ColWriteError for a model its
 * version cannot hold exactly (the flags excepted: they are written as they are), and RangeError for a layout
 * whose sections do not lie inside its template.
 */
export function overlayColModel(m: ColModel, layout: ColModelLayout): Uint8Array | null {
  validateColModel(m, false);
  if (!fitsTemplate(m, layout)) return null;
  checkTemplateRoom(m, layout);
  const out = new ColOut(layout.template.slice());
  if (!overlayAt(out, 0, m, layout)) throw new Error('internal: the GTA COL overlay refused a model that validateColModel accepts');
  return out.bytes;
}

/** True when the model has the template's counts and version (and, COL2+, a face-group block exactly when its flags say so). */
function fitsTemplate(m: ColModel, l: ColModelLayout): boolean {
  const c = l.counts;
  const same =
    c.version === m.version && c.spheres === m.spheres.length && c.boxes === m.boxes.length && c.lines === m.lines.length / 6 &&
    c.vertices === m.mesh.vertexCount && c.faces === m.mesh.faceCount && c.faceGroups === (m.faceGroups ? m.faceGroups.length : -1) &&
    c.shadowFaces === (m.shadow ? m.shadow.faceCount : -1) && c.shadowVertices === (m.shadow ? m.shadow.vertexCount : -1);
  return same && (m.version === 1 || hasFaceGroups(m.flags, m.mesh.faceCount) === (m.faceGroups !== null));
}

/** Throws RangeError unless every byte the overlay writes lies inside the template (a layout colLayoutOf made always passes). */
function checkTemplateRoom(m: ColModel, l: ColModelLayout): void {
  const size = l.template.length;
  const room = (at: number, bytes: number, what: string): void => {
    if (at < 0 || at + bytes > size) {
      throw new RangeError(`${COL_FOURCC[m.version]} model ${JSON.stringify(m.name)}: its layout puts ${what} at ${at}..${at + bytes}, outside its ${size}-byte template`);
    }
  };
  // COLL: everything in file order from the header on, as the canonical layout has it.
  if (m.version === 1) return room(0, canonicalColModelBytes(m), 'the model');
  room(0, MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[m.version], 'the header');
  if (l.spheres >= 0) room(l.spheres, m.spheres.length * 20, 'the spheres');
  if (l.boxes >= 0) room(l.boxes, m.boxes.length * 28, 'the boxes');
  if (l.vertices >= 0) room(l.vertices, m.mesh.vertices.length * 2, 'the vertices');
  if (l.faceGroups >= 0 && m.faceGroups) room(l.faceGroups, m.faceGroups.length * 28 + 4, 'the face groups');
  if (l.faces >= 0) room(l.faces, m.mesh.faceCount * 8, 'the faces');
  if (m.shadow) {
    if (l.shadowVertices >= 0) room(l.shadowVertices, m.shadow.vertices.length * 2, 'the shadow vertices');
    room(l.shadowFaces, m.shadow.faceCount * 8, 'the shadow faces');
  }
}

/**
 * True when the overlay stores, and so checks, every mesh element the rules look at: the faces and vertices of
 * the mesh and shadow mesh lie where the layout says (always so for a layout colLayoutOf made), and a COL2+
 * mesh without faces has no vertices. Otherwise the model's elements are checked before it is written.
 */
function overlayChecksMesh(m: ColModel, l: ColModelLayout): boolean {
  if (m.version === 1) return true;
  const mesh = m.mesh;
  const main = mesh.faceCount === 0 ? mesh.vertexCount === 0 : l.faces >= 0 && (l.vertices >= 0 || mesh.vertices.length === 0);
  return main && (m.shadow === null || l.shadowVertices >= 0 || m.shadow.vertices.length === 0);
}

/** Stores a float, except that a NaN written over a NaN keeps the template's bits (its payload). */
function f32At(view: DataView, p: number, v: number): void {
  if (v === v) view.setFloat32(p, v, true);
  else {
    const old = view.getFloat32(p, true);
    if (old === old) view.setFloat32(p, v, true);
  }
}
function vecAt(view: DataView, p: number, v: Vec3): void {
  f32At(view, p, v[0]);
  f32At(view, p + 4, v[1]);
  f32At(view, p + 8, v[2]);
}
function surfaceAt(bytes: Uint8Array, p: number, s: ColSurface): void {
  bytes[p] = s.material;
  bytes[p + 1] = s.flag;
  bytes[p + 2] = s.brightness;
  bytes[p + 3] = s.light;
}

/**
 * Overlays a model onto its template, which lies at byte `base` of `out` (checked by fitsTemplate and
 * checkTemplateRoom): the name, id and bounds, the counts and flags, and each section at the template's place.
 * False when a mesh element it stores breaks a rule (see writeCanonicalModelAt).
 */
function overlayAt(out: ColOut, base: number, m: ColModel, l: ColModelLayout): boolean {
  const { bytes, view } = out;
  bytes.set(m.nameBytes, base + 8);
  view.setUint16(base + 30, m.modelId, true);
  if (m.version === 1) return overlayCollAt(out, base + 32, m);
  vecAt(view, base + 32, m.bounds.min);
  vecAt(view, base + 44, m.bounds.max);
  vecAt(view, base + 56, m.bounds.center);
  f32At(view, base + 68, m.bounds.radius);
  view.setUint16(base + 72, m.spheres.length, true);
  view.setUint16(base + 74, m.boxes.length, true);
  view.setUint16(base + 76, m.mesh.faceCount, true);
  view.setUint32(base + 80, m.flags, true);
  // Without a shadow mesh the count stays as the template has it (SA reads none while an offset is 0).
  if (m.shadow) view.setUint32(base + 108, m.shadow.faceCount, true);
  if (m.version === 4) view.setUint32(base + 120, m.col4Unknown, true);
  if (l.spheres >= 0) {
    const spheres = m.spheres;
    for (let i = 0, p = base + l.spheres; i < spheres.length; i++, p += 20) {
      const s = spheres[i]!;
      vecAt(view, p, s.center);
      f32At(view, p + 12, s.radius);
      surfaceAt(bytes, p + 16, s.surface);
    }
  }
  if (l.boxes >= 0) {
    const boxes = m.boxes;
    for (let i = 0, p = base + l.boxes; i < boxes.length; i++, p += 28) {
      const b = boxes[i]!;
      vecAt(view, p, b.min);
      vecAt(view, p + 12, b.max);
      surfaceAt(bytes, p + 24, b.surface);
    }
  }
  let ok = true;
  if (l.vertices >= 0) ok = packVerticesAt(out, base + l.vertices, m.mesh.vertices);
  const groups = m.faceGroups;
  if (l.faceGroups >= 0 && groups) {
    let p = base + l.faceGroups;
    for (let i = 0; i < groups.length; i++, p += 28) {
      const g = groups[i]!;
      vecAt(view, p, g.min);
      vecAt(view, p + 12, g.max);
      view.setUint16(p + 24, g.first, true);
      view.setUint16(p + 26, g.last, true);
    }
    view.setUint32(p, groups.length, true);
  }
  if (l.faces >= 0) ok = packFacesAt(out, base + l.faces, m.mesh) && ok;
  if (m.shadow) {
    if (l.shadowVertices >= 0) ok = packVerticesAt(out, base + l.shadowVertices, m.shadow.vertices) && ok;
    ok = packFacesAt(out, base + l.shadowFaces, m.shadow) && ok;
  }
  return ok;
}

/** A COLL model over its template from byte `p` (the bounds): every field in file order. */
function overlayCollAt(out: ColOut, at: number, m: ColModel): boolean {
  const { bytes, view } = out;
  let p = at;
  f32At(view, p, m.bounds.radius);
  vecAt(view, p + 4, m.bounds.center);
  vecAt(view, p + 16, m.bounds.min);
  vecAt(view, p + 28, m.bounds.max);
  p += 40;
  const spheres = m.spheres;
  view.setUint32(p, spheres.length, true);
  p += 4;
  for (let i = 0; i < spheres.length; i++, p += 20) {
    const s = spheres[i]!;
    f32At(view, p, s.radius);
    vecAt(view, p + 4, s.center);
    surfaceAt(bytes, p + 16, s.surface);
  }
  const L = m.lines;
  view.setUint32(p, L.length / 6, true);
  p += 4;
  const lineBits = floatBits(L); // the model's bits, as the canonical writer writes them (see float-bits.ts)
  for (let i = 0; i < lineBits.length; i++, p += 4) view.setUint32(p, lineBits[i]!, true);
  const boxes = m.boxes;
  view.setUint32(p, boxes.length, true);
  p += 4;
  for (let i = 0; i < boxes.length; i++, p += 28) {
    const b = boxes[i]!;
    vecAt(view, p, b.min);
    vecAt(view, p + 12, b.max);
    surfaceAt(bytes, p + 24, b.surface);
  }
  const mesh = m.mesh;
  const V = mesh.vertices;
  view.setUint32(p, mesh.vertexCount, true);
  p += 4;
  const vertexBits = floatBits(V);
  for (let i = 0; i < vertexBits.length; i++, p += 4) view.setUint32(p, vertexBits[i]!, true);
  view.setUint32(p, mesh.faceCount, true);
  p += 4;
  return writeCollFacesAt(out, p, mesh);
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
  // First each model is checked (its mesh elements aside) and given its place and size; then one buffer of the
  // total is written, templates copied in and overlaid, the mesh elements checked as they are stored. On any
  // fault the plan is made again with every rule, which throws the first fault in the order of the models.
  let plan: KeptLayoutPlan;
  try {
    plan = planKeptLayout(models, layout, false);
  } catch (e) {
    planKeptLayout(models, layout, true);
    throw e;
  }
  const out = new ColOut(new Uint8Array(plan.size));
  let at = 0;
  for (let i = 0; i < models.length; i++) {
    const c = plan.written[i]!;
    let ok: boolean;
    if (c !== null) {
      at = writeCanonicalModelAt(out, at, c);
      ok = at >= 0;
    } else {
      const l = layout.models[i]!;
      out.bytes.set(l.template, at);
      ok = overlayAt(out, at, models[i]!, l);
      at += l.template.length;
    }
    if (!ok) {
      planKeptLayout(models, layout, true);
      throw new Error('internal: the GTA COL writer refused models that validateColModel accepts');
    }
  }
  out.bytes.set(layout.trailing, at);
  return { bytes: out.bytes, canonical: plan.canonical };
}

/** Where each model goes: null into its template, else the model to write canonically; and the total size. */
interface KeptLayoutPlan {
  written: (ColModel | null)[];
  canonical: number[];
  size: number;
}

/**
 * Checks each model in turn as a layout-keeping write must (into its template: any flags; else its
 * canonical-flags copy in the canonical layout), with its mesh elements when `elements` is true, and plans it.
 */
function planKeptLayout(models: readonly ColModel[], layout: ColFileLayout, elements: boolean): KeptLayoutPlan {
  const written: (ColModel | null)[] = [];
  const canonical: number[] = [];
  let size = layout.trailing.length;
  for (let i = 0; i < models.length; i++) {
    const m = models[i]!;
    const l = layout.models[i];
    if (l) {
      checkColModel(m, false, elements);
      if (fitsTemplate(m, l)) {
        checkTemplateRoom(m, l);
        if (!elements && !overlayChecksMesh(m, l)) checkColModel(m, false, true);
        written.push(null);
        size += l.template.length;
        continue;
      }
    }
    const c = canonicalColModel(m);
    checkColModel(c, true, elements);
    written.push(c);
    canonical.push(i);
    size += canonicalColModelBytes(c);
  }
  return { written, canonical, size };
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
