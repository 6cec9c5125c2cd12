/**
 * The Piney (.hack) field generator's game data: Init's draw counts, hill counts and sizes, object counts,
 * divisions and percentages, the story areas without an entrance, the lake and tree-row field types, the six
 * FOBJECT_TABLEs (object rows) and the cover mesh lists.
 *
 * Most of it lives in the game's executable and is not public, so it is loaded from JSON
 * (`assets/piney/field-tables.json`, schema `assets/piney/field-tables.schema.json`, read at the edges: the
 * Node loader in src/node/assets.ts, the sandbox by fetch) and validated here:
 * anything malformed is a FormatError naming the JSON path, never another exception, and every number the
 * generator uses as a modulus or a grid extent is range-checked so the generator cannot index out of its
 * grids or divide by zero.
 */
import { FormatError } from '../../binary/format-error.js';
import { parseJsonBytes } from './json-bytes.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';

const FORMAT = 'piney tables';
/** The value of a tables file's `"format"` key. */
export const TABLES_FORMAT_ID = 'retrosim-piney-tables';
/** Field types 0–10 (the 11 FOBJECT_TABLE entries). */
export const FIELD_TYPE_COUNT = 11;
/** Background rows (weathers) 0–9; Init's table has a column for each. */
export const WEATHER_COUNT = 10;
/** Chips per side of the 40 × 40 chip grids. */
const CHIPS = 40;
/** A tables file larger than this is refused before parsing. */
export const MAX_TABLES_BYTES = DEFAULT_LIMITS.piney.tablesBytes;

/** The six object tables (FOBJECT_TABLEs): the entrance, the lake, key items, sub and base objects, trees. */
export type TableKind = 'enter' | 'lake' | 'key' | 'sub' | 'base' | 'tree';
/** Every TableKind. */
export const TABLE_KINDS: readonly TableKind[] = ['enter', 'lake', 'key', 'sub', 'base', 'tree'];

/** One FOBJECT_INFO_TABLE row. Only w, h, flat (and the names, for drawing) are read by the game. */
export interface ObjectRow {
  anm: string | null;
  clump: string;
  /** 0–3; never read by the game. */
  type: number;
  w: number;
  h: number;
  /** 0–2; never read by the game (no field object is rotated). */
  rotflag: number;
  /** Bits: 0x2 level + hide from cover, 0x4 lake piece, 0x8 slope (height span) test. */
  flat: number;
}

/** How big a hill is drawn. */
export interface HillSize {
  /** fieldrand modulus. */
  range: number;
  /** Added to the draw: size = fieldrand(range) + base (cells). */
  base: number;
}

/** The object kinds whose count the tables set per field type. */
export type CountedKind = 'key' | 'sub' | 'base' | 'tree';

/** A field type whose count of one kind is divided. */
export interface Division {
  fieldType: number;
  kind: CountedKind;
  /** The divisor. */
  by: number;
}

/** A background (a field type and weather): its file and its light. */
export interface Background {
  fieldType: number;
  weather: number;
  file: string;
  /** F_Ambient as 0xAABBGGRR-style packed bytes (as the reference prints it). */
  ambient: number;
  /** F_DistantLight's rotation, three EE float bit patterns (the game treats them as angles). */
  rotation: [number, number, number];
  /** The light's colour, packed bytes. */
  colour: number;
}

/**
 * The generator's game data, validated (loadPineyTables reads it from JSON): Init's draw counts, hill counts and
 * sizes, object counts and tables, cover models, backgrounds.
 */
export interface PineyTables {
  /** True when any part is synthetic (not the game's own data). */
  synthetic: boolean;
  /** What is synthetic and why, from the file. */
  note: string;
  /** initDraws[type][weather]: draws WORLD::Init burns. */
  initDraws: number[][];
  /** Per ground 0–2: small and large hill counts. */
  hillCounts: { small: number; large: number }[];
  largeHill: HillSize;
  smallHill: HillSize;
  objectCounts: Record<CountedKind, number>;
  divisions: Division[];
  /** Per `object` 0–2: the count factor as an EE float bit pattern. */
  percent: number[];
  noEntranceEvents: number[];
  lakeFieldTypes: number[];
  treeRowTypes: number[];
  /** objects[kind][fieldType] = the rows of that FOBJECT_TABLE entry (shared arrays are the same object). */
  objects: Record<TableKind, ObjectRow[][]>;
  /** The row-array name each entry points at, objectArrayNames[kind][fieldType]. */
  objectArrayNames: Record<TableKind, string[]>;
  /** SmallMeshName[type]: the cover models; its length is a fieldrand modulus in SetCover. */
  smallMeshNames: string[][];
  /** BaseMeshName[type]: the ground tile model (drawing only). */
  baseMeshNames: string[][];
  backgrounds: Background[];
}

/** Throws the loader's FormatError for a JSON path. */
function bad(path: string, detail: string): never {
  throw new FormatError(FORMAT, -1, `${path}: ${detail}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, path: string): Record<string, unknown> {
  if (!isObject(v)) bad(path, 'must be an object');
  return v;
}

function arr(v: unknown, path: string, minLen = 0, maxLen = 100_000): unknown[] {
  if (!Array.isArray(v)) bad(path, 'must be an array');
  if (v.length < minLen || v.length > maxLen) bad(path, `must have ${minLen}..${maxLen} entries, has ${v.length}`);
  return v;
}

function int(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) bad(path, `must be an integer ${min}..${max}`);
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 200) bad(path, 'must be a non-empty string');
  return v;
}

/** A u32 given as a number or as a "0x…" string (bit patterns read better in hex). */
function u32(v: unknown, path: string): number {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,8}$/.test(v)) return Number.parseInt(v.slice(2), 16) >>> 0;
  return int(v, path, 0, 0xffffffff);
}

function intList(v: unknown, path: string, min: number, max: number, maxLen = 1000): number[] {
  return arr(v, path, 0, maxLen).map((x, i) => int(x, `${path}[${i}]`, min, max));
}

function row(v: unknown, path: string): ObjectRow {
  const o = obj(v, path);
  const anm = o.anm === null || o.anm === undefined ? null : str(o.anm, `${path}.anm`);
  return {
    anm,
    clump: str(o.clump, `${path}.clump`),
    type: int(o.type, `${path}.type`, 0, 255),
    // fieldrand(40 - w) needs w < 40; the footprint needs w ≥ 1.
    w: int(o.w, `${path}.w`, 1, CHIPS - 1),
    h: int(o.h, `${path}.h`, 1, CHIPS - 1),
    rotflag: int(o.rotflag, `${path}.rotflag`, 0, 255),
    flat: int(o.flat, `${path}.flat`, 0, 255),
  };
}

function hillSize(v: unknown, path: string): HillSize {
  const o = obj(v, path);
  const range = int(o.range, `${path}.range`, 1, 76);
  // FRACTAL2 needs size div 4 ≥ 1 (a zero span would divide by zero) and fieldrand(80 - size) needs size < 80.
  const base = int(o.base, `${path}.base`, 4, 79 - range);
  return { range, base };
}

/** Validates a parsed tables object and resolves the table entries to their row arrays. */
export function parsePineyTables(json: unknown): PineyTables {
  const root = obj(json, '$');
  if (root.format !== TABLES_FORMAT_ID) bad('$.format', `must be "${TABLES_FORMAT_ID}"`);
  int(root.version, '$.version', 1, 1);
  const syn = root.synthetic === undefined ? {} : obj(root.synthetic, '$.synthetic');
  const synthetic = Object.values(syn).some((x) => x === true);
  const note = typeof root.note === 'string' ? root.note : '';

  const initDraws = arr(root.initDraws, '$.initDraws', FIELD_TYPE_COUNT, FIELD_TYPE_COUNT).map((r, t) =>
    intList(r, `$.initDraws[${t}]`, 0, 1_000_000).map((x) => x),
  );
  initDraws.forEach((r, t) => {
    if (r.length !== WEATHER_COUNT) bad(`$.initDraws[${t}]`, `must have ${WEATHER_COUNT} entries`);
  });

  const hills = obj(root.hills, '$.hills');
  const hillCounts = arr(hills.perGround, '$.hills.perGround', 3, 3).map((g, i) => {
    const o = obj(g, `$.hills.perGround[${i}]`);
    return {
      small: int(o.small, `$.hills.perGround[${i}].small`, 0, 64),
      large: int(o.large, `$.hills.perGround[${i}].large`, 0, 64),
    };
  });
  const largeHill = hillSize(hills.large, '$.hills.large');
  const smallHill = hillSize(hills.small, '$.hills.small');

  const oc = obj(root.objectCounts, '$.objectCounts');
  const objectCounts = {
    key: int(oc.key, '$.objectCounts.key', 0, 10_000),
    sub: int(oc.sub, '$.objectCounts.sub', 0, 10_000),
    base: int(oc.base, '$.objectCounts.base', 0, 10_000),
    tree: int(oc.tree, '$.objectCounts.tree', 0, 10_000),
  };
  const divisions = arr(root.divisions, '$.divisions', 0, 100).map((d, i): Division => {
    const o = obj(d, `$.divisions[${i}]`);
    const kind = o.kind as CountedKind;
    if (kind !== 'key' && kind !== 'sub' && kind !== 'base' && kind !== 'tree') bad(`$.divisions[${i}].kind`, 'must be key, sub, base or tree');
    return { fieldType: int(o.fieldType, `$.divisions[${i}].fieldType`, 0, 10), kind, by: int(o.by, `$.divisions[${i}].by`, 1, 1000) };
  });
  const percent = arr(root.percent, '$.percent', 3, 3).map((p, i) => {
    const bits = u32(p, `$.percent[${i}]`);
    // A factor above ~1.0 could only raise the counts; refuse anything outside [0, 1] (0x3f800000).
    if (bits > 0x3f800000) bad(`$.percent[${i}]`, 'must be an EE float in [0, 1]');
    return bits;
  });
  const noEntranceEvents = intList(root.noEntranceEvents, '$.noEntranceEvents', 1, 0xffff);
  const lakeFieldTypes = intList(root.lakeFieldTypes, '$.lakeFieldTypes', 0, 10, 11);
  const treeRowTypes = intList(root.treeRowTypes, '$.treeRowTypes', 0, 10, 11);

  const ot = obj(root.objectTables, '$.objectTables');
  const rowsObj = obj(ot.rows, '$.objectTables.rows');
  const rowArrays = new Map<string, ObjectRow[]>();
  for (const name of Object.keys(rowsObj).sort()) {
    const p = `$.objectTables.rows.${name}`;
    rowArrays.set(name, arr(rowsObj[name], p, 1, 1000).map((r, i) => row(r, `${p}[${i}]`)));
  }
  const objects = {} as Record<TableKind, ObjectRow[][]>;
  const objectArrayNames = {} as Record<TableKind, string[]>;
  for (const kind of TABLE_KINDS) {
    const p = `$.objectTables.${kind}`;
    const names = arr(ot[kind], p, FIELD_TYPE_COUNT, FIELD_TYPE_COUNT).map((n, t) => str(n, `${p}[${t}]`));
    objectArrayNames[kind] = names;
    objects[kind] = names.map((n, t) => {
      const rows = rowArrays.get(n);
      if (!rows) bad(`${p}[${t}]`, `names a row array "${n}" that is not in $.objectTables.rows`);
      return rows;
    });
  }
  for (const t of lakeFieldTypes) {
    for (const [i, r] of objects.lake[t]!.entries()) {
      // The lake sits at chip (x + 1, y + 1) with x ≤ 36, so its footprint must fit in 3 chips.
      if (r.w > 3 || r.h > 3) bad(`$.objectTables.rows.${objectArrayNames.lake[t]}[${i}]`, 'a lake row must be at most 3 × 3');
    }
  }
  for (const t of treeRowTypes) {
    // SetTreeObject_B places rows 0–4 as the row pieces.
    if (objects.tree[t]!.length < 5) bad(`$.objectTables.rows.${objectArrayNames.tree[t]}`, `field type ${t} makes tree rows and needs at least 5 rows`);
  }

  const meshList = (v: unknown, p: string) =>
    arr(v, p, FIELD_TYPE_COUNT, FIELD_TYPE_COUNT).map((l, t) => arr(l, `${p}[${t}]`, 1, 1000).map((n, i) => str(n, `${p}[${t}][${i}]`)));
  const smallMeshNames = meshList(root.smallMeshNames, '$.smallMeshNames');
  const baseMeshNames = meshList(root.baseMeshNames, '$.baseMeshNames');

  const backgrounds = arr(root.backgrounds ?? [], '$.backgrounds', 0, 200).map((b, i) => {
    const p = `$.backgrounds[${i}]`;
    const o = obj(b, p);
    const rot = arr(o.rotation, `${p}.rotation`, 3, 3).map((x, k) => u32(x, `${p}.rotation[${k}]`));
    return {
      fieldType: int(o.fieldType, `${p}.fieldType`, 0, 10),
      weather: int(o.weather, `${p}.weather`, 0, WEATHER_COUNT - 1),
      file: str(o.file, `${p}.file`),
      ambient: u32(o.ambient, `${p}.ambient`),
      rotation: [rot[0]!, rot[1]!, rot[2]!] as [number, number, number],
      colour: u32(o.colour, `${p}.colour`),
    };
  });

  return {
    synthetic,
    note,
    initDraws,
    hillCounts,
    largeHill,
    smallHill,
    objectCounts,
    divisions,
    percent,
    noEntranceEvents,
    lakeFieldTypes,
    treeRowTypes,
    objects,
    objectArrayNames,
    smallMeshNames,
    baseMeshNames,
    backgrounds,
  };
}

/** Parses and validates a tables file's bytes (UTF-8 JSON). */
export function loadPineyTables(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): PineyTables {
  const json = parseJsonBytes(bytes, FORMAT, limits.piney.tablesBytes, 'limits.piney.tablesBytes');
  return parsePineyTables(json);
}

/** The shipped tables' file name under assets/piney/. */
export const DEFAULT_TABLES_FILE = 'field-tables.json';
