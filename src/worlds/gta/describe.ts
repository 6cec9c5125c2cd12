/**
 * Collision models from a readable description: a JSON document (spheres, boxes, a mesh of vertices and faces
 * with surfaces, an optional shadow mesh) or an OBJ file, in any version, with the bounds computed from the
 * geometry and, for COL2/COL3 meshes of more than MAX_FACES_PER_GROUP faces, face groups built as the game
 * expects them. Strict: anything unknown, out of range or inconsistent is a FormatError naming the JSON path
 * (`$.models[0].mesh.faces[3][1]`) or the OBJ line.
 *
 * JSON (every key but the geometry optional):
 *
 *     { "version": 3, "models": [ { "name": "crate", "modelId": 0,
 *         "spheres": [ { "center": [0, 0, 1], "radius": 1, "material": 2 } ],
 *         "boxes":   [ { "min": [-1, -1, 0], "max": [1, 1, 2], "material": 2, "light": 0 } ],
 *         "mesh":    { "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "faces": [[0, 1, 2], { "v": [0, 2, 1], "material": 4 }], "material": 0 },
 *         "shadow":  { "vertices": [...], "faces": [...] },
 *         "faceGroups": "auto" } ] }
 *
 * A document may also be one model (the keys of a model at the top, with "version"). Surfaces are "material",
 * "light" and, for COLL, "flag" and "brightness" (bytes, default 0; a face without its own takes its mesh's).
 * COL2/COL3 mesh vertices are snapped to the 1/128 grid they store (rounded to nearest; the count is
 * reported) and must lie within −256 … 255.992.
 */
import { FormatError } from '../../binary/format-error.js';
import { checkJsonDepth } from '../../binary/json-depth.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import type { Vec3 } from '../world.js';
import { computeBounds, groupFaces, MAX_FACES_PER_GROUP, snap } from './build.js';
import { canonicalFlags, COL_NAME_BYTES, encodeColName, emptyMesh, type ColMesh, type ColModel, type ColSurface, type ColVersion } from './model.js';

/** The format name of a description's FormatErrors. */
export const COL_DESCRIPTION_FORMAT = 'gta col description';

/** Built models and what building them did. */
export interface BuiltCol {
  models: ColModel[];
  /** Mesh vertices moved onto the 1/128 grid (COL2/COL3), over all models. */
  snapped: number;
}

/** Most elements one description may hold (faces, vertices, spheres, boxes over all models). */
export const MAX_DESCRIPTION_ELEMENTS = 1 << 22;

const MAX_PACKED = 32767 / 128;

type Json = unknown;

class Path {
  constructor(readonly text: string) {}
  key(k: string): Path {
    return new Path(`${this.text}.${k}`);
  }
  index(i: number): Path {
    return new Path(`${this.text}[${i}]`);
  }
}

function fail(p: Path, detail: string): never {
  throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `${p.text}: ${detail}`);
}

function object(v: Json, p: Path, allowed: readonly string[]): Record<string, Json> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(p, 'must be an object');
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail(p.key(k), `unknown key (known: ${allowed.join(', ')})`);
  return v as Record<string, Json>;
}

function array(v: Json, p: Path): Json[] {
  if (!Array.isArray(v)) fail(p, 'must be an array');
  return v;
}

function num(v: Json, p: Path): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(p, 'must be a finite number');
  if (Math.abs(v) > 3.4e38) fail(p, `${v} is beyond the float32 range`);
  return v;
}

function int(v: Json, p: Path, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(p, `must be an integer ${min}..${max}`);
  return v;
}

function vec3(v: Json, p: Path): Vec3 {
  const a = array(v, p);
  if (a.length !== 3) fail(p, `must be [x, y, z], got ${a.length} numbers`);
  return [Math.fround(num(a[0], p.index(0))), Math.fround(num(a[1], p.index(1))), Math.fround(num(a[2], p.index(2)))];
}

function versionOf(v: Json, p: Path): ColVersion {
  if (v === 'COLL' || v === 1) return 1;
  if (v === 'COL2' || v === 2) return 2;
  if (v === 'COL3' || v === 3) return 3;
  return fail(p, 'must be 1, 2 or 3 (or "COLL", "COL2", "COL3")');
}

const SURFACE_KEYS = ['material', 'flag', 'brightness', 'light'] as const;

function surfaceOf(o: Record<string, Json>, p: Path, version: ColVersion, base: ColSurface, faces: boolean): ColSurface {
  const s = { ...base };
  for (const k of SURFACE_KEYS) {
    if (o[k] === undefined) continue;
    if (faces && version >= 2 && (k === 'flag' || k === 'brightness')) fail(p.key(k), `COL${version} faces have no ${k} byte (only material and light)`);
    s[k] = int(o[k], p.key(k), 0, 255);
  }
  return s;
}

/** Elements counted over a whole description, against MAX_DESCRIPTION_ELEMENTS. */
class Budget {
  used = 0;
  take(n: number, p: Path): void {
    this.used += n;
    if (this.used > MAX_DESCRIPTION_ELEMENTS) fail(p, `the description holds more than ${MAX_DESCRIPTION_ELEMENTS} elements`);
  }
}

function meshOf(v: Json, p: Path, version: ColVersion, budget: Budget, snapped: { n: number }): ColMesh {
  const o = object(v, p, ['vertices', 'faces', ...SURFACE_KEYS]);
  const base = surfaceOf(o, p, version, { material: 0, flag: 0, brightness: 0, light: 0 }, true);
  const vs = array(o.vertices ?? [], p.key('vertices'));
  const fs = array(o.faces ?? [], p.key('faces'));
  budget.take(vs.length + fs.length, p);
  if (version >= 2 && fs.length > 0xffff) fail(p.key('faces'), `${fs.length} faces: COL${version} counts them in 16 bits`);
  if (version >= 2 && vs.length > 0x10000) fail(p.key('vertices'), `${vs.length} vertices: COL${version}'s 16-bit indices reach 65536`);
  const vertices = new Float32Array(vs.length * 3);
  vs.forEach((x, i) => {
    const q = p.key('vertices').index(i);
    const c = vec3(x, q);
    let moved = false;
    for (let k = 0; k < 3; k++) {
      let value = c[k]!;
      if (version >= 2) {
        if (!(value >= -256 && value <= MAX_PACKED)) fail(q.index(k), `${value} is beyond COL${version}'s −256 … 255.992 (int16 × 1/128)`);
        const s = snap(value);
        if (s !== value) moved = true;
        value = s;
      }
      vertices[i * 3 + k] = value;
    }
    if (moved) snapped.n++;
  });
  const indices = new Uint32Array(fs.length * 3);
  const surfaces = new Uint8Array(fs.length * 4);
  fs.forEach((f, i) => {
    const q = p.key('faces').index(i);
    let idx: Json;
    let s = base;
    if (Array.isArray(f)) idx = f;
    else {
      const fo = object(f, q, ['v', ...SURFACE_KEYS]);
      idx = fo.v;
      s = surfaceOf(fo, q, version, base, true);
    }
    const ip = Array.isArray(f) ? q : q.key('v');
    const a = array(idx, ip);
    if (a.length !== 3) fail(ip, `a face is 3 vertex indices, got ${a.length}`);
    for (let k = 0; k < 3; k++) indices[i * 3 + k] = int(a[k], ip.index(k), 0, vs.length - 1 < 0 ? -1 : vs.length - 1);
    surfaces.set([s.material, s.flag, s.brightness, s.light], i * 4);
  });
  let mesh: ColMesh = { vertexCount: vs.length, vertices, faceCount: fs.length, indices, surfaces };
  if (version >= 2) mesh = compact(mesh);
  return mesh;
}

/** Drops the vertices after the last one a face refers to (COL2+ stores no vertex count), keeping the order. */
function compact(mesh: ColMesh): ColMesh {
  let max = -1;
  for (let i = 0; i < mesh.faceCount * 3; i++) if (mesh.indices[i]! > max) max = mesh.indices[i]!;
  return { ...mesh, vertexCount: max + 1, vertices: mesh.vertices.slice(0, (max + 1) * 3) };
}

const MODEL_KEYS = ['name', 'modelId', 'version', 'spheres', 'boxes', 'mesh', 'shadow', 'faceGroups'] as const;

function modelOf(v: Json, p: Path, defaultVersion: ColVersion, budget: Budget, snapped: { n: number }, extraKeys: readonly string[] = []): ColModel {
  const o = object(v, p, [...MODEL_KEYS, ...extraKeys]);
  const version = o.version === undefined ? defaultVersion : versionOf(o.version, p.key('version'));
  const name = o.name === undefined ? 'model' : o.name;
  if (typeof name !== 'string') fail(p.key('name'), 'must be a string');
  let nameBytes: Uint8Array;
  try {
    nameBytes = encodeColName(name);
  } catch {
    return fail(p.key('name'), `must be at most ${COL_NAME_BYTES - 1} Latin-1 characters`);
  }
  const modelId = o.modelId === undefined ? 0 : int(o.modelId, p.key('modelId'), 0, 0xffff);
  const spheres = array(o.spheres ?? [], p.key('spheres')).map((s, i) => {
    const q = p.key('spheres').index(i);
    const so = object(s, q, ['center', 'radius', ...SURFACE_KEYS]);
    const radius = Math.fround(num(so.radius, q.key('radius')));
    if (radius < 0) fail(q.key('radius'), 'must not be negative');
    return { center: vec3(so.center, q.key('center')), radius, surface: surfaceOf(so, q, version, { material: 0, flag: 0, brightness: 0, light: 0 }, false) };
  });
  const boxes = array(o.boxes ?? [], p.key('boxes')).map((b, i) => {
    const q = p.key('boxes').index(i);
    const bo = object(b, q, ['min', 'max', ...SURFACE_KEYS]);
    const min = vec3(bo.min, q.key('min'));
    const max = vec3(bo.max, q.key('max'));
    for (let k = 0; k < 3; k++) if (min[k]! > max[k]!) fail(q.key('min').index(k), `min ${min[k]} is above max ${max[k]}`);
    return { min, max, surface: surfaceOf(bo, q, version, { material: 0, flag: 0, brightness: 0, light: 0 }, false) };
  });
  budget.take(spheres.length + boxes.length, p);
  if (version >= 2 && (spheres.length > 0xffff || boxes.length > 0xffff)) fail(p, `COL${version} counts spheres and boxes in 16 bits`);
  let mesh = o.mesh === undefined ? emptyMesh() : meshOf(o.mesh, p.key('mesh'), version, budget, snapped);
  let shadow: ColMesh | null = null;
  if (o.shadow !== undefined) {
    if (version < 3) fail(p.key('shadow'), `COL${version === 1 ? 'L' : '2'} has no shadow mesh (COL3 has)`);
    shadow = meshOf(o.shadow, p.key('shadow'), version, budget, snapped);
    if (shadow.faceCount === 0) fail(p.key('shadow'), 'a shadow mesh needs faces');
  }
  const fg = o.faceGroups ?? 'auto';
  if (fg !== 'auto' && fg !== true && fg !== false) fail(p.key('faceGroups'), 'must be "auto", true or false');
  if (fg === true && version === 1) fail(p.key('faceGroups'), 'COLL has no face groups');
  let faceGroups: ColModel['faceGroups'] = null;
  if (version >= 2 && mesh.faceCount > 0 && (fg === true || (fg === 'auto' && mesh.faceCount > MAX_FACES_PER_GROUP))) {
    const g = groupFaces(mesh);
    mesh = g.mesh;
    faceGroups = g.groups;
  }
  const m: ColModel = {
    version, name, nameBytes, modelId, bounds: { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 }, flags: 0,
    spheres, boxes, lines: new Float32Array(0), mesh, faceGroups, shadow, col4Unknown: 0,
  };
  m.bounds = computeBounds(m);
  m.flags = canonicalFlags(m);
  return m;
}

/** Builds models from a parsed JSON description (see the module comment). Throws FormatError naming the JSON path. */
export function buildColFromDescription(doc: unknown): BuiltCol {
  const root = new Path('$');
  const budget = new Budget();
  const snapped = { n: 0 };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail(root, 'must be an object');
  const o = doc as Record<string, Json>;
  if (o.models !== undefined) {
    const top = object(doc, root, ['version', 'models']);
    const version = top.version === undefined ? 3 : versionOf(top.version, root.key('version'));
    const list = array(top.models, root.key('models'));
    if (list.length === 0) fail(root.key('models'), 'needs at least one model');
    return { models: list.map((m, i) => modelOf(m, root.key('models').index(i), version, budget, snapped)), snapped: snapped.n };
  }
  return { models: [modelOf(doc, root, 3, budget, snapped)], snapped: snapped.n };
}

/** Builds models from a description's bytes (UTF-8 JSON). Throws FormatError. */
export function buildColFromJson(bytes: Uint8Array): BuiltCol {
  let text: string;
  let doc: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `not UTF-8 JSON (${(e as Error).message})`);
  }
  checkJsonDepth(text, DEFAULT_LIMITS.jsonDepth, COL_DESCRIPTION_FORMAT);
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `not UTF-8 JSON (${(e as Error).message})`);
  }
  return buildColFromDescription(doc);
}

/** Options of buildColFromObj. */
export interface ObjBuildOptions {
  /** The version of every model (default 3). */
  version?: ColVersion;
  /** The OBJ's up axis: "y" (default: what Blender's exporter and `retrosim world export` write) or "z" (GTA's own). */
  up?: 'y' | 'z';
  /** The name of a model before any `o` line (default "model"). */
  name?: string;
}

/**
 * Builds models from an OBJ file: `v x y z` vertices, `f` faces (indices from 1, negative ones relative, `a/b/c`
 * forms read for the vertex; polygons fanned into triangles), `o NAME` starts a model, faces after `g shadow`
 * (a group named "shadow" or ending in "shadow") go to the model's shadow mesh, `usemtl NAME` sets the material
 * to the integer NAME ends with (`usemtl 4`, `usemtl gta-surface-4`). `vn`, `vt`, `s`, `mtllib` and comments are
 * ignored; any other statement is an error. With up "y" the OBJ (x, y, z) is GTA's (x, −z, y). Throws FormatError
 * naming the line.
 */
export function buildColFromObj(text: string, options: ObjBuildOptions = {}): BuiltCol {
  const version = options.version ?? 3;
  const up = options.up ?? 'y';
  const verts: number[] = [];
  interface Part {
    name: string;
    line: number;
    faces: number[];
    mats: number[];
    shadowFaces: number[];
    shadowMats: number[];
  }
  const parts: Part[] = [];
  let cur: Part | null = null;
  let shadow = false;
  let material = 0;
  const lines = text.split(/\r?\n/);
  const failAt = (n: number, detail: string): never => {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ line ${n}: ${detail}`);
  };
  const part = (n: number): Part => {
    if (!cur) {
      cur = { name: options.name ?? 'model', line: n, faces: [], mats: [], shadowFaces: [], shadowMats: [] };
      parts.push(cur);
    }
    return cur;
  };
  let elements = 0;
  for (let li = 0; li < lines.length; li++) {
    const n = li + 1;
    const line = lines[li]!.replace(/#.*/, '').trim();
    if (line === '') continue;
    const [kw, ...rest] = line.split(/\s+/);
    if (++elements > MAX_DESCRIPTION_ELEMENTS) failAt(n, `more than ${MAX_DESCRIPTION_ELEMENTS} statements`);
    switch (kw) {
      case 'v': {
        if (rest.length < 3 || rest.length > 4) failAt(n, 'a vertex is "v x y z"');
        const c = rest.slice(0, 3).map((t) => {
          const x = Number(t);
          if (!Number.isFinite(x) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) failAt(n, `${JSON.stringify(t)} is not a finite number`);
          return x;
        });
        if (up === 'y') verts.push(c[0]!, -c[2]! + 0, c[1]!);
        else verts.push(c[0]!, c[1]!, c[2]!);
        break;
      }
      case 'f': {
        if (rest.length < 3) failAt(n, 'a face needs at least 3 vertices');
        const count = verts.length / 3;
        const idx = rest.map((t) => {
          const head = t.split('/')[0]!;
          if (!/^-?\d+$/.test(head)) failAt(n, `${JSON.stringify(t)} is not a vertex index`);
          const k = Number(head);
          const abs = k < 0 ? count + k : k - 1;
          if (k === 0 || abs < 0 || abs >= count) failAt(n, `vertex ${k} does not exist (${count} vertices so far)`);
          return abs;
        });
        const p = part(n);
        for (let k = 1; k + 1 < idx.length; k++) {
          (shadow ? p.shadowFaces : p.faces).push(idx[0]!, idx[k]!, idx[k + 1]!);
          (shadow ? p.shadowMats : p.mats).push(material);
        }
        break;
      }
      case 'o': {
        const name = rest.join(' ');
        if (name === '') failAt(n, 'an object needs a name');
        cur = { name, line: n, faces: [], mats: [], shadowFaces: [], shadowMats: [] };
        parts.push(cur);
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
  const models: BuiltCol['models'] = [];
  let snapped = 0;
  const used = parts.filter((p) => p.faces.length + p.shadowFaces.length > 0);
  if (used.length === 0) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, 'OBJ: no faces');
  for (const p of used) {
    const mesh = (faces: number[], mats: number[]) => {
      const map = new Map<number, number>();
      const vertices: number[][] = [];
      const fs = [];
      for (let f = 0; f < faces.length / 3; f++) {
        const v = [0, 1, 2].map((k) => {
          const old = faces[f * 3 + k]!;
          let nw = map.get(old);
          if (nw === undefined) {
            nw = vertices.length;
            map.set(old, nw);
            vertices.push([verts[old * 3]!, verts[old * 3 + 1]!, verts[old * 3 + 2]!]);
          }
          return nw;
        });
        fs.push({ v, material: mats[f]! });
      }
      return { vertices, faces: fs };
    };
    const doc: Record<string, unknown> = { name: p.name, version };
    if (p.faces.length > 0) doc.mesh = mesh(p.faces, p.mats);
    if (p.shadowFaces.length > 0) {
      if (version < 3) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ line ${p.line}: object ${JSON.stringify(p.name)} has a shadow group, but COL${version === 1 ? 'L' : '2'} has no shadow mesh`);
      doc.shadow = mesh(p.shadowFaces, p.shadowMats);
    }
    try {
      const b = buildColFromDescription(doc);
      models.push(...b.models);
      snapped += b.snapped;
    } catch (e) {
      if (e instanceof FormatError) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `OBJ object ${JSON.stringify(p.name)} (line ${p.line}): ${e.detail}`);
      throw e;
    }
  }
  return { models, snapped };
}
