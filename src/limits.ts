/**
 * Resource limits for everything that reads outside data: world files and their partners, the Piney tables,
 * replays, dropped files in the sandbox, agent counts.
 *
 * The parsers already refuse any count that does not fit in the bytes left, so a hostile file cannot make them
 * allocate more than a small multiple of its own size. These limits bound the size itself and the element
 * counts a legitimate-looking file may declare, so that a file that is well formed but absurd (a 200 MB world
 * of ten million walls, a replay of a billion frames) is refused with a FormatError up front instead of taking
 * minutes and gigabytes. The defaults are far above any real level of the five games (see the figures beside
 * each) and far below what would exhaust a 2 GB process.
 *
 * Every loader takes an optional `limits` argument defaulting to DEFAULT_LIMITS; `resolveLimits` builds a
 * full, validated set from a partial one (e.g. `resolveLimits({ replay: { frames: 1e6 } })`).
 * Documented in docs/reliability.md.
 */
import { FormatError } from './binary/format-error.js';

/** The resource limits a loader applies: file sizes in bytes and the element counts a file may declare. */
export interface Limits {
  /** Any one input file (world file, partner file, table file, replay, dropped file), bytes. */
  fileBytes: number;
  rugrats: {
    /** Normals in the floor table, and in the ceiling table (a real LEVELnn.COL has a few hundred). */
    normals: number;
    /** Cells plus tiles over all columns (real levels: a few thousand). */
    cellsAndTiles: number;
  };
  llama: {
    /** Models in a TRAK (real tracks: under 256). */
    models: number;
    /** Tiles in a MAP (real maps: a grid of at most a few thousand). */
    tiles: number;
    /** Region-map cells, width × height. */
    gridCells: number;
  };
  colbin: {
    floors: number;
    walls: number;
    /** Broad-phase grid cells of a version-2 file. */
    gridCells: number;
  };
  gta: {
    /** Models in one COL file (a real IMG archive's largest COL holds a few hundred). Each model's own
     * counts are bounded by its size field (and COL2+ counts are 16-bit). */
    models: number;
    /** Placed instances from a placements file (GTA San Andreas places well under 100,000 in its whole map).
     * A placements file may hold at most this many × 256 bytes, checked before it is read. */
    placements: number;
    /** A model description (JSON or OBJ) that `col build` reads, bytes (OBJ text: characters). */
    descriptionBytes: number;
    /** JSON values in a description (numbers, strings, arrays, objects), counted before it is parsed. */
    descriptionValues: number;
    /**
     * Elements of a description: JSON spheres, boxes, vertices and faces over all models; OBJ statements,
     * and the triangles its faces are fanned into, each over the whole file.
     */
    descriptionElements: number;
    /** Characters in one line of an OBJ description. */
    objLineChars: number;
    /** Vertices of one OBJ face (a polygon, fanned into triangles). */
    objFaceVertices: number;
  };
  piney: {
    /** A field spec (a JSON of a few numbers). */
    specBytes: number;
    /** The field tables JSON. */
    tablesBytes: number;
  };
  replay: {
    /** Frames in one replay (at 60 frames a second, the default is over 12 days). */
    frames: number;
    /** Keyframes in one replay. */
    keyframes: number;
    /** One keyframe's encoded snapshot, bytes. */
    snapshotBytes: number;
    /**
     * Values one snapshot may decode to (every number, string, array, object and typed array, array elements
     * and object entries included): the decoder's heap bound (a real keyframe holds a few thousand).
     */
    snapshotValues: number;
    /** Arrays and objects one snapshot may decode to (a real keyframe holds a few hundred). */
    snapshotObjects: number;
    /**
     * Agents a replay's header may ask a re-simulation (verify, seek, the sandbox) to place: each costs up
     * to 64 world queries to place and its share of every frame. Recording allows up to `agents`.
     */
    agents: number;
    /** Entity capacity a replay's header may ask for (component arrays of about 120 bytes per entity). */
    capacity: number;
    /** ccRand init count (draws discarded at set-up) a replay's header may ask for. */
    ccRandInit: number;
    /** Agents × frames a re-simulation may be asked to run (the work of verifying or seeking). */
    agentFrames: number;
  };
  /** Wandering agents a scenario may place. */
  agents: number;
  /** A scenario module file, bytes. */
  scenarioBytes: number;
  /**
   * Nesting of arrays and objects in any JSON input (a batch file, a results line, GTA placements, Piney
   * specs and tables), checked before it is parsed; real ones nest under 8 deep.
   */
  jsonDepth: number;
  batch: {
    /** A batch file (JSON), bytes. */
    fileBytes: number;
    /** Jobs one batch file may describe, after its sweeps are multiplied out and its replay globs expanded. */
    jobs: number;
    /** Files a replay folder or glob may visit while it is expanded. */
    globEntries: number;
    /** One job's description as it travels to a worker (JSON, inputs named by hash), bytes. */
    payloadBytes: number;
    /** One input (a world file, a partner file, a scenario module, a replay) put in Redis, bytes. */
    blobBytes: number;
    /** One job's result (JSON, without its replay), bytes. */
    resultBytes: number;
    /** A replay a job keeps, bytes. */
    replayBytes: number;
  };
}

/**
 * The limits every loader uses when given none (frozen): 256 MiB per file, counts far above any real level of
 * the five games.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = deepFreeze({
  fileBytes: 256 * 1024 * 1024,
  rugrats: { normals: 1 << 20, cellsAndTiles: 1 << 22 },
  llama: { models: 1 << 16, tiles: 1 << 20, gridCells: 1 << 22 },
  colbin: { floors: 1 << 22, walls: 1 << 22, gridCells: 1 << 22 },
  gta: { models: 1 << 16, placements: 1 << 18, descriptionBytes: 64 * 1024 * 1024, descriptionValues: 1 << 22, descriptionElements: 1 << 22, objLineChars: 1 << 16, objFaceVertices: 1024 },
  piney: { specBytes: 64 * 1024, tablesBytes: 4 * 1024 * 1024 },
  replay: {
    frames: 1 << 26,
    keyframes: 1 << 20,
    snapshotBytes: 64 * 1024 * 1024,
    snapshotValues: 1 << 20,
    snapshotObjects: 1 << 16,
    agents: 10_000,
    capacity: 1 << 14,
    ccRandInit: 1_000_000,
    agentFrames: 1 << 30,
  },
  agents: 100_000,
  scenarioBytes: 4 * 1024 * 1024,
  jsonDepth: 64,
  batch: {
    fileBytes: 1024 * 1024,
    jobs: 100_000,
    globEntries: 1_000_000,
    payloadBytes: 64 * 1024,
    blobBytes: 64 * 1024 * 1024,
    resultBytes: 256 * 1024,
    replayBytes: 64 * 1024 * 1024,
  },
});

/** Limits with some values replaced: every other value is the default's. */
export type LimitsOverride = {
  [K in keyof Limits]?: Limits[K] extends number ? number : Partial<Limits[K]>;
};

/**
 * A full set of limits: the defaults with `over` applied. Throws a RangeError naming the entry when a value
 * is not a positive safe integer or an entry is unknown (a misspelt limit must not be silently ignored).
 */
export function resolveLimits(over: LimitsOverride = {}): Limits {
  const out = JSON.parse(JSON.stringify(DEFAULT_LIMITS)) as Limits;
  const base = out as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    if (!(key in base)) throw new RangeError(`unknown limit ${JSON.stringify(key)}`);
    const cur = base[key];
    if (typeof cur === 'number') {
      base[key] = checkLimitValue(key, value);
      continue;
    }
    if (typeof value !== 'object' || value === null) throw new RangeError(`limit ${key} must be an object`);
    const group = cur as Record<string, number>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      if (!(k in group)) throw new RangeError(`unknown limit ${key}.${k}`);
      group[k] = checkLimitValue(`${key}.${k}`, v);
    }
  }
  return deepFreeze(out);
}

function checkLimitValue(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new RangeError(`limit ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/** Throws a FormatError when an input of `length` bytes is over the file limit. */
export function checkFileBytes(format: string, length: number, limits: Readonly<Limits> = DEFAULT_LIMITS, what = 'file'): void {
  if (length > limits.fileBytes) {
    throw new FormatError(format, -1, `${what} is ${length} bytes, over the limit of ${limits.fileBytes} bytes (limits.fileBytes)`);
  }
}

/**
 * Throws a FormatError when a declared element count is over its limit; `name` is the limit's path (e.g.
 * "gta.elementsPerModel"), so the message says which setting to raise.
 */
export function checkLimit(format: string, offset: number, what: string, count: number, max: number, name: string): void {
  if (count > max) throw new FormatError(format, offset, `${what}: ${count} is over the limit of ${max} (limits.${name})`);
}

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
