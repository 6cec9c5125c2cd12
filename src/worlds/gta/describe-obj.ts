/**
 * Collision models from an OBJ file (`retrosim col build model.obj`), with the checks and the models of a
 * JSON description (describe.ts) of the same geometry.
 *
 * Bounded in memory and time by `limits.gta`, each checked as the text is read, before anything is allocated
 * by it: the text's length (`descriptionBytes`), one line's (`objLineChars`, measured before the line is
 * split), one face's vertices (`objFaceVertices`), the statements and the triangles the faces fan into
 * (`descriptionElements`, each over the file), the objects (`models`), and for COL2/COL3 the 65,535 faces a
 * mesh may count in 16 bits. Vertices and triangles are kept in typed arrays (about 13 bytes a triangle and
 * 12 a vertex), so the memory is a small multiple of the text's however its lines are made.
 */
import { FormatError } from '../../binary/format-error.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { COL_DESCRIPTION_FORMAT, compact, fail, finishModel, nameBytesOf, Path, storeVertex, type BuiltCol } from './describe.js';
import { emptyMesh, type ColMesh, type ColModel, type ColVersion } from './model.js';

/** Options of buildColFromObj. */
export interface ObjBuildOptions {
  /** The version of every model (default 3). */
  version?: ColVersion;
  /** The OBJ's up axis: "y" (default: what Blender's exporter and `retrosim world export` write) or "z" (GTA's own). */
  up?: 'y' | 'z';
  /** The name of a model before any `o` line (default "model"). */
  name?: string;
  /** The limits the text is read within (default DEFAULT_LIMITS; see the module comment). */
  limits?: Readonly<Limits>;
}

/** Most faces a COL2/COL3 mesh counts (16 bits). */
const MAX_FACES_16 = 0xffff;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** An object of the file: its name, the line it starts on, and its triangles' range in the file's list. */
interface Part {
  name: string;
  line: number;
  first: number;
  end: number;
  faces: number;
  shadowFaces: number;
}

/** A typed array that grows by doubling. */
class Grow<T extends Float32Array | Uint32Array | Uint8Array> {
  length = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/**
 * Builds models from an OBJ file: `v x y z` vertices, `f` faces (indices from 1, negative ones relative, `a/b/c`
 * forms read for the vertex; polygons fanned into triangles), `o NAME` starts a model, faces after `g shadow`
 * (a group named "shadow" or ending in "shadow") go to the model's shadow mesh, `usemtl NAME` sets the material
 * to the integer NAME ends with (`usemtl 4`, `usemtl gta-surface-4`). `vn`, `vt`, `s`, `mtllib` and comments are
 * ignored; any other statement is an error. With up "y" the OBJ (x, y, z) is GTA's (x, −z, y). Throws FormatError
 * naming the line, and the figure and the limit when the text is over one (see the module comment).
 */
export function buildColFromObj(text: string, options: ObjBuildOptions = {}): BuiltCol {
  const version = options.version ?? 3;
  const up = options.up ?? 'y';
  const limits = options.limits ?? DEFAULT_LIMITS;
  const { descriptionBytes, descriptionElements, objLineChars, objFaceVertices, models: maxModels } = limits.gta;
  if (text.length > descriptionBytes) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ: the text is ${text.length} characters, over the limit of ${descriptionBytes} (limits.gta.descriptionBytes)`);
  const failAt = (n: number, detail: string): never => {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ line ${n}: ${detail}`);
  };
  const verts = new Grow(new Float32Array(0));
  const tris = new Grow(new Uint32Array(0));
  const mats = new Grow(new Uint8Array(0));
  const shadowTri = new Grow(new Uint8Array(0));
  const parts: Part[] = [];
  let cur: Part | null = null;
  let shadow = false;
  let material = 0;
  let statements = 0;
  const start = (name: string, n: number): Part => {
    if (parts.length >= maxModels) failAt(n, `more than ${maxModels} objects (limits.gta.models)`);
    const p: Part = { name, line: n, first: tris.length / 3, end: tris.length / 3, faces: 0, shadowFaces: 0 };
    parts.push(p);
    return p;
  };
  for (let at = 0, n = 1; at <= text.length; n++) {
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    const lineEnd = next > at && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    if (lineEnd - at > objLineChars) failAt(n, `${lineEnd - at} characters, over the limit of ${objLineChars} characters a line (limits.gta.objLineChars)`);
    const line = text.slice(at, lineEnd).replace(/#.*/, '').trim();
    at = next + 1;
    if (line === '') continue;
    const [kw, ...rest] = line.split(/\s+/);
    if (++statements > descriptionElements) failAt(n, `more than ${descriptionElements} statements (limits.gta.descriptionElements)`);
    switch (kw) {
      case 'v': {
        if (rest.length < 3 || rest.length > 4) failAt(n, 'a vertex is "v x y z"');
        const c = rest.slice(0, 3).map((t) => {
          const x = Number(t);
          if (!Number.isFinite(x) || !NUMBER.test(t)) failAt(n, `${JSON.stringify(t)} is not a finite number`);
          if (Math.abs(x) > 3.4e38) failAt(n, `${x} is beyond the float32 range`);
          return x;
        });
        const gta = up === 'y' ? [c[0]!, -c[2]! + 0, c[1]!] : c;
        for (const x of gta) verts.push(Math.fround(x));
        break;
      }
      case 'f': {
        if (rest.length < 3) failAt(n, 'a face needs at least 3 vertices');
        if (rest.length > objFaceVertices) failAt(n, `a face of ${rest.length} vertices, over the limit of ${objFaceVertices} (limits.gta.objFaceVertices)`);
        const count = verts.length / 3;
        const idx = rest.map((t) => {
          const head = t.split('/')[0]!;
          if (!/^-?\d+$/.test(head)) failAt(n, `${JSON.stringify(t)} is not a vertex index`);
          const k = Number(head);
          const abs = k < 0 ? count + k : k - 1;
          if (k === 0 || abs < 0 || abs >= count) failAt(n, `vertex ${k} does not exist (${count} vertices so far)`);
          return abs;
        });
        const p = cur ?? (cur = start(options.name ?? 'model', n));
        const fan = idx.length - 2;
        if (tris.length / 3 + fan > descriptionElements) failAt(n, `more than ${descriptionElements} triangles in all (limits.gta.descriptionElements)`);
        const inMesh = (shadow ? p.shadowFaces : p.faces) + fan;
        if (version >= 2 && inMesh > MAX_FACES_16) failAt(n, `object ${JSON.stringify(p.name)} has more than ${MAX_FACES_16} faces${shadow ? ' in its shadow mesh' : ''}: COL${version} counts them in 16 bits`);
        if (shadow) p.shadowFaces = inMesh;
        else p.faces = inMesh;
        for (let k = 1; k + 1 < idx.length; k++) {
          tris.push(idx[0]!);
          tris.push(idx[k]!);
          tris.push(idx[k + 1]!);
          mats.push(material);
          shadowTri.push(shadow ? 1 : 0);
        }
        p.end = tris.length / 3;
        break;
      }
      case 'o': {
        const name = rest.join(' ');
        if (name === '') failAt(n, 'an object needs a name');
        cur = start(name, n);
        shadow = false;
        break;
      }
      case 'g':
        shadow = /shadow$/i.test(rest.join(' '));
        break;
      case 'usemtl': {
        const m = /(\d+)$/.exec(rest.join(' '));
        if (!m) failAt(n, `material ${JSON.stringify(rest.join(' '))} does not end in its surface number (e.g. "usemtl 4" or "usemtl gta-surface-4")`);
        const v = Number(m![1]);
        if (v > 255) failAt(n, `surface ${v} is not a byte`);
        material = v;
        break;
      }
      case 'vn':
      case 'vt':
      case 'vp':
      case 's':
      case 'mtllib':
        break;
      default:
        failAt(n, `unknown statement ${JSON.stringify(kw)}`);
    }
  }
  const used = parts.filter((p) => p.faces + p.shadowFaces > 0);
  if (used.length === 0) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, 'OBJ: no faces');
  // A vertex's number in the mesh being built (-1: not in it), reset after each mesh.
  const remap = new Int32Array(verts.length / 3).fill(-1);
  let snapped = 0;
  const meshOf = (p: Part, wantShadow: boolean, count: number, at: Path): ColMesh => {
    const order: number[] = [];
    const indices = new Uint32Array(count * 3);
    const surfaces = new Uint8Array(count * 4);
    let f = 0;
    for (let t = p.first; t < p.end; t++) {
      if ((shadowTri.data[t] === 1) !== wantShadow) continue;
      for (let k = 0; k < 3; k++) {
        const old = tris.data[t * 3 + k]!;
        if (remap[old] === -1) {
          remap[old] = order.length;
          order.push(old);
        }
        indices[f * 3 + k] = remap[old]!;
      }
      surfaces[f * 4] = mats.data[t]!;
      f++;
    }
    for (const old of order) remap[old] = -1;
    if (version >= 2 && order.length > 0x10000) fail(at.key('vertices'), `${order.length} vertices: COL${version}'s 16-bit indices reach 65536`);
    const vertices = new Float32Array(order.length * 3);
    order.forEach((old, i) => {
      if (storeVertex(vertices, i, [verts.data[old * 3]!, verts.data[old * 3 + 1]!, verts.data[old * 3 + 2]!], version, at.key('vertices').index(i))) snapped++;
    });
    const mesh: ColMesh = { vertexCount: order.length, vertices, faceCount: count, indices, surfaces };
    return version >= 2 ? compact(mesh) : mesh;
  };
  const models: ColModel[] = [];
  for (const p of used) {
    const root = new Path('$');
    try {
      if (p.shadowFaces > 0 && version < 3) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ line ${p.line}: object ${JSON.stringify(p.name)} has a shadow group, but COL${version === 1 ? 'L' : '2'} has no shadow mesh`);
      const nameBytes = nameBytesOf(p.name, root.key('name'));
      const mesh = p.faces > 0 ? meshOf(p, false, p.faces, root.key('mesh')) : emptyMesh();
      const shadowMesh = p.shadowFaces > 0 ? meshOf(p, true, p.shadowFaces, root.key('shadow')) : null;
      models.push(finishModel({ version, name: p.name, nameBytes, modelId: 0, spheres: [], boxes: [], mesh, shadow: shadowMesh }, 'auto'));
    } catch (e) {
      if (e instanceof FormatError && e.detail.startsWith('$')) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ object ${JSON.stringify(p.name)} (line ${p.line}): ${e.detail}`);
      throw e;
    }
  }
  return { models, snapped };
}
