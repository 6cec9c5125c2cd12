/**
 * A query's entities in ascending id order, for systems whose results depend on the order they visit
 * entities in (draws from a shared stream, first-come contacts). The ids are copied into a buffer kept
 * between frames (grown by doubling) and sorted there, so a frame allocates no new id array. A list that is
 * already ascending (a query no entity has left, the usual case) is only copied: the copy checks the order
 * as it goes, and the sort runs only when some id is smaller than the one before it.
 */
export class AscendingIds {
  private buffer = new Uint32Array(64);

  /** The buffer's length: it only grows, so callers can size their own per-entity buffers along with it. */
  get capacity(): number {
    return this.buffer.length;
  }

  private lastList: readonly number[] | null = null;
  private lastStructure = -1;
  private last: Uint32Array = new Uint32Array(0);

  /**
   * `entities` sorted ascending: a view of the buffer, valid until the next call (do not write to it). Given
   * the entity world's `structureId`, a call with the same list and the same structure as the last returns
   * the last answer without reading the list: the structure names the query's entities and their order.
   */
  of(entities: readonly number[], structure?: number): Uint32Array {
    if (structure !== undefined && structure === this.lastStructure && entities === this.lastList && entities.length === this.last.length) return this.last;
    const ids = this.sorted(entities);
    this.lastList = structure === undefined ? null : entities;
    this.lastStructure = structure ?? -1;
    this.last = ids;
    return ids;
  }

  private sorted(entities: readonly number[]): Uint32Array {
    const n = entities.length;
    if (this.buffer.length < n) this.buffer = new Uint32Array(Math.max(n, 2 * this.buffer.length));
    const buffer = this.buffer;
    let ascending = true;
    let last = -1;
    for (let i = 0; i < n; i++) {
      const e = entities[i]!;
      buffer[i] = e;
      if (e < last) ascending = false;
      last = e;
    }
    const ids = buffer.subarray(0, n);
    return ascending ? ids : ids.sort();
  }
}
