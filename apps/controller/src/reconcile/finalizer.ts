import { type Client } from '#runtime';
import { finalizersWith, finalizersWithout, hasFinalizer, type KubeObject } from '#kube-core';
import { APPLICATIONS, FINALIZER } from '../constants.js';

/**
 * Adds the cleanup finalizer; returns the updated object (its new
 * resourceVersion is what the status write must build on). The patch carries
 * the resourceVersion it was computed from, so a concurrent edit is a 409
 * Conflict and a retry, never a lost finalizer.
 */
export async function ensureFinalizer(client: Client, app: KubeObject): Promise<KubeObject> {
  if (hasFinalizer(app, FINALIZER)) return app;
  return patchFinalizers(client, app, finalizersWith(app, FINALIZER));
}

export async function removeFinalizer(client: Client, app: KubeObject): Promise<void> {
  if (!hasFinalizer(app, FINALIZER)) return;
  await patchFinalizers(client, app, finalizersWithout(app, FINALIZER));
}

function patchFinalizers(client: Client, app: KubeObject, finalizers: string[]): Promise<KubeObject> {
  const meta = app.metadata!;
  const patch = { metadata: { resourceVersion: meta.resourceVersion, finalizers } };
  return client.patch(APPLICATIONS, meta.namespace, meta.name!, patch, { type: 'merge' });
}
