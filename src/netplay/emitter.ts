/** A tiny typed event emitter (browser-safe: no node:events). A listener that throws is isolated from the others. */
export class Emitter<E extends { [K in keyof E]: unknown }> {
  private readonly listeners = new Map<keyof E, Set<(v: never) => void>>();

  on<K extends keyof E>(event: K, cb: (value: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(cb as (v: never) => void);
    return () => set.delete(cb as (v: never) => void);
  }

  emit<K extends keyof E>(event: K, value: E[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const cb of [...set]) {
      try {
        (cb as (v: E[K]) => void)(value);
      } catch {
        // a listener's failure is the caller's bug, not the session's: the session's state stays consistent
      }
    }
  }
}
