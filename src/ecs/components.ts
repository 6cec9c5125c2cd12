/**
 * The simulation's components: structure-of-arrays typed arrays of a fixed capacity, owned by the project and
 * registered with bitecs 0.4 (which accepts any object as a component). Each simulation makes its own set, so
 * several simulations (a re-simulation, a synctest shadow) can live side by side.
 *
 * Every field is a typed array indexed by entity id. Positions and sizes are float64, which holds the integer
 * coordinates of integer worlds exactly, in the world's native units.
 */

export type FieldArray = Float64Array | Int32Array | Uint32Array | Uint8Array;

/** One component: a name (used in hashes, snapshots and desync reports) and its named field arrays. */
export interface ComponentStore {
  readonly name: string;
  /** Bit of this component in the project's own per-entity membership mask. */
  readonly bit: number;
  readonly fields: Readonly<Record<string, FieldArray>>;
  /** Field names in a fixed order (declaration order): the order hashes and snapshots use. */
  readonly fieldNames: readonly string[];
}

export interface Vec3Store extends ComponentStore {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
}

/** Angles are integers in 1/65536 of a turn (the PlayStation/PS2 habit), so turning is exact. */
export const ANGLE_UNITS_PER_TURN = 65536;

export interface Components {
  readonly capacity: number;
  /** Where an entity stands (its feet), native units. */
  readonly Position: Vec3Store;
  /** Intended displacement per frame, native units. */
  readonly Velocity: Vec3Store;
  /** Facing angle about the up axis, 0..65535 (see ANGLE_UNITS_PER_TURN). */
  readonly Heading: ComponentStore & { readonly angle: Int32Array };
  /** The moving body: an upright capsule of `radius` and `height`, native units. */
  readonly BodySize: ComponentStore & { readonly radius: Float64Array; readonly height: Float64Array; readonly step: Float64Array };
  /** Buttons held this frame and last frame (bitmask, see src/systems/input.ts). */
  readonly Controller: ComponentStore & { readonly buttons: Uint32Array; readonly previous: Uint32Array };
  /** A wandering agent: frames until it picks a new heading, and its walking speed (native units per frame). */
  readonly Agent: ComponentStore & { readonly timer: Int32Array; readonly speed: Float64Array };
  /** What an entity can see: range (native units), the entity it watches (0 = none), and whether it is visible. */
  readonly Sight: ComponentStore & { readonly range: Float64Array; readonly target: Int32Array; readonly visible: Uint8Array };
  /**
   * The result of the last move: standing on a floor (1/0), touched a wall (1/0), the id of the last wall
   * touched (-1 none), and how many moves so far touched a wall.
   */
  readonly Motion: ComponentStore & {
    readonly grounded: Uint8Array;
    readonly hitWall: Uint8Array;
    readonly contact: Int32Array;
    readonly blocked: Uint32Array;
  };
  /** All stores in a fixed order: the order of hashes, snapshots and reports. */
  readonly all: readonly ComponentStore[];
}

function store<F extends Record<string, FieldArray>>(name: string, bit: number, fields: F): ComponentStore & F {
  return Object.assign({ name, bit, fields, fieldNames: Object.keys(fields) }, fields);
}

/** Largest capacity accepted: 2^20 entities (about 125 MB of component arrays, 119 bytes per entity). */
export const MAX_CAPACITY = 1 << 20;

export function createComponents(capacity: number): Components {
  if (!Number.isInteger(capacity) || capacity < 2 || capacity > MAX_CAPACITY) {
    throw new RangeError(`component capacity must be an integer in 2..${MAX_CAPACITY}, got ${capacity}`);
  }
  const f64 = () => new Float64Array(capacity);
  const Position = store('Position', 0, { x: f64(), y: f64(), z: f64() });
  const Velocity = store('Velocity', 1, { x: f64(), y: f64(), z: f64() });
  const Heading = store('Heading', 2, { angle: new Int32Array(capacity) });
  const BodySize = store('BodySize', 3, { radius: f64(), height: f64(), step: f64() });
  const Controller = store('Controller', 4, { buttons: new Uint32Array(capacity), previous: new Uint32Array(capacity) });
  const Agent = store('Agent', 5, { timer: new Int32Array(capacity), speed: f64() });
  const Sight = store('Sight', 6, { range: f64(), target: new Int32Array(capacity), visible: new Uint8Array(capacity) });
  const Motion = store('Motion', 7, {
    grounded: new Uint8Array(capacity),
    hitWall: new Uint8Array(capacity),
    contact: new Int32Array(capacity),
    blocked: new Uint32Array(capacity),
  });
  const all = [Position, Velocity, Heading, BodySize, Controller, Agent, Sight, Motion];
  return { capacity, Position, Velocity, Heading, BodySize, Controller, Agent, Sight, Motion, all };
}
