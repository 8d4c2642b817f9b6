import { IdleCache, realClock, type Clock } from '#kube-core';

/** Writes of one intent that did not stick before the controller stops writing it. */
export const WRITES_BEFORE_BACKOFF = 3;
const FIRST_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 600_000;
/** A write of the same intent again after this long is a new start: a person's occasional edit, not a fight. */
const STREAK_WINDOW_MS = MAX_BACKOFF_MS;

interface Streak {
  /** The applied hash of the intent written. */
  hash: string;
  /** Writes of it seen not to stick. */
  lost: number;
  /** `lost` when the last backoff began: one more lost write trips again. */
  lostAtTrip: number;
  /** A write was sent and not judged yet; `basedOn` is the live resourceVersion it was sent against. */
  pending: boolean;
  basedOn?: string;
  lastMs: number;
  /** No write before this time. */
  untilMs?: number;
  backoffMs?: number;
}

/** Whether to write an intent whose live object differs from it. */
export type WriteVerdict =
  { write: true } | { write: false; tripped: boolean; lost: number; retryAtMs: number };

/**
 * Writes that do not stick: the live object keeps differing from what was
 * applied (the server drops a field, another controller reverts it). After
 * WRITES_BEFORE_BACKOFF such writes of the same intent the object is not
 * written until a backoff ends (1 min, doubling to 10 min with each lost
 * write after one), so two controllers never fight in an endless loop. A
 * new intent (a changed spec or definition) starts afresh. A cache that has
 * not seen the last write yet (the live object still at the version that
 * write was sent against) is no evidence, and counts nothing.
 */
export class WriteStreaks {
  private readonly streaks: IdleCache<string, Streak>;

  constructor(private readonly clock: Clock = realClock) {
    this.streaks = new IdleCache({ idleMs: 2 * STREAK_WINDOW_MS, maxEntries: 10_000, clock });
  }

  /** Before writing the intent `hash` over a live object at `liveVersion` (undefined: none) that differs from it. */
  beforeWrite(key: string, hash: string, liveVersion: string | undefined): WriteVerdict {
    const now = this.clock.now();
    let s = this.streaks.get(key);
    if (!s || s.hash !== hash || now - Math.max(s.lastMs, s.untilMs ?? 0) > STREAK_WINDOW_MS) {
      s = { hash, lost: 0, lostAtTrip: 0, pending: false, lastMs: now };
      this.streaks.set(key, s);
    }
    if (s.untilMs !== undefined && now < s.untilMs)
      return { write: false, tripped: false, lost: s.lost, retryAtMs: s.untilMs };
    if (s.pending && liveVersion !== s.basedOn) {
      s.lost++;
      s.pending = false;
    }
    if (s.lost >= WRITES_BEFORE_BACKOFF && s.lost > s.lostAtTrip) {
      s.backoffMs = s.backoffMs === undefined ? FIRST_BACKOFF_MS : Math.min(s.backoffMs * 2, MAX_BACKOFF_MS);
      s.untilMs = now + s.backoffMs;
      s.lostAtTrip = s.lost;
      return { write: false, tripped: true, lost: s.lost, retryAtMs: s.untilMs };
    }
    return { write: true };
  }

  /** The write `beforeWrite` allowed was sent, against the live object at `liveVersion`. */
  wrote(key: string, liveVersion: string | undefined): void {
    const s = this.streaks.get(key);
    if (!s) return;
    s.pending = true;
    s.basedOn = liveVersion;
    s.lastMs = this.clock.now();
  }
}
