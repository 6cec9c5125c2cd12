/**
 * A world's collision geometry as triangles for export (glTF, OBJ): parts by what they are (floors,
 * ceilings, walls, spheres, boxes, meshes, shadow meshes, terrain, objects), each triangle with the id the
 * world's own queries report for it (tile, polygon, triangle, face) and a material, in a right-handed Y-up
 * space in metres: the native units divided by the world's `scale`, its axes turned so that up is +Y
 * without mirroring (docs/formats/ says how for each world).
 */

/** A named material with a stable colour (sRGB bytes). */
export interface ExportMaterial {
  name: string;
  rgb: readonly [number, number, number];
}

/** One part of a world: triangles with an id and a material each. */
export interface ExportPart {
  /** The group the part belongs to (a GTA placement, say), or "" for the world itself. */
  group: string;
  /** What the part is: "floors", "walls", "mesh", "shadow", ... */
  name: string;
  /** Drawn hidden (a GTA shadow mesh, a Llama tile's swap alternative: not solid now). */
  hidden: boolean;
  /** Triangles in this part. */
  count: number;
  /** 9 floats per triangle: three corners, metres, Y up. */
  positions: Float32Array;
  /** Per triangle, the id the world's queries report for it (see the world's docs). */
  ids: Float64Array;
  /** Per triangle, an index into ExportScene.materials. */
  materials: Uint16Array;
}

/** A world's collision geometry ready to write. */
export interface ExportScene {
  /** The world's name. */
  name: string;
  /** The world's kind. */
  kind: string;
  parts: ExportPart[];
  materials: ExportMaterial[];
  /** What `_FLOOR_ID` holds for this world, in words. */
  idMeaning: string;
}

/**
 * Collects triangles for one part (growing typed arrays, no object per triangle). With `countOnly` it only
 * counts them: nothing is kept, and its part's arrays are empty (how an export is counted before it is built).
 */
export class PartBuilder {
  private pos = new Float32Array(0);
  private id = new Float64Array(0);
  private mat = new Uint16Array(0);
  count = 0;

  constructor(
    readonly group: string,
    readonly name: string,
    readonly hidden = false,
    readonly countOnly = false,
  ) {}

  private grow(): void {
    const n = Math.max(64, this.id.length * 2);
    const p = new Float32Array(n * 9);
    p.set(this.pos);
    this.pos = p;
    const i = new Float64Array(n);
    i.set(this.id);
    this.id = i;
    const m = new Uint16Array(n);
    m.set(this.mat);
    this.mat = m;
  }

  /** Adds a triangle (corners already in metres, Y up). */
  tri(a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>, id: number, material: number): void {
    if (this.countOnly) {
      this.count++;
      return;
    }
    if (this.count === this.id.length) this.grow();
    const o = this.count * 9;
    const p = this.pos;
    p[o] = a[0]!;
    p[o + 1] = a[1]!;
    p[o + 2] = a[2]!;
    p[o + 3] = b[0]!;
    p[o + 4] = b[1]!;
    p[o + 5] = b[2]!;
    p[o + 6] = c[0]!;
    p[o + 7] = c[1]!;
    p[o + 8] = c[2]!;
    this.id[this.count] = id;
    this.mat[this.count] = material;
    this.count++;
  }

  /** A quad a-b-c-d as two triangles. */
  quad(a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>, d: ArrayLike<number>, id: number, material: number): void {
    this.tri(a, b, c, id, material);
    this.tri(a, c, d, id, material);
  }

  /** The part, or null when it has no triangles. */
  done(): ExportPart | null {
    if (this.count === 0) return null;
    return {
      group: this.group,
      name: this.name,
      hidden: this.hidden,
      count: this.count,
      positions: this.pos.slice(0, this.count * 9),
      ids: this.id.slice(0, this.count),
      materials: this.mat.slice(0, this.count),
    };
  }
}

/** Material names to indices, in the order first asked for. */
export class MaterialTable {
  readonly list: ExportMaterial[] = [];
  private readonly index = new Map<string, number>();

  /** The index of a material, added with `rgb` the first time its name is asked for. */
  of(name: string, rgb: readonly [number, number, number]): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.list.length;
      this.list.push({ name, rgb });
      this.index.set(name, i);
    }
    return i;
  }
}

/**
 * A stable colour for a small integer: hues spread by the golden ratio (the same number always gives the same
 * colour, neighbours differ).
 */
export function stableColour(i: number): [number, number, number] {
  const hue = ((i * 0.61803398875 + 0.13) % 1) * 6;
  const k = Math.floor(hue);
  const f = hue - k;
  const v = 220;
  const p = 70;
  const q = Math.round(v - (v - p) * f);
  const t = Math.round(p + (v - p) * f);
  return ([[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]] as const)[k % 6]!.slice() as [number, number, number];
}

/** Parts that are not empty. */
export function nonEmpty(builders: readonly PartBuilder[]): ExportPart[] {
  const out: ExportPart[] = [];
  for (const b of builders) {
    const p = b.done();
    if (p) out.push(p);
  }
  return out;
}
