/**
 * The state WORLD::Generate builds (FIELD's grids, the objects, the hills, the entrance, lake and start) and
 * the small FIELD helpers every step shares (Flat, Hide, CheckArea, CheckMount, SetPosition2, ccGetDist).
 *
 * Heights are EE single-precision floats kept as their u32 bit patterns. Every grid is x-major
 * (index = x · size + y), as the game stores it.
 */
import { FieldRand } from '../../rng/fieldrand.js';
import { eeAdd, eeDiv, eeFromInt, eeMul, eeSqrt, eeSub, eeToInt, sqrtfNewlib } from '../../numeric/ee-float.js';
import type { ObjectRow, PineyTables } from './tables.js';

/** Cells per side of the height map (600 units each). */
export const CELLS = 80;
/** Chips per side of the chip grids (1200 units each = 2 × 2 cells). */
export const CHIPS = 40;
export const CELL_COUNT = CELLS * CELLS;
export const CHIP_COUNT = CHIPS * CHIPS;
/** World units across the field (it is a torus). */
export const FIELD_SIZE = 48000;
/** World units along a height-map cell. */
export const CELL_UNITS = 600;
/** World units along a chip (the grid objects and cover sit on). */
export const CHIP_UNITS = 1200;

/** EE float bit patterns of the constants the generator uses. */
export const F = {
  ZERO: 0x00000000,
  ONE: 0x3f800000,
  MINUS_ONE: 0xbf800000,
  TWO: 0x40000000,
  THREE: 0x40400000,
  MINUS_THREE: 0xc0400000,
  TEN: 0x41200000,
  C600: 0x44160000,
  C1200: 0x44960000,
  C64: 0x42800000,
  C65535: 0x477fff00,
  MINUS_65535: 0xc77fff00,
  C2500: 0x451c4000,
  MINUS_1200: 0xc4960000,
  MINUS_500: 0xc3fa0000,
  C7000: 0x45dac000,
  C8000: 0x45fa0000,
  MINUS_0_001: 0xba83126f,
} as const;

/** The kinds of field object: the dungeon entrance, key items, sub and base objects, trees, the lake. */
export type ObjectKindName = 'entrance' | 'key' | 'sub' | 'base' | 'tree' | 'lake';
/** FOBJECT(2).type values the setters store. */
export const ObjectKind = { entrance: 0, key: 1, sub: 2, base: 3, tree: 4, lake: 7 } as const satisfies Record<ObjectKindName, number>;
/** Every object kind, in the order the generator places them. */
export const OBJECT_KIND_NAMES: readonly ObjectKindName[] = ['entrance', 'key', 'sub', 'base', 'tree', 'lake'];

/** Flat bits of an object row. */
export const FLAT_LEVEL = 0x2;
export const FLAT_LAKE = 0x4;
export const FLAT_SLOPE = 0x8;

/** The loops the game runs "forever" stop with an error after this many tries (the port's NoSite). */
export const MAX_TRIES = 1 << 24;

/**
 * Thrown by the generator when a step finds no site in MAX_TRIES tries, where the game would loop forever;
 * `step` names the step.
 */
export class NoSiteError extends Error {
  override readonly name = 'NoSiteError';
  constructor(readonly step: string) {
    super(`piney field: ${step} found no site in ${MAX_TRIES} tries (the game would loop forever)`);
  }
}

/** What the generator takes: the seed and the field's settings (parsePineyFieldSpec makes them from a spec). */
export interface FieldParams {
  /** fieldSeed, u32. */
  seed: number;
  /** Field type 0–10. */
  fieldType: number;
  /** Background row 0–9 (weather > 9 counts as 9 for Init's draws). */
  weather: number;
  /** Ground 0–2 (hill counts). */
  ground: number;
  /** Object 0–2 (count factor 0.8 / 0.9 / 1.0; any other value → 1.0). */
  object: number;
  /** Story area number (ccGame.field); 0 = a random area. */
  event: number;
  /** The story area's protect flag (EVENTAREA_INFO.protect[1]). */
  protect: boolean;
  /** Start Generate without Init's draws (the port's skip_init). */
  skipInit?: boolean;
  /**
   * ccGetDist's square root: 'sqrtf' (newlib, round to nearest; volumes 1–2, INF and MUT, the default) or
   * 'sqrt.s' (the FPU's truncating root; volumes 3–4, OUT and QUA).
   */
  distSqrt?: 'sqrtf' | 'sqrt.s';
}

/** A hill the generator raised. */
export interface Hill {
  /** The drawn site (cells); the hill itself is written at the even cell (2·(x div 2), 2·(y div 2)). */
  x: number;
  y: number;
  /** Size in cells. */
  size: number;
}

/** An object the generator placed: its kind and table row, footprint (chips), centre and height (EE bits). */
export interface FieldObject {
  kind: ObjectKindName;
  /** Row index in its table. */
  index: number;
  row: ObjectRow;
  /** Footprint corner chip and size in chips. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Centre, EE float bits (SetPosition2). */
  wx: number;
  wy: number;
  /** Height cell of the centre (f2i(wx / 600), f2i(wy / 600)). */
  cellX: number;
  cellY: number;
  /** z, EE float bits: GetHeight at the centre when placed, or 0. */
  z: number;
  /** True when the object levelled (and hid) its site. */
  level: boolean;
}

/** The generator's steps, in order: generateField can stop after any of them. */
export type FieldStage = 'init' | 'makefield' | 'hills' | 'entrance' | 'lake' | 'objects' | 'cover' | 'start';
/** Every FieldStage, in the order the generator runs them. */
export const FIELD_STAGES: readonly FieldStage[] = ['init', 'makefield', 'hills', 'entrance', 'lake', 'objects', 'cover', 'start'];

/**
 * A field as the generator builds it (generateField returns one): the game's grids (heights as EE float bits,
 * x-major), the hills and objects, the entrance, lake, cover and start, and the fieldrand stream it drew from.
 * The methods are the game's FIELD helpers the generator's steps share.
 */
export class PineyField {
  /** The field's fieldrand, after the last step's draws. */
  readonly rng: FieldRand;
  /** FIELD.map: heights, EE float bits. */
  readonly map = new Uint32Array(CELL_COUNT);
  /** InitQuad's snapshot of the heights, which CheckAreaHeight reads. */
  readonly quad = new Uint32Array(CELL_COUNT);
  /** check (0..1599) followed by check2 (1600..3199): one array, because the start scan reads across. */
  readonly check = new Uint8Array(2 * CHIP_COUNT);
  /** check3: chips hidden from the cover (and drawn without a ground tile). */
  readonly check3 = new Uint8Array(CHIP_COUNT);
  /** mnt: chips under a hill. */
  readonly mnt = new Uint8Array(CHIP_COUNT);
  readonly hills: Hill[] = [];
  readonly objects: FieldObject[] = [];
  entrance: [number, number] | null = null;
  /** The entrance's centre, EE float bits (x, y, z = 0). */
  dungeonPos: [number, number, number] | null = null;
  /** The lake object's chip. */
  lake: [number, number] | null = null;
  start: [number, number] | null = null;
  /** Start position, EE float bits. */
  startPos: [number, number, number] = [0, 0, 0];
  /** Cover: per placed cover, its chip, quadrant and SmallMeshName index (SetCover's order, x outer). */
  coverCount = 0;
  readonly coverChip = new Uint16Array(CHIP_COUNT);
  readonly coverQuadrant = new Uint8Array(CHIP_COUNT);
  readonly coverMesh = new Uint16Array(CHIP_COUNT);
  /** fieldrand's count after Init's draws. */
  initDraws = 0;
  /** The last step completed. */
  stage: FieldStage = 'init';

  constructor(
    readonly params: Readonly<FieldParams>,
    readonly tables: PineyTables,
  ) {
    this.rng = new FieldRand(params.seed >>> 0);
  }

  /** SetHeight: indices wrap once at 80; negative heights become 0. */
  setHeight(x: number, y: number, z: number): void {
    if (x >= CELLS) x -= CELLS;
    if (y >= CELLS) y -= CELLS;
    // A negative EE float has the sign bit set and a nonzero exponent; −0 (0x80000000) is not "< 0".
    this.map[x * CELLS + y] = z >= 0x80800000 ? F.ZERO : z;
  }

  /** FIELD::Flat(x, y, w, h): zero the cells [2x, 2x + w) × [2y, 2y + h), each index wrapped once. */
  flat(x: number, y: number, w: number, h: number): void {
    for (let i = 2 * x; i < 2 * x + w; i++) {
      const ci = i >= CELLS ? i - CELLS : i;
      for (let j = 2 * y; j < 2 * y + h; j++) {
        const cj = j >= CELLS ? j - CELLS : j;
        this.map[ci * CELLS + cj] = F.ZERO;
      }
    }
  }

  /** Hide(x, y, w, h): check3 = 1 over the chips [x, x + w) × [y, y + h). */
  hide(x: number, y: number, w: number, h: number): void {
    for (let i = x; i < x + w; i++) for (let j = y; j < y + h; j++) this.check3[i * CHIPS + j] = 1;
  }

  /** CheckArea: any nonzero `check` chip in [x, x2) × [y, y2). */
  checkArea(x: number, y: number, x2: number, y2: number): boolean {
    return anySet(this.check, x, y, x2, y2);
  }

  /** CheckMount: any nonzero `mnt` chip in [x, x2) × [y, y2). */
  checkMount(x: number, y: number, x2: number, y2: number): boolean {
    return anySet(this.mnt, x, y, x2, y2);
  }

  /**
   * Marks an object's footprint in `check`. The game writes check[x·40 + y] linearly, so a footprint running
   * past y = 39 lands in the next chip column and past x = 39 in check2; writes beyond check2 are dropped
   * (no shipped or known table reaches them).
   */
  markFootprint(x: number, y: number, w: number, h: number): void {
    for (let i = x; i < x + w; i++) {
      for (let j = y; j < y + h; j++) {
        const at = i * CHIPS + j;
        if (at < this.check.length) this.check[at] = 1;
      }
    }
  }

  /** SetPosition2: marks the footprint and records the object with its centre; z is filled by the caller. */
  place(kind: ObjectKindName, index: number, row: ObjectRow, x: number, y: number, level: boolean, z: number): FieldObject {
    this.markFootprint(x, y, row.w, row.h);
    const wx = chipCentre(x, row.w);
    const wy = chipCentre(y, row.h);
    const o: FieldObject = {
      kind,
      index,
      row,
      x,
      y,
      w: row.w,
      h: row.h,
      wx,
      wy,
      cellX: eeToInt(eeDiv(wx, F.C600)),
      cellY: eeToInt(eeDiv(wy, F.C600)),
      z,
      level,
    };
    this.objects.push(o);
    return o;
  }

  /** ccGetDist between two EE float points, with this volume's square root. */
  dist(a: readonly number[], b: readonly number[]): number {
    const dx = eeSub(a[0]!, b[0]!);
    const dy = eeSub(a[1]!, b[1]!);
    const dz = eeSub(a[2]!, b[2]!);
    const s = eeAdd(eeAdd(eeMul(dx, dx), eeMul(dy, dy)), eeMul(dz, dz));
    return this.params.distSqrt === 'sqrt.s' ? eeSqrt(s) : sqrtfNewlib(s);
  }

  /** Counts of placed objects by kind. */
  kindCounts(): Record<ObjectKindName, number> {
    const c = { entrance: 0, key: 0, sub: 0, base: 0, tree: 0, lake: 0 };
    for (const o of this.objects) c[o.kind]++;
    return c;
  }
}

function anySet(grid: Uint8Array, x: number, y: number, x2: number, y2: number): boolean {
  for (let i = x; i < x2; i++) {
    const row = i * CHIPS;
    for (let j = y; j < y2; j++) if (grid[row + j] !== 0) return true;
  }
  return false;
}

/** SetPosition2's centre along one axis: 1200·x + (1200·w) / 2, EE arithmetic. */
export function chipCentre(x: number, w: number): number {
  return eeAdd(eeMul(F.C1200, eeFromInt(x)), eeDiv(eeMul(F.C1200, eeFromInt(w)), F.TWO));
}

/** CalcWorldMeshPosition along one axis: 600 + 1200·i, EE arithmetic (a chip's centre). */
export function chipMeshPosition(i: number): number {
  return eeAdd(F.C600, eeMul(F.C1200, eeFromInt(i)));
}
