import { type Client, type ResourceKind } from '#runtime';
import { finalizersWith, finalizersWithout, hasFinalizer, type KubeObject } from '#kube-core';
import { FINALIZER } from '#api';

/**
 * Adds the cleanup finalizer; returns the updated object (its new
 * resourceVersion is what the status write must build on). The patch carries
 * the resourceVersion it was computed from, so a concurrent edit is a 409
 * Conflict and a retry, never a lost finalizer.
 */
export async function ensureFinalizer(
  client: Client,
  kind: ResourceKind,
  app: KubeObject,
): Promise<KubeObject> {
  if (hasFinalizer(app, FINALIZER)) return app;
  return patchFinalizers(client, kind, app, finalizersWith(app, FINALIZER));
}

export async function removeFinalizer(client: Client, kind: ResourceKind, app: KubeObject): Promise<void> {
  if (!hasFinalizer(app, FINALIZER)) return;
  await patchFinalizers(client, kind, app, finalizersWithout(app, FINALIZER));
}

function patchFinalizers(
  client: Client,
  kind: ResourceKind,
  app: KubeObject,
  finalizers: string[],
): Promise<KubeObject> {
  const meta = app.metadata!;
  const patch = { metadata: { resourceVersion: meta.resourceVersion, finalizers } };
  return client.patch(kind, meta.namespace, meta.name!, patch, { type: 'merge' });
}
