import { LABELS } from '#api';
import { controllerOf, type KubeObject } from '#kube-core';

/**
 * Why the application may not take `live` over, or undefined when it may:
 * another controller owns it, or it was made by someone else (it carries
 * neither this application's ownerReference nor its labels). An object is
 * never taken from its owner; the Applied condition says so instead.
 */
export function ownershipConflict(live: KubeObject, app: KubeObject): string | undefined {
  const what = `${live.kind} "${live.metadata?.namespace ? `${live.metadata.namespace}/` : ''}${live.metadata?.name}"`;
  const owner = controllerOf(live);
  if (owner) {
    if (owner.uid === app.metadata?.uid) return undefined;
    return `${what} exists and is controlled by ${owner.kind} "${owner.name}"; not taken over`;
  }
  const labels = live.metadata?.labels ?? {};
  if (
    labels[LABELS.appName] === app.metadata?.name &&
    labels[LABELS.appNamespace] === app.metadata?.namespace
  )
    return undefined;
  return `${what} exists and was not created by this application; not taken over`;
}
