import type { AppliedResource, ApplicationStatus } from '#api';
import { isControlledBy, type KubeObject, jsonEqual } from '#kube-core';
import {
  NoKindMatchError,
  type Client,
  type Logger,
  type ResourceKind,
  type Result,
  type RestMapper,
} from '#runtime';
import { deleteIfOurs } from '../prune/pruner.js';
import { removeFinalizer } from './finalizer.js';

/**
 * An Application being deleted: delete everything it recorded (only what is
 * still its own, by UID), keep `status.status: deleting` with what is left
 * until all of it is gone, then remove the finalizer. Namespaced objects would
 * go with the Application anyway (ownerReferences); the others only go here.
 */
export async function deleteApplied(
  deps: { client: Client; mapper: RestMapper },
  kind: ResourceKind,
  app: KubeObject,
  log: Logger,
  /** Objects handed to another owner (a Component taking its objects back) instead of deleted: waited for. */
  release?: (live: KubeObject) => boolean,
): Promise<Result | void> {
  const previous = app.status as ApplicationStatus | undefined;
  const pending: AppliedResource[] = [];
  for (const r of previous?.appliedResources ?? []) {
    if (release && (await releasing(deps, app, r, release))) pending.push(r);
    else if (!(await deleteIfOurs(deps.client, deps.mapper, app, r))) pending.push(r);
  }
  if (pending.length > 0) {
    const status = { ...previous, status: 'deleting' as const, appliedResources: pending };
    if (!jsonEqual(status, previous ?? {})) await deps.client.updateStatus(kind, { ...app, status });
    return { requeueAfter: 1000 }; // deletions also enqueue through the watches; this bounds a missed one
  }
  await removeFinalizer(deps.client, kind, app);
  log.info('deleted everything it applied; finalizer removed');
}

/** Whether the recorded object is still the owner's and is being handed to someone else. */
async function releasing(
  deps: { client: Client; mapper: RestMapper },
  owner: KubeObject,
  r: AppliedResource,
  release: (live: KubeObject) => boolean,
): Promise<boolean> {
  // A kind no longer served has no object left to hand over; a discovery outage is thrown (retried).
  const kind = await deps.mapper.kindFor(r).catch((err: unknown) => {
    if (err instanceof NoKindMatchError) return undefined;
    throw err;
  });
  const live = kind && (await deps.client.get(kind, r.namespace, r.name));
  return Boolean(live && isControlledBy(live, owner.metadata!.uid!) && release(live));
}
