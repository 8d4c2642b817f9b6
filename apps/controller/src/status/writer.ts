import type { ApplicationStatus } from '#api';
import { jsonEqual, realClock, type Clock, type KubeObject } from '#kube-core';
import type { Client, ResourceKind } from '#runtime';
import { nextStatus, type Observation } from './next-status.js';

/**
 * Writes an owner's status (an Application's or a standalone Component's)
 * only when it differs, and remembers each write of the owner so the next
 * reconcile does not start from the stale cache.
 */
export class StatusWriter {
  constructor(
    private readonly client: Client,
    /** Where the owner's status is written (APPLICATIONS or COMPONENTS). */
    private readonly kind: ResourceKind,
    /** Read-your-own-writes over the cache (OwnWrites). */
    private readonly ownWrites: { remember(key: string, before: KubeObject, after: KubeObject): void },
    private readonly clock: Clock = realClock,
  ) {}

  /** The status wanted from what a reconcile observed, and the owner as written (unchanged when the status was). */
  write(owner: KubeObject, o: Observation): Promise<{ status: ApplicationStatus; owner: KubeObject }> {
    return this.writeAs(owner, nextStatus(owner.status as ApplicationStatus | undefined, o, this.now()));
  }

  async writeAs(
    owner: KubeObject,
    status: ApplicationStatus,
  ): Promise<{ status: ApplicationStatus; owner: KubeObject }> {
    if (jsonEqual(status, owner.status ?? {})) return { status, owner };
    return { status, owner: await this.replace(owner, status) };
  }

  /** Writes `status` as it is (the records of objects about to be created). */
  async replace(owner: KubeObject, status: ApplicationStatus): Promise<KubeObject> {
    return this.remember(owner, await this.client.updateStatus(this.kind, { ...owner, status }));
  }

  now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** `before` was replaced by `after` through this controller's own write. */
  remember(before: KubeObject, after: KubeObject): KubeObject {
    this.ownWrites.remember(`${before.metadata?.namespace}/${before.metadata?.name}`, before, after);
    return after;
  }
}
