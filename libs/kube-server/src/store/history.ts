import type { ChangeEvent } from './types.js';

/** A bounded ring of the most recent changes; watches and consistent snapshots read from it. */
export class History {
  private readonly ring: ChangeEvent[] = [];
  private start = 0;
  /** Changes with rv <= compactedRv are gone; a watch from before it gets 410. */
  compactedRv: number;

  constructor(
    private readonly capacity: number,
    initialRv: number,
  ) {
    this.compactedRv = initialRv;
  }

  push(event: ChangeEvent): void {
    if (this.ring.length - this.start >= this.capacity) {
      this.compactedRv = this.ring[this.start].rv;
      this.start++;
      if (this.start > 4096 && this.start * 2 > this.ring.length) {
        this.ring.splice(0, this.start);
        this.start = 0;
      }
    }
    this.ring.push(event);
  }

  /** Changes after rv, oldest first; undefined when rv is older than the kept window. */
  since(rv: number): ChangeEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    let lo = this.start;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ring[mid].rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.ring.slice(lo);
  }
}
