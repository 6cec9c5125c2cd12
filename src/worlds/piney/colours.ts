/**
 * What the renderer draws of the ground: tile and cover vertex heights (SetMESH2 / SetSmallMESH) and the lit
 * vertex colours (InitQuad's face normals, CalcQuadVertexNormal, CalcVertexColor).
 *
 * Exactness: the heights' conversion (s16 fptosi(4096·h / scale)) is the reference's. The lighting follows
 * the reference's description, but the sheet does not give the face-normal formula, the weighting, nor the
 * base vector and order of the light's RotMatrixX/Y/Z, so the colours are an APPROXIMATION (within a few
 * levels of the reference's three vertex colours of story area 14), computed deterministically with EE
 * arithmetic and the EE libm. Drawing only: nothing here feeds the simulation.
 */
import { eeAdd, eeDiv, eeFromInt, eeMul, eeNeg, eeSqrt, eeSub, eeToInt } from '../../numeric/ee-float.js';
import { cosf, sinf } from '../../numeric/libm-ee.js';
import { CELL_COUNT, CELLS, F } from './field-state.js';
import type { Background, PineyTables } from './tables.js';

const C4096 = 0x45800000;
const C300 = 0x43960000;
const C128 = 0x43000000;
const C255 = 0x437f0000;

/** A field's light (its background's ambient and distant light), for the vertex colours. */
export interface FieldLight {
  /** Ambient RGB, EE floats in [0, 1] (byte / 255). */
  ambient: [number, number, number];
  /** Light colour RGB, EE floats in [0, 1]. */
  colour: [number, number, number];
  /** Direction the light travels, EE floats (unit length up to truncation). */
  direction: [number, number, number];
  /** Where it came from: the background file, or "default". */
  source: string;
}

/** The bytes of a packed colour as EE floats byte / 255, red in the low byte (fits the reference's colours). */
function unpackRgb(packed: number): [number, number, number] {
  return [0, 8, 16].map((s) => eeDiv(eeFromInt((packed >>> s) & 0xff), C255)) as [number, number, number];
}

/**
 * The light's direction: the game hands F_DistantLight's vector to RotMatrixX/Y/Z as angles (radians).
 * CONVENTION (not in the sheet): the rotations Rz(c)·Rx(a)·Ry(b) applied to (1, 0, 0), the best of the 72
 * order/base-vector candidates against the reference's vertex colours.
 */
export function lightDirection(rotation: readonly [number, number, number]): [number, number, number] {
  const [a, b, c] = rotation;
  // Ry(b)·(1, 0, 0) = (cos b, 0, −sin b)
  const x0 = cosf(b);
  const z0 = eeNeg(sinf(b));
  // Rx(a): (x, y cos a − z sin a, y sin a + z cos a) with y = 0
  const y1 = eeNeg(eeMul(z0, sinf(a)));
  const z1 = eeMul(z0, cosf(a));
  // Rz(c): (x cos c − y sin c, x sin c + y cos c, z)
  const x2 = eeSub(eeMul(x0, cosf(c)), eeMul(y1, sinf(c)));
  const y2 = eeAdd(eeMul(x0, sinf(c)), eeMul(y1, cosf(c)));
  return [x2, y2, z1];
}

/** The type and weather's light from the tables; story area 14's (bg_p1) when the tables have none. */
export function fieldLight(tables: PineyTables, fieldType: number, weather: number): FieldLight {
  const bg: Background | undefined =
    tables.backgrounds.find((b) => b.fieldType === fieldType && b.weather === weather) ?? tables.backgrounds[0];
  const b = bg ?? { file: 'default', ambient: 0x8094786e, rotation: [0x420d0ebc, 0x41f00000, 0x420d0ebc] as [number, number, number], colour: 0x00dff0f7 };
  return {
    ambient: unpackRgb(b.ambient),
    colour: unpackRgb(b.colour),
    direction: lightDirection(b.rotation),
    source: bg && bg.fieldType === fieldType && bg.weather === weather ? b.file : `default (${b.file})`,
  };
}

const wrap = (i: number): number => (i < 0 ? i + CELLS : i >= CELLS ? i - CELLS : i);

function normalizeInto(out: Uint32Array, at: number, x: number, y: number, z: number): void {
  const len = eeSqrt(eeAdd(eeAdd(eeMul(x, x), eeMul(y, y)), eeMul(z, z)));
  const r = eeDiv(F.ONE, len);
  out[at] = eeMul(x, r);
  out[at + 1] = eeMul(y, r);
  out[at + 2] = eeMul(z, r);
}

/**
 * InitQuad's face normals: per cell two, T0 (corners (0,0), (0,1), (1,1)) and T1 ((0,0), (1,0), (1,1)) —
 * the same split GetHeight uses — as (−slope x, −slope y, 1) normalised. faces[(cell · 2 + t) · 3 + axis].
 */
export function faceNormals(quad: Uint32Array): Uint32Array {
  const out = new Uint32Array(CELL_COUNT * 6);
  for (let x = 0; x < CELLS; x++) {
    for (let y = 0; y < CELLS; y++) {
      const h00 = quad[x * CELLS + y]!;
      const h01 = quad[x * CELLS + wrap(y + 1)]!;
      const h10 = quad[wrap(x + 1) * CELLS + y]!;
      const h11 = quad[wrap(x + 1) * CELLS + wrap(y + 1)]!;
      const at = (x * CELLS + y) * 6;
      normalizeInto(out, at, eeNeg(eeDiv(eeSub(h11, h01), F.C600)), eeNeg(eeDiv(eeSub(h01, h00), F.C600)), F.ONE);
      normalizeInto(out, at + 3, eeNeg(eeDiv(eeSub(h10, h00), F.C600)), eeNeg(eeDiv(eeSub(h11, h10), F.C600)), F.ONE);
    }
  }
  return out;
}

/**
 * CalcQuadVertexNormal: the six faces around vertex (x, y), normalised. The game's slip is kept: the face
 * of quad (x + 1, y − 1) is taken where quad (x, y − 1)'s was meant.
 */
export function vertexNormals(faces: Uint32Array): Uint32Array {
  const out = new Uint32Array(CELL_COUNT * 3);
  const pick: [number, number, number][] = [
    [0, 0, 0], [0, 0, 1], [-1, -1, 0], [-1, -1, 1], [-1, 0, 1],
    // meant [0, -1, 0]
    [1, -1, 0],
  ];
  for (let x = 0; x < CELLS; x++) {
    for (let y = 0; y < CELLS; y++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (const [dx, dy, t] of pick) {
        const at = ((wrap(x + dx) * CELLS + wrap(y + dy)) * 2 + t) * 3;
        sx = eeAdd(sx, faces[at]!);
        sy = eeAdd(sy, faces[at + 1]!);
        sz = eeAdd(sz, faces[at + 2]!);
      }
      normalizeInto(out, (x * CELLS + y) * 3, sx, sy, sz);
    }
  }
  return out;
}

/** CalcVertexColor: 128 · (ambient + max(0, −n·L) · colour) per channel, clamped to 0–255. RGB bytes per cell. */
export function vertexColours(normals: Uint32Array, light: FieldLight): Uint8Array {
  const out = new Uint8Array(CELL_COUNT * 3);
  const [lx, ly, lz] = light.direction;
  for (let c = 0; c < CELL_COUNT; c++) {
    const n = c * 3;
    let d = eeNeg(eeAdd(eeAdd(eeMul(normals[n]!, lx), eeMul(normals[n + 1]!, ly)), eeMul(normals[n + 2]!, lz)));
    if (d >= 0x80000000) d = F.ZERO;
    for (let k = 0; k < 3; k++) {
      const v = eeToInt(eeMul(C128, eeAdd(light.ambient[k]!, eeMul(d, light.colour[k]!))));
      out[n + k] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return out;
}

/** The lit colours of a field's current heights (InitQuad's snapshot) under its type and weather's light. */
export function fieldColours(quad: Uint32Array, light: FieldLight): Uint8Array {
  return vertexColours(vertexNormals(faceNormals(quad)), light);
}

/** s16 fptosi(4096 · h / scale): how SetMESH2 (scale 600) and SetSmallMESH (scale 300) store a height. */
export function meshHeight(h: number, scale: number): number {
  return (eeToInt(eeDiv(eeMul(C4096, h), scale)) << 16) >> 16;
}

/**
 * A ground tile's vertex heights: the 3 × 3 cell corners (2mx + dx, 2my + dy), dx outer, as SetMESH2 stores
 * them. The game's 24-vertex template picks from these (its vertex → cell table is mesh data).
 */
export function tileHeights(map: Uint32Array, mx: number, my: number): Int16Array {
  const out = new Int16Array(9);
  for (let dx = 0; dx < 3; dx++) {
    for (let dy = 0; dy < 3; dy++) out[dx * 3 + dy] = meshHeight(map[wrap(2 * mx + dx) * CELLS + wrap(2 * my + dy)]!, F.C600);
  }
  return out;
}

/** A cover's corner heights (scale 300): the 2 × 2 corners of cell (2i + (q & 1), 2j + (q >> 1)). */
export function coverHeights(map: Uint32Array, i: number, j: number, quadrant: number): Int16Array {
  const out = new Int16Array(4);
  const cx = 2 * i + (quadrant & 1);
  const cy = 2 * j + (quadrant >> 1);
  for (let dx = 0; dx < 2; dx++) {
    for (let dy = 0; dy < 2; dy++) out[dx * 2 + dy] = meshHeight(map[wrap(cx + dx) * CELLS + wrap(cy + dy)]!, C300);
  }
  return out;
}
