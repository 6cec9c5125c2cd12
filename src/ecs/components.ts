/**
 * The simulation's components: structure-of-arrays typed arrays of a fixed capacity, owned by the project and
 * registered with bitecs 0.4 (which accepts any object as a component). A component is declared once as a
 * schema (`defineComponent`: a name and typed fields); each simulation makes its own stores from the schemas,
 * so several simulations (a re-simulation, a synctest shadow) can live side by side.
 *
 * Every field is a typed array indexed by entity id. Positions and sizes are float64, which holds the integer
 * coordinates of integer worlds exactly, in the world's native units. The built-in components below are
 * declared with the same `defineComponent` a scenario uses for its own.
 */

/** The element types a component field can have. */
export type FieldType = 'f64' | 'f32' | 'i32' | 'u32' | 'i16' | 'u16' | 'i8' | 'u8';

/** The typed array of each field type. */
export interface FieldArrayOf {
  f64: Float64Array;
  f32: Float32Array;
  i32: Int32Array;
  u32: Uint32Array;
  i16: Int16Array;
  u16: Uint16Array;
  i8: Int8Array;
  u8: Uint8Array;
}

/** The typed array of any field type. */
export type FieldArray = FieldArrayOf[FieldType];

/** A component's fields: name → element type, in declaration order (the order of hashes and snapshots). */
export type FieldSchema = Readonly<Record<string, FieldType>>;

/**
 * A component declared by name and fields, not yet bound to a simulation. Pass it to a scenario's
 * `components` and read its arrays in a system with `ecs.store(def)`.
 */
export interface ComponentDef<F extends FieldSchema = FieldSchema> {
  readonly name: string;
  readonly schema: F;
}

/** A component's stores in one simulation: the fields' typed arrays by name, plus their metadata. */
export type ComponentOf<F extends FieldSchema> = ComponentStore & { readonly [K in keyof F]: FieldArrayOf[F[K]] };

const ARRAYS: { readonly [K in FieldType]: new (n: number) => FieldArrayOf[K] } = {
  f64: Float64Array,
  f32: Float32Array,
  i32: Int32Array,
  u32: Uint32Array,
  i16: Int16Array,
  u16: Uint16Array,
  i8: Int8Array,
  u8: Uint8Array,
};

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const RESERVED_FIELDS = new Set(['name', 'bit', 'fields', 'fieldNames', 'def']);

/**
 * Declares a component: a name (used in hashes, snapshots and desync reports; letters, digits and `_`) and
 * its fields with their element types.
 *
 * @example
 * const Guard = defineComponent('Guard', { post: 'u32', alarm: 'u8', cooldown: 'i32' });
 */
export function defineComponent<const F extends FieldSchema>(name: string, schema: F): ComponentDef<F> {
  if (typeof name !== 'string' || !NAME.test(name)) throw new TypeError(`component name ${JSON.stringify(name)} must be a letter followed by up to 63 letters, digits or _`);
  if (typeof schema !== 'object' || schema === null) throw new TypeError(`component ${name}: fields must be an object of field types`);
  const keys = Object.keys(schema);
  if (keys.length === 0 || keys.length > 32) throw new TypeError(`component ${name}: needs 1 to 32 fields, got ${keys.length}`);
  for (const k of keys) {
    if (!NAME.test(k) || RESERVED_FIELDS.has(k)) throw new TypeError(`component ${name}: field name ${JSON.stringify(k)} is not allowed`);
    if (!Object.hasOwn(ARRAYS, schema[k]!)) throw new TypeError(`component ${name}.${k}: type ${JSON.stringify(schema[k])} is not one of ${Object.keys(ARRAYS).join(', ')}`);
  }
  return Object.freeze({ name, schema: Object.freeze({ ...schema }) as F });
}

/** One component: a name (used in hashes, snapshots and desync reports) and its named field arrays. */
export interface ComponentStore {
  readonly name: string;
  /** The schema the store was made from. */
  readonly def: ComponentDef;
  /** Bit of this component in the project's own per-entity membership mask. */
  readonly bit: number;
  readonly fields: Readonly<Record<string, FieldArray>>;
  /** Field names in a fixed order (declaration order): the order hashes and snapshots use. */
  readonly fieldNames: readonly string[];
}

/** The stores of a component with fields x, y and z (Position, Velocity). */
export interface Vec3Store extends ComponentStore {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
}

/** Angles are integers in 1/65536 of a turn (the PlayStation/PS2 habit), so turning is exact. */
export const ANGLE_UNITS_PER_TURN = 65536;

/**
 * A simulation's component stores: the built-in ones by name, then every store (a scenario's own too) in
 * order and by name. Each field is a typed array indexed by entity id.
 */
export interface Components {
  /** Entities the stores hold (ids 1..capacity − 1; 0 is no entity). */
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
  /** All stores in a fixed order (built-in, then the scenario's): the order of hashes, snapshots and reports. */
  readonly all: readonly ComponentStore[];
  /**
   * The built-in systems' per-entity task state (`TASK_STATE_STORES`: fall speeds, the controller's
   * behaviours), kept beside the components so that range kernels on other threads can read and write it.
   * Not components of entities: never in `all`, so not in queries, component hashes or snapshots (each task
   * hashes and saves its own).
   */
  readonly taskState: readonly ComponentStore[];
  /** Every store by component name (the task state's under its `retrosim:` names). */
  readonly byName: ReadonlyMap<string, ComponentStore>;
  /**
   * Which components each id has (bit = `ComponentStore.bit`; 0 for dead ids): the entity world's own record,
   * on shared memory with the stores, so a range kernel can ask whether another entity has a component.
   */
  readonly membership: Uint32Array;
}

// The built-in components, in their fixed order (bits 0..7).
/** Built-in: where an entity stands (its feet), x, y, z in the world's native units. */
export const Position = defineComponent('Position', { x: 'f64', y: 'f64', z: 'f64' });
/** Built-in: the displacement an entity intends per frame, x, y, z in native units. */
export const Velocity = defineComponent('Velocity', { x: 'f64', y: 'f64', z: 'f64' });
/** Built-in: the facing angle about the up axis, 0..65535 (ANGLE_UNITS_PER_TURN per turn). */
export const Heading = defineComponent('Heading', { angle: 'i32' });
/** Built-in: the moving body, an upright capsule of `radius` and `height` with a `step` height, native units. */
export const BodySize = defineComponent('BodySize', { radius: 'f64', height: 'f64', step: 'f64' });
/** Built-in: the buttons held this frame and last frame (Buttons bit masks). */
export const Controller = defineComponent('Controller', { buttons: 'u32', previous: 'u32' });
/** Built-in: a wandering agent: frames until it picks a new heading (`timer`) and its walking speed per frame. */
export const Agent = defineComponent('Agent', { timer: 'i32', speed: 'f64' });
/** Built-in: what an entity sees: its range, the entity it watches (0 none), and whether that one is visible (1/0). */
export const Sight = defineComponent('Sight', { range: 'f64', target: 'i32', visible: 'u8' });
/** Built-in: the last move's result: grounded and hitWall (1/0), the last wall's id (−1 none), moves blocked so far. */
export const Motion = defineComponent('Motion', { grounded: 'u8', hitWall: 'u8', contact: 'i32', blocked: 'u32' });

/** The built-in components in their fixed order (bits 0..7): every simulation has them before a scenario's own. */
export const BUILTIN_COMPONENTS: readonly ComponentDef[] = [Position, Velocity, Heading, BodySize, Controller, Agent, Sight, Motion];

const TASK_STATE_NAME = /^retrosim:[a-z][a-z0-9-]{0,31}$/;

/** A task-state store's declaration (a `retrosim:` name no scenario component can take); see `TASK_STATE_STORES`. */
function taskStateDef<const F extends FieldSchema>(name: string, schema: F): ComponentDef<F> {
  if (!TASK_STATE_NAME.test(name)) throw new TypeError(`task state name ${JSON.stringify(name)} must be retrosim: and lower-case letters, digits, -`);
  return Object.freeze({ name, schema: Object.freeze({ ...schema }) as F });
}

/** Task state of the gravity tasks: each entity's fall speed (native units per frame, positive = down). */
export const FallState = taskStateDef('retrosim:fall', { speed: 'f64' });
/** Task state of the controller: each agent's behaviour (0 not drawn yet), patrol heading and leg timer. */
export const ControllerState = taskStateDef('retrosim:controller', { behaviour: 'u8', patrolAngle: 'i32', legTimer: 'i32' });
/** The built-in systems' per-entity task state, made with every simulation's stores (`Components.taskState`). */
export const TASK_STATE_STORES: readonly ComponentDef[] = [FallState, ControllerState];

/** Most components a simulation can have: the membership mask is 32 bits (8 built-in, 24 of a scenario's). */
export const MAX_COMPONENTS = 32;

/** Largest capacity accepted: 2^20 entities (about 125 MB of the built-in arrays, 119 bytes per entity). */
export const MAX_CAPACITY = 1 << 20;

/** How a component field's typed array is made: on an ArrayBuffer (the default) or on a SharedArrayBuffer. */
export interface ComponentMemory {
  /**
   * Put every field on a SharedArrayBuffer, so worker threads can read and write the same arrays (range
   * kernels, `SystemThreads`). Values, hashes and snapshots are the same either way.
   */
  shared?: boolean;
}

const BYTES: { readonly [K in FieldType]: number } = { f64: 8, f32: 4, i32: 4, u32: 4, i16: 2, u16: 2, i8: 1, u8: 1 };

function makeField(t: FieldType, capacity: number, shared: boolean): FieldArray {
  if (!shared) return new ARRAYS[t](capacity);
  const C = ARRAYS[t] as unknown as new (b: ArrayBufferLike) => FieldArray;
  return new C(new SharedArrayBuffer(BYTES[t] * capacity));
}

function storeOf(def: ComponentDef, bit: number, fields: Record<string, FieldArray>): ComponentStore {
  return Object.assign({ name: def.name, def, bit, fields, fieldNames: Object.keys(def.schema) }, fields);
}

function makeStore(def: ComponentDef, bit: number, capacity: number, shared: boolean): ComponentStore {
  const fields: Record<string, FieldArray> = {};
  for (const [k, t] of Object.entries(def.schema)) fields[k] = makeField(t, capacity, shared);
  return storeOf(def, bit, fields);
}

/**
 * Makes the stores of the built-in components and then of `extra` (a scenario's own, in its order) for
 * `capacity` entities. Names must be unique.
 */
export function createComponents(capacity: number, extra: readonly ComponentDef[] = [], memory: ComponentMemory = {}): Components {
  if (!Number.isInteger(capacity) || capacity < 2 || capacity > MAX_CAPACITY) {
    throw new RangeError(`component capacity must be an integer in 2..${MAX_CAPACITY}, got ${capacity}`);
  }
  const defs = [...BUILTIN_COMPONENTS, ...extra];
  if (defs.length > MAX_COMPONENTS) throw new RangeError(`${defs.length} components: at most ${MAX_COMPONENTS - BUILTIN_COMPONENTS.length} of a scenario's own fit beside the built-in ones`);
  const byName = new Map<string, ComponentStore>();
  const all = defs.map((d, bit) => {
    if (byName.has(d.name)) throw new RangeError(`component ${d.name} is declared twice`);
    const st = makeStore(d, bit, capacity, memory.shared === true);
    byName.set(d.name, st);
    return st;
  });
  // Bit -1: not a component any entity has.
  const taskState = TASK_STATE_STORES.map((d) => {
    const st = makeStore(d, -1, capacity, memory.shared === true);
    byName.set(d.name, st);
    return st;
  });
  const membership = makeField('u32', capacity, memory.shared === true) as Uint32Array;
  const get = (d: ComponentDef) => byName.get(d.name)! as never;
  return {
    capacity,
    Position: get(Position),
    Velocity: get(Velocity),
    Heading: get(Heading),
    BodySize: get(BodySize),
    Controller: get(Controller),
    Agent: get(Agent),
    Sight: get(Sight),
    Motion: get(Motion),
    all,
    taskState,
    byName,
    membership,
  };
}

/** One store as another thread is given it: its schema, its bit and its fields' arrays (on shared memory). */
export interface SharedStore {
  readonly name: string;
  readonly schema: FieldSchema;
  readonly bit: number;
  readonly fields: Readonly<Record<string, FieldArray>>;
}

/** A store's parts to send to another thread (its arrays must be on shared memory to be shared, not copied). */
export function sharedStoreOf(st: ComponentStore): SharedStore {
  return { name: st.name, schema: st.def.schema, bit: st.bit, fields: st.fields };
}

/**
 * A store rebuilt in another thread over the arrays it was sent: the same names, bit and (shared) arrays,
 * checked against the schema so a message cannot hand a kernel arrays of the wrong type or length.
 */
export function storeFromShared(s: SharedStore, capacity: number): ComponentStore {
  const def = TASK_STATE_NAME.test(s.name) ? taskStateDef(s.name, s.schema) : defineComponent(s.name, s.schema);
  const fields: Record<string, FieldArray> = {};
  for (const [k, t] of Object.entries(def.schema)) {
    const a = s.fields[k];
    if (!(a instanceof ARRAYS[t]) || a.length !== capacity) throw new TypeError(`component ${s.name}.${k}: expected a ${t} array of ${capacity} elements`);
    fields[k] = a;
  }
  return storeOf(def, s.bit, fields);
}
