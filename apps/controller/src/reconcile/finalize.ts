import type { AppliedResource, ApplicationStatus } from '#api';
import { type KubeObject, stableStringify } from '#kube-core';
import type { Client, Logger, ResourceKind, Result, RestMapper } from '#runtime';
import { deleteIfOurs } from '../apply/pruner.js';
import { removeFinalizer } from './finalizer.js';

/**
 * An Application being deleted: delete everything it recorded (only what is
 * still its own, by UID), keep `status.status: deleting` with what is left
 * until all of it is gone, then remove the finalizer. Namespaced objects would
 * go with the Application anyway (ownerReferences); the others only go here.
 */
export async function finalize(
  deps: { client: Client; mapper: RestMapper },
  kind: ResourceKind,
  app: KubeObject,
  log: Logger,
): Promise<Result | void> {
  const previous = app.status as ApplicationStatus | undefined;
  const pending: AppliedResource[] = [];
  for (const r of previous?.appliedResources ?? []) {
    if (!(await deleteIfOurs(deps.client, deps.mapper, app, r))) pending.push(r);
  }
  if (pending.length > 0) {
    const status = { ...previous, status: 'deleting' as const, appliedResources: pending };
    if (stableStringify(status) !== stableStringify(previous ?? {}))
      await deps.client.updateStatus(kind, { ...app, status });
    return { requeueAfter: 1000 }; // deletions also enqueue through the watches; this bounds a missed one
  }
  await removeFinalizer(deps.client, kind, app);
  log.info('deleted everything it applied; finalizer removed');
}
