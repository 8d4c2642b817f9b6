import { finalizersWith, finalizersWithout, hasFinalizer, type Client, type KubeObject } from '#runtime';
import { APPLICATIONS, FINALIZER } from '../constants.js';

/**
 * Adds the cleanup finalizer; returns the updated object (its new
 * resourceVersion is what the status write must build on). A JSON patch
 * that tests the resourceVersion, so a concurrent edit is retried, not lost.
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
  const ops = [
    { op: 'test', path: '/metadata/resourceVersion', value: meta.resourceVersion },
    { op: meta.finalizers ? 'replace' : 'add', path: '/metadata/finalizers', value: finalizers },
  ];
  return client.patch(APPLICATIONS, meta.namespace, meta.name!, ops, { type: 'json' });
}
