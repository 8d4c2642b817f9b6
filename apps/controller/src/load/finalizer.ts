import { type Client, type ResourceKind } from '#runtime';
import { finalizersWith, finalizersWithout, hasFinalizer, type KubeObject } from '#kube-core';
import { FINALIZER } from '#api';

/**
 * Adds the cleanup finalizer; returns the updated object (its new
 * resourceVersion is what the status write must build on). The patch carries
 * the resourceVersion it was computed from, so a concurrent edit is a 409
 * Conflict and a retry, never a lost finalizer.
 */
export async function ensureFinalizer<T extends KubeObject>(
  client: Client,
  kind: ResourceKind<T>,
  app: T,
): Promise<T> {
  if (hasFinalizer(app, FINALIZER)) return app;
  return patchFinalizers(client, kind, app, finalizersWith(app, FINALIZER));
}

export async function removeFinalizer<T extends KubeObject>(
  client: Client,
  kind: ResourceKind<T>,
  app: T,
): Promise<void> {
  if (!hasFinalizer(app, FINALIZER)) return;
  await patchFinalizers(client, kind, app, finalizersWithout(app, FINALIZER));
}

function patchFinalizers<T extends KubeObject>(
  client: Client,
  kind: ResourceKind<T>,
  app: T,
  finalizers: string[],
): Promise<T> {
  const meta = app.metadata!;
  const patch = { metadata: { resourceVersion: meta.resourceVersion, finalizers } };
  return client.patch(kind, meta.namespace, meta.name!, patch, { type: 'merge' });
}
