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
 *
 * Bounded (`limits.gta`): a document's bytes (`descriptionBytes`) and its JSON values (`descriptionValues`,
 * counted by one pass over the text) are checked before it is parsed, so what JSON.parse allocates is in
 * proportion to a bound, not to the file; its elements (`descriptionElements`) as they are read. OBJ files:
 * describe-obj.ts.
 */
import { FormatError } from '../../binary/format-error.js';
import { checkJsonDepth, jsonValuesOver } from '../../binary/json-depth.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
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

/**
 * Most elements one description may hold by default (faces, vertices, spheres, boxes over all models; OBJ
 * statements and triangles): `DEFAULT_LIMITS.gta.descriptionElements`.
 */
export const MAX_DESCRIPTION_ELEMENTS = DEFAULT_LIMITS.gta.descriptionElements;

const MAX_PACKED = 32767 / 128;

type Json = unknown;

/** Where in a description a value is, as a JSON path (`$.models[0].mesh.faces[3][1]`). */
export class Path {
  constructor(readonly text: string) {}
  key(k: string): Path {
    return new Path(`${this.text}.${k}`);
  }
  index(i: number): Path {
    return new Path(`${this.text}[${i}]`);
  }
}

/** Throws the FormatError of a description naming the path. */
export function fail(p: Path, detail: string): never {
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

/** Elements counted over a whole description, against limits.gta.descriptionElements. */
class Budget {
  used = 0;
  constructor(private readonly max: number) {}
  take(n: number, p: Path): void {
    this.used += n;
    if (this.used > this.max) fail(p, `the description holds more than ${this.max} elements (limits.gta.descriptionElements)`);
  }
}

/**
 * Stores vertex `i` of a mesh (its coordinates already float32) as `version` keeps it: COL2/COL3 within
 * −256 … 255.992, snapped to the 1/128 grid. Returns whether snapping moved it; `p` names the vertex in errors.
 */
export function storeVertex(out: Float32Array, i: number, c: readonly number[], version: ColVersion, p: Path): boolean {
  let moved = false;
  for (let k = 0; k < 3; k++) {
    let value = c[k]!;
    if (version >= 2) {
      if (!(value >= -256 && value <= MAX_PACKED)) fail(p.index(k), `${value} is beyond COL${version}'s −256 … 255.992 (int16 × 1/128)`);
      const s = snap(value);
      if (s !== value) moved = true;
      value = s;
    }
    out[i * 3 + k] = value;
  }
  return moved;
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
    if (storeVertex(vertices, i, vec3(x, q), version, q)) snapped.n++;
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
export function compact(mesh: ColMesh): ColMesh {
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
  const nameBytes = nameBytesOf(name, p.key('name'));
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
  const mesh = o.mesh === undefined ? emptyMesh() : meshOf(o.mesh, p.key('mesh'), version, budget, snapped);
  let shadow: ColMesh | null = null;
  if (o.shadow !== undefined) {
    if (version < 3) fail(p.key('shadow'), `COL${version === 1 ? 'L' : '2'} has no shadow mesh (COL3 has)`);
    shadow = meshOf(o.shadow, p.key('shadow'), version, budget, snapped);
    if (shadow.faceCount === 0) fail(p.key('shadow'), 'a shadow mesh needs faces');
  }
  const fg = o.faceGroups ?? 'auto';
  if (fg !== 'auto' && fg !== true && fg !== false) fail(p.key('faceGroups'), 'must be "auto", true or false');
  if (fg === true && version === 1) fail(p.key('faceGroups'), 'COLL has no face groups');
  return finishModel({ version, name, nameBytes, modelId, spheres, boxes, mesh, shadow }, fg);
}

/** A model name's bytes, refused naming `p` when it does not fit. */
export function nameBytesOf(name: string, p: Path): Uint8Array {
  try {
    return encodeColName(name);
  } catch {
    return fail(p, `must be at most ${COL_NAME_BYTES - 1} Latin-1 characters`);
  }
}

/**
 * A model from its checked parts: face groups built for a COL2/COL3 mesh when `fg` asks (`"auto"`: over
 * MAX_FACES_PER_GROUP faces), its bounds computed and its flags set.
 */
export function finishModel(
  parts: Pick<ColModel, 'version' | 'name' | 'nameBytes' | 'modelId' | 'spheres' | 'boxes' | 'mesh' | 'shadow'>,
  fg: 'auto' | boolean,
): ColModel {
  const { version } = parts;
  let mesh = parts.mesh;
  let faceGroups: ColModel['faceGroups'] = null;
  if (version >= 2 && mesh.faceCount > 0 && (fg === true || (fg === 'auto' && mesh.faceCount > MAX_FACES_PER_GROUP))) {
    const g = groupFaces(mesh);
    mesh = g.mesh;
    faceGroups = g.groups;
  }
  const m: ColModel = {
    version, name: parts.name, nameBytes: parts.nameBytes, modelId: parts.modelId, bounds: { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 }, flags: 0,
    spheres: parts.spheres, boxes: parts.boxes, lines: new Float32Array(0), mesh, faceGroups, shadow: parts.shadow, col4Unknown: 0,
  };
  m.bounds = computeBounds(m);
  m.flags = canonicalFlags(m);
  return m;
}

/**
 * Builds models from a parsed JSON description (see the module comment). Throws FormatError naming the JSON
 * path; more elements than `limits.gta.descriptionElements` are refused as they are read.
 */
export function buildColFromDescription(doc: unknown, limits: Readonly<Limits> = DEFAULT_LIMITS): BuiltCol {
  const root = new Path('$');
  const budget = new Budget(limits.gta.descriptionElements);
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

/**
 * Builds models from a description's bytes (UTF-8 JSON). Throws FormatError; bytes over
 * `limits.gta.descriptionBytes`, more JSON values than `limits.gta.descriptionValues` and nesting deeper than
 * `limits.jsonDepth` are refused before the text is parsed.
 */
export function buildColFromJson(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): BuiltCol {
  const maxBytes = limits.gta.descriptionBytes;
  if (bytes.length > maxBytes) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `the description is ${bytes.length} bytes, over the limit of ${maxBytes} bytes (limits.gta.descriptionBytes)`);
  let text: string;
  let doc: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `not UTF-8 JSON (${(e as Error).message})`);
  }
  const maxValues = limits.gta.descriptionValues;
  const at = jsonValuesOver(text, maxValues);
  if (at >= 0) throw new FormatError(COL_DESCRIPTION_FORMAT, at, `more than ${maxValues} JSON values (limits.gta.descriptionValues)`);
  checkJsonDepth(text, limits.jsonDepth, COL_DESCRIPTION_FORMAT);
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `not UTF-8 JSON (${(e as Error).message})`);
  }
  return buildColFromDescription(doc, limits);
}
