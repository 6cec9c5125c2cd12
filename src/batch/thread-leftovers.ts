/**
 * What a batch job could leave behind in its thread for the next job, beyond its module instances: the
 * global object's own properties (put back as they were after every job) and pending timers (counted, so
 * that a job that leaves one fails). Built-in objects themselves (Math, prototypes) are not watched: a
 * scenario that changes them changes every later job of its thread, which the docs warn against.
 */

/** The global object's own properties and their descriptors, as they are now. */
export function globalsNow(): Map<PropertyKey, PropertyDescriptor> {
  const out = new Map<PropertyKey, PropertyDescriptor>();
  for (const k of Reflect.ownKeys(globalThis)) {
    const d = Object.getOwnPropertyDescriptor(globalThis, k);
    if (d) out.set(k, d);
  }
  return out;
}

/**
 * Puts the global object's own properties back as `before` had them: properties added since are deleted,
 * data properties whose value changed get their value back. An accessor the engine replaced by its value on
 * first use (a lazily loaded global) is left as it is. Returns the names put back.
 */
export function restoreGlobals(before: ReadonlyMap<PropertyKey, PropertyDescriptor>): string[] {
  const changed: string[] = [];
  for (const k of Reflect.ownKeys(globalThis)) {
    const was = before.get(k);
    const now = Object.getOwnPropertyDescriptor(globalThis, k);
    if (!now) continue;
    if (!was) {
      if (now.configurable && Reflect.deleteProperty(globalThis, k)) changed.push(String(k));
      continue;
    }
    if ('value' in was && 'value' in now && !Object.is(was.value, now.value)) {
      if (now.writable || now.configurable) {
        try {
          Object.defineProperty(globalThis, k, was);
          changed.push(String(k));
        } catch {
          // a property made non-configurable since: left as it is
        }
      }
    }
  }
  return changed;
}

/** Timers and immediates pending in this thread (Node's active resources of those kinds). */
export function pendingTimers(): number {
  const info = (process as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo?.() ?? [];
  let n = 0;
  for (const r of info) if (r === 'Timeout' || r === 'Immediate') n++;
  return n;
}
