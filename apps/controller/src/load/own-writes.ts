import { type KubeObject } from '#kube-core';

/**
 * Read-your-own-writes over the informer cache: after the controller writes
 * an Application (finalizer, status), the cache shows the old version for a
 * moment, and a reconcile computed from it would write again and get a 409.
 * While the cache still holds a version this controller has since replaced,
 * the object its own write returned is used instead.
 */
export class OwnWrites<T extends KubeObject = KubeObject> {
  private readonly entries = new Map<string, { superseded: Set<string>; latest: T }>();

  /** `before` was replaced by `after` through this controller's own write. */
  remember(key: string, before: T, after: T): void {
    const entry = this.entries.get(key) ?? { superseded: new Set<string>(), latest: after };
    if (before.metadata?.resourceVersion) entry.superseded.add(before.metadata.resourceVersion);
    entry.latest = after;
    this.entries.set(key, entry);
  }

  /** The newer of the cached object and this controller's last write of it. */
  fresher(key: string, cached: T | undefined): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return cached;
    const rv = cached?.metadata?.resourceVersion;
    if (cached && rv && entry.superseded.has(rv)) return entry.latest;
    this.entries.delete(key); // the cache caught up (or someone else wrote since): trust it again
    return cached;
  }
}
