// A tiny typed emitter: one listener set per event name, listeners cannot
// break the emitter (a throwing listener is logged, the others still run).

export type Listener<T> = (value: T) => void;

export class Emitter<Events extends Record<string, unknown>> {
  private sets: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  /** Subscribe; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    const set = (this.sets[event] ??= new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof Events>(event: K, value: Events[K]): void {
    const set = this.sets[event];
    if (!set) return;
    for (const l of set) {
      try {
        l(value);
      } catch (err) {
        // a layer above failed; report it, the stream of frames goes on
        console.error(`[sensors] a "${String(event)}" listener threw:`, err);
      }
    }
  }

  clear(): void {
    this.sets = {};
  }
}
