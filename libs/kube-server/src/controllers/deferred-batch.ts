/**
 * Names to work on once the current write has returned: each name is queued
 * at most once however many changes mention it, and the batch runs on the
 * next turn of the event loop, so a controller reacting to a change never
 * writes from inside the store's change listener. A failure of one name is
 * reported and does not stop the others (the next change reschedules it).
 */
export class DeferredBatch {
  /** Queued and not yet run; cleared when the batch starts. */
  private pending = new Set<string>();
  /** True while a batch is waiting for its setImmediate. */
  private scheduled = false;

  constructor(
    private readonly run: (name: string) => void,
    private readonly onError: (name: string, err: unknown) => void,
  ) {}

  add(name: string): void {
    this.pending.add(name);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const names = [...this.pending];
      this.pending.clear();
      for (const n of names) {
        try {
          this.run(n);
        } catch (err) {
          this.onError(n, err);
        }
      }
    });
  }
}
