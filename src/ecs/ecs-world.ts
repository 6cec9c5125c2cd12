/**
 * The simulation's entity world: a bitecs 0.4 world over the project's own component arrays
 * (src/ecs/components.ts), with deterministic entity creation and removal and an exact save/restore.
 *
 * bitecs facts this relies on (0.4.0):
 * - Ids start at 1 and removed ids are recycled in the order the entity index keeps them (swap-remove), so
 *   the same sequence of spawns and despawns gives the same ids. No `withVersioning` (broken in 0.4.0).
 * - A query's entity list is a live array whose order follows the history of adds and removes; removals are
 *   committed when the query is next read. `entities()` commits first, so a system sees a settled list.
 * - Save/restore reproduces the entity index (including the recycle order of dead ids) and the order of every
 *   query defined through `defineQuery`, so a restored world iterates and allocates ids exactly as the
 *   original would have. Queries made with bitecs `query()` directly are not covered: define them here.
 */
import {
  addComponent,
  addEntity,
  commitRemovals,
  createEntityIndex,
  createWorld,
  registerComponent,
  registerQuery,
  removeComponent,
  removeEntity,
  type Query,
  type World,
} from 'bitecs';
import type { Hash64 } from './state-hash.js';
import { Saved } from '../binary/saved-value.js';
import { createComponents, type ComponentDef, type ComponentMemory, type ComponentOf, type ComponentStore, type Components, type FieldArray, type FieldSchema } from './components.js';

/** bitecs 0.4 does not export the index type by name; it is a plain object with public fields. */
type EntityIndex = ReturnType<typeof createEntityIndex>;

/** A query defined on the world; `entities(q)` gives its live, committed entity list. */
export interface EcsQuery {
  readonly name: string;
  readonly terms: readonly ComponentStore[];
  /**
   * Its terms' names, sorted and joined: queries with the same key hold the same entities (each in its own
   * order), which lets staged kernels over them share one id list (`KernelRunner.stage`).
   */
  readonly key: string;
  /** The bitecs query (replaced on restore; read it through `EcsWorld.entities`). */
  query: Query;
}

/** Thrown when an entity cannot be created because the fixed capacity is used up. */
export class CapacityError extends Error {
  override readonly name = 'CapacityError';
}

/** Everything needed to rebuild the entity world exactly (plain data, encodable by value-codec). */
export interface EcsWorldState {
  capacity: number;
  /** Largest id handed out. */
  maxId: number;
  aliveCount: number;
  /** The entity index's dense array: live ids first (in index order), then dead ids in recycle order. */
  dense: Uint32Array;
  /** Membership bitmask per id 0..maxId (0 for dead ids). */
  membership: Uint32Array;
  /** Entity order of each defined query, in definition order. */
  queries: { name: string; entities: Uint32Array }[];
  /** Each component's fields, ids 0..maxId, in component and field order. */
  fields: { component: string; field: string; values: FieldArray }[];
}

/**
 * @internal An entity world's state in reused buffers (EcsWorld.saveInto / restoreFrom, for rollback): the
 * structure (index, membership, query orders) with the id of the structure it holds, and each field's values
 * for ids 0..maxId. Buffers grow only when more ids are in use.
 */
export interface EcsCopy {
  /** The structure id the copy holds (−1: none yet). Equal ids mean the same index, memberships and queries. */
  structure: number;
  maxId: number;
  aliveCount: number;
  dense: Uint32Array;
  membership: Uint32Array;
  queries: Uint32Array[];
  queryLengths: number[];
  fields: FieldArray[];
  /** `fields` cut to ids 0..viewsMax (cached views, so a restore makes none). */
  views: FieldArray[];
  viewsMax: number;
}

/** @internal An empty EcsCopy (its buffers are made by the first save into it). */
export function newEcsCopy(): EcsCopy {
  return { structure: -1, maxId: 0, aliveCount: 0, dense: new Uint32Array(0), membership: new Uint32Array(0), queries: [], queryLengths: [], fields: [], views: [], viewsMax: -1 };
}

/** The entity world's structure as the rebuild reads it (from a snapshot or from a rollback copy). */
interface Structure {
  maxId: number;
  aliveCount: number;
  dense: ArrayLike<number>;
  membership: ArrayLike<number>;
  queries: readonly ArrayLike<number>[];
  queryLengths: ArrayLike<number>;
  queryNames: readonly string[];
}

/** Room for `n` elements, grown to a power of two (so growing ids reallocate a few times, not every time). */
function roomFor(n: number, cap: number): number {
  let r = 64;
  while (r < n) r *= 2;
  return Math.min(r, Math.max(n, cap));
}

function sameSchema(a: FieldSchema, b: FieldSchema): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => kb[i] === k && a[k] === b[k]);
}

/**
 * A simulation's entities: ids with components, over fixed-capacity typed arrays. Ids start at 1 and removed
 * ids are recycled in a fixed order, so the same spawns and despawns give the same ids everywhere; `save` and
 * `restore` reproduce the world exactly, including the order queries iterate in. A simulation makes its own
 * (`sim.ecs`); systems read it through their context.
 */
export class EcsWorld {
  /** The component stores: the fields' typed arrays, indexed by entity id. */
  readonly components: Components;
  /** Entity slots (ids 1..capacity − 1). */
  readonly capacity: number;
  /** The bitecs world underneath (replaced on restore). */
  world: World;
  private index: EntityIndex;
  /** The project's own record of which components each id has (bit = ComponentStore.bit). */
  readonly membership: Uint32Array;
  /** 1 for live ids. */
  readonly alive: Uint8Array;
  private readonly queryList: EcsQuery[] = [];
  /**
   * Names the current structure (index, memberships, query orders): every change of it takes a new number,
   * so a rollback copy made with the same number holds this very structure and only the fields need copying.
   */
  private structure = 0;
  private structureCount = 0;
  /** The fields cut to ids 0..saveViewsMax (cached views for saveInto). */
  private saveViews: FieldArray[] = [];
  private saveViewsMax = -1;

  /**
   * @param capacity fixed number of entity slots (ids 1..capacity − 1)
   * @param extra a scenario's own components, after the built-in ones
   * @param memory where the component arrays live (`{ shared: true }`: on SharedArrayBuffers, for worker threads)
   */
  constructor(capacity = 4096, extra: readonly ComponentDef[] = [], memory: ComponentMemory = {}) {
    this.components = createComponents(capacity, extra, memory);
    this.capacity = capacity;
    this.membership = this.components.membership;
    this.alive = new Uint8Array(capacity);
    this.index = createEntityIndex();
    this.world = this.freshWorld(this.index);
  }

  private freshWorld(index: EntityIndex): World {
    const world = createWorld(index);
    // Registration order fixes bitecs' internal bit per component; do it once, in the stores' order.
    for (const c of this.components.all) registerComponent(world, c);
    return world;
  }

  /**
   * The stores of a component in this world, typed by its schema. Throws when the simulation was not made
   * with that component (a scenario lists its own in `components`).
   */
  store<F extends FieldSchema>(def: ComponentDef<F>): ComponentOf<F> {
    const st = this.components.byName.get(def.name);
    // The same declaration, or an equal one (a scenario module may hold another copy of the runtime's).
    if (!st || (st.def.schema !== def.schema && !sameSchema(st.def.schema, def.schema))) {
      throw new Error(`component ${def.name} is not part of this simulation (a scenario declares its own in \`components\`)`);
    }
    return st as ComponentOf<F>;
  }

  /**
   * Names the current structure (entities, memberships, the order of every query's entities): any change of
   * them gives another number, and a number seen again (a rollback) means this very structure again. What a
   * system computes from a query's entities stays right while this is the same.
   */
  get structureId(): number {
    return this.structure;
  }

  /** Largest id handed out so far (ids are 1..maxId). */
  get maxId(): number {
    return this.index.maxId;
  }
  /** Live entities. */
  get aliveCount(): number {
    return this.index.aliveCount;
  }

  /** Defines a query over the given components. Define queries when a system is created, not per frame. */
  defineQuery(name: string, terms: readonly ComponentStore[]): EcsQuery {
    if (this.queryList.some((q) => q.name === name)) throw new Error(`query ${JSON.stringify(name)} is already defined`);
    const key = terms
      .map((t) => t.name)
      .sort()
      .join(',');
    const q: EcsQuery = { name, terms, key, query: registerQuery(this.world, [...terms]) };
    this.queryList.push(q);
    return q;
  }

  /** The query's entities, removals committed. A live array: copy it before spawning into the same query. */
  entities(q: EcsQuery): readonly number[] {
    commitRemovals(this.world);
    return q.query.dense as number[];
  }

  /** Creates an entity with the given components, all their fields zeroed. Throws CapacityError when full. */
  spawn(components: readonly ComponentStore[]): number {
    const idx = this.index;
    if (idx.aliveCount === idx.dense.length && idx.maxId + 1 >= this.capacity) {
      throw new CapacityError(`entity capacity ${this.capacity} is used up`);
    }
    const id = addEntity(this.world);
    this.structure = ++this.structureCount;
    this.alive[id] = 1;
    this.membership[id] = 0;
    // A recycled id must not inherit the fields of its previous owner.
    for (const c of this.components.all) for (const f of c.fieldNames) c.fields[f]![id] = 0;
    for (const c of components) this.add(id, c);
    return id;
  }

  /** Removes an entity (nothing for an id that is not alive); its id is recycled later. */
  despawn(id: number): void {
    if (!this.isAlive(id)) return;
    removeEntity(this.world, id);
    this.structure = ++this.structureCount;
    this.alive[id] = 0;
    this.membership[id] = 0;
  }

  /** Gives a live entity a component (its fields keep their values). Throws for an id that is not alive. */
  add(id: number, c: ComponentStore): void {
    if (!this.isAlive(id)) throw new Error(`entity ${id} is not alive`);
    if (this.membership[id]! & (1 << c.bit)) return;
    addComponent(this.world, id, c);
    this.structure = ++this.structureCount;
    this.membership[id] = (this.membership[id]! | (1 << c.bit)) >>> 0;
  }

  /** Takes a component from an entity (nothing when it does not have it). */
  remove(id: number, c: ComponentStore): void {
    if (!this.isAlive(id) || !(this.membership[id]! & (1 << c.bit))) return;
    removeComponent(this.world, id, c);
    this.structure = ++this.structureCount;
    this.membership[id] = (this.membership[id]! & ~(1 << c.bit)) >>> 0;
  }

  /** Whether a live entity has a component. */
  has(id: number, c: ComponentStore): boolean {
    return this.isAlive(id) && (this.membership[id]! & (1 << c.bit)) !== 0;
  }

  /** Whether `id` is a live entity of this world. */
  isAlive(id: number): boolean {
    return Number.isInteger(id) && id > 0 && id < this.capacity && this.alive[id] === 1;
  }

  /** Live ids in ascending order, written into `out` (grown if needed); returns how many. */
  aliveIdsAscending(out: { ids: Uint32Array }): number {
    let n = 0;
    const max = this.index.maxId;
    if (out.ids.length < this.index.aliveCount) out.ids = new Uint32Array(this.capacity);
    const ids = out.ids;
    const alive = this.alive;
    for (let id = 1; id <= max; id++) if (alive[id] === 1) ids[n++] = id;
    return n;
  }

  /** @internal Folds the entity index (live and recycle order) and every defined query's order into `h`. */
  hashIndexInto(h: Hash64): void {
    commitRemovals(this.world);
    const dense = this.index.dense;
    h.u32(dense.length);
    h.u32s(dense, dense.length);
    for (const q of this.queryList) {
      const d = q.query.dense as number[];
      h.u32(d.length);
      h.u32s(d, d.length);
    }
  }

  /** The world as plain data (see EcsWorldState), for `restore`. */
  save(): EcsWorldState {
    commitRemovals(this.world);
    const max = this.index.maxId;
    const fields: EcsWorldState['fields'] = [];
    for (const c of this.components.all) {
      for (const f of c.fieldNames) fields.push({ component: c.name, field: f, values: c.fields[f]!.slice(0, max + 1) });
    }
    return {
      capacity: this.capacity,
      maxId: max,
      aliveCount: this.index.aliveCount,
      dense: Uint32Array.from(this.index.dense),
      membership: this.membership.slice(0, max + 1),
      queries: this.queryList.map((q) => ({ name: q.name, entities: Uint32Array.from(q.query.dense as number[]) })),
      fields,
    };
  }

  /**
   * Rebuilds the world from a saved state. The state is checked first (it may come from a file): a bad state
   * is a FormatError naming the field under `path` (e.g. "ecs.fields[4] (BodySize.radius)"), and this world
   * is left unchanged.
   */
  restore(s: EcsWorldState, path = 'ecs'): void {
    this.checkState(s, path);
    this.rebuild({
      maxId: s.maxId,
      aliveCount: s.aliveCount,
      dense: s.dense,
      membership: s.membership,
      queries: s.queries.map((q) => q.entities),
      queryLengths: s.queries.map((q) => q.entities.length),
      queryNames: s.queries.map((q) => q.name),
    });
    this.structure = ++this.structureCount;
    let k = 0;
    for (const c of this.components.all) {
      for (const f of c.fieldNames) {
        const arr = c.fields[f]!;
        arr.fill(0);
        arr.set(s.fields[k++]!.values);
      }
    }
  }

  /** Rebuilds the bitecs world, the index, the queries' order, `alive` and `membership` from a structure. */
  private rebuild(s: Structure): void {
    const index = createEntityIndex();
    const world = this.freshWorld(index);
    const queries = this.queryList.map((q) => registerQuery(world, [...q.terms]));
    // Hand out ids 1..maxId, give the live ones their components, remove the dead ones...
    for (let id = 1; id <= s.maxId; id++) addEntity(world);
    const liveSet = new Uint8Array(s.maxId + 1);
    for (let i = 0; i < s.aliveCount; i++) liveSet[s.dense[i]!] = 1;
    for (let id = 1; id <= s.maxId; id++) {
      if (!liveSet[id]) {
        removeEntity(world, id);
        continue;
      }
      const m = s.membership[id]!;
      for (const c of this.components.all) if (m & (1 << c.bit)) addComponent(world, id, c);
    }
    commitRemovals(world);
    // ...then put the index and the queries in the saved order (same sets, so only the order changes).
    index.dense.length = 0;
    for (let i = 0; i < s.maxId; i++) {
      index.dense.push(s.dense[i]!);
      index.sparse[s.dense[i]!] = i;
    }
    for (let qi = 0; qi < queries.length; qi++) {
      const q = queries[qi]!;
      const saved = s.queries[qi]!;
      const len = s.queryLengths[qi]!;
      if (len !== q.dense.length) throw new Error(`snapshot query ${s.queryNames[qi]} has ${len} entities, the rebuilt query ${q.dense.length}`);
      for (let i = 0; i < len; i++) if (!q.has(saved[i]!)) throw new Error(`snapshot query ${s.queryNames[qi]} lists entity ${saved[i]} that does not match it`);
      const dense = q.dense as number[];
      for (let i = 0; i < len; i++) {
        dense[i] = saved[i]!;
        q.sparse[saved[i]!] = i;
      }
    }
    // Commit: swap in the new world and copy the arrays.
    this.index = index;
    this.world = world;
    for (let qi = 0; qi < queries.length; qi++) this.queryList[qi]!.query = queries[qi]!;
    this.alive.fill(0);
    this.membership.fill(0);
    for (let id = 1; id <= s.maxId; id++) {
      this.alive[id] = liveSet[id]!;
      this.membership[id] = liveSet[id] ? s.membership[id]! : 0;
    }
  }

  /**
   * @internal Copies the whole world into `c`'s reused buffers (for rollback; `save` is the plain-data
   * snapshot). The structure is copied only when `c` does not already hold this very structure; the fields of
   * ids 0..maxId always. Allocates only when `c` is new or more ids are in use than it has room for.
   */
  saveInto(c: EcsCopy): void {
    commitRemovals(this.world);
    const max = this.index.maxId;
    const all = this.components.all;
    if (c.structure !== this.structure || c.maxId !== max) {
      const dense = this.index.dense;
      if (c.dense.length < max) c.dense = new Uint32Array(roomFor(max, this.capacity));
      if (c.membership.length < max + 1) c.membership = new Uint32Array(roomFor(max + 1, this.capacity));
      for (let i = 0; i < max; i++) c.dense[i] = dense[i]!;
      for (let i = 0; i <= max; i++) c.membership[i] = this.membership[i]!;
      for (let qi = 0; qi < this.queryList.length; qi++) {
        const d = this.queryList[qi]!.query.dense as number[];
        let buf = c.queries[qi];
        if (!buf || buf.length < d.length) buf = c.queries[qi] = new Uint32Array(roomFor(d.length, this.capacity));
        for (let i = 0; i < d.length; i++) buf[i] = d[i]!;
        c.queryLengths[qi] = d.length;
      }
      c.structure = this.structure;
      c.maxId = max;
      c.aliveCount = this.index.aliveCount;
    }
    if (this.saveViewsMax !== max) {
      this.saveViews.length = 0;
      for (const st of all) for (const f of st.fieldNames) this.saveViews.push(st.fields[f]!.subarray(0, max + 1));
      this.saveViewsMax = max;
    }
    const src = this.saveViews;
    if (c.fields.length !== src.length || c.fields[0]!.length < max + 1) {
      const n = roomFor(max + 1, this.capacity);
      c.fields = src.map((a) => new (a.constructor as new (n: number) => FieldArray)(n));
      c.viewsMax = -1;
    }
    for (let k = 0; k < src.length; k++) c.fields[k]!.set(src[k]! as never);
  }

  /**
   * @internal Puts back what `saveInto` copied (unchecked: it comes from this process). The same structure
   * number means only the fields change; otherwise the bitecs world is rebuilt as `restore` does. Field
   * values are written into the existing arrays (shared ones stay shared).
   */
  restoreFrom(c: EcsCopy): void {
    const before = this.index.maxId;
    if (c.structure !== this.structure) {
      const names = this.queryList.map((q) => q.name);
      this.rebuild({ maxId: c.maxId, aliveCount: c.aliveCount, dense: c.dense, membership: c.membership, queries: c.queries, queryLengths: c.queryLengths, queryNames: names });
      this.structure = c.structure;
    }
    const max = c.maxId;
    if (c.viewsMax !== max) {
      c.views = c.fields.map((a) => a.subarray(0, max + 1));
      c.viewsMax = max;
    }
    let k = 0;
    for (const st of this.components.all) {
      for (const f of st.fieldNames) {
        const arr = st.fields[f]!;
        arr.set(c.views[k++]! as never);
        // Ids past the restored maxId are unused: zero, as after `restore` (and as a spawn leaves them).
        if (before > max) arr.fill(0, max + 1, before + 1);
      }
    }
  }

  private checkState(s: EcsWorldState, path: string): void {
    const v = new Saved(s, path).object(['capacity', 'maxId', 'aliveCount', 'dense', 'membership', 'queries', 'fields']);
    const capacity = v.get('capacity').int(2, 1 << 30);
    if (capacity !== this.capacity) v.get('capacity').fail(`${capacity} differs from this world's capacity ${this.capacity} (the replay's settings)`);
    const maxId = v.get('maxId').int(0, this.capacity - 1);
    const aliveCount = v.get('aliveCount').int(0, maxId);
    const dense = v.get('dense').typed(Uint32Array, maxId);
    const seen = new Uint8Array(maxId + 1);
    for (let i = 0; i < dense.length; i++) {
      const id = dense[i]!;
      if (id < 1 || id > maxId || seen[id]) v.get('dense').get(i).fail(`the index must be a permutation of 1..${maxId}, found ${id}`);
      seen[id] = 1;
    }
    const membership = v.get('membership').typed(Uint32Array, maxId + 1);
    const known = this.components.all.reduce((m, c) => (m | (1 << c.bit)) >>> 0, 0);
    const live = new Uint8Array(maxId + 1);
    for (let i = 0; i < aliveCount; i++) live[dense[i]!] = 1;
    for (let i = 0; i <= maxId; i++) {
      const m = membership[i]!;
      if (m & ~known) v.get('membership').get(i).fail(`entity ${i} has component bits 0x${(m & ~known).toString(16)} this simulation does not define`);
      if (m !== 0 && !live[i]) v.get('membership').get(i).fail(`entity ${i} is not alive but has components 0x${m.toString(16)}`);
    }
    const queries = v.get('queries').array(this.queryList.length, this.queryList.length);
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i]!.object(['name', 'entities']);
      const want = this.queryList[i]!;
      q.get('name').equals(want.name, JSON.stringify(want.name));
      const ents = q.get('entities').typed(Uint32Array, [0, aliveCount]);
      const bits = want.terms.reduce((m, c) => (m | (1 << c.bit)) >>> 0, 0);
      const inQuery = new Uint8Array(maxId + 1);
      for (let k = 0; k < ents.length; k++) {
        const e = ents[k]!;
        if (e < 1 || e > maxId || !live[e] || (membership[e]! & bits) !== bits || inQuery[e]) q.get('entities').get(k).fail(`entity ${e} does not belong in query ${want.name} (or is listed twice)`);
        inQuery[e] = 1;
      }
      let members = 0;
      for (let e = 1; e <= maxId; e++) if (live[e] && (membership[e]! & bits) === bits) members++;
      if (members !== ents.length) q.get('entities').fail(`lists ${ents.length} entities, ${members} live entities have its components`);
    }
    const all: { c: ComponentStore; f: string }[] = [];
    for (const c of this.components.all) for (const f of c.fieldNames) all.push({ c, f });
    const fields = v.get('fields').array(all.length, all.length);
    for (let k = 0; k < all.length; k++) {
      const { c, f } = all[k]!;
      const e = new Saved(fields[k]!.value, `${fields[k]!.path} (${c.name}.${f})`, fields[k]!.format).object(['component', 'field', 'values']);
      e.get('component').equals(c.name, JSON.stringify(c.name));
      e.get('field').equals(f, JSON.stringify(f));
      const arr = c.fields[f]!;
      e.get('values').typed(arr.constructor as never, maxId + 1);
    }
  }
}
