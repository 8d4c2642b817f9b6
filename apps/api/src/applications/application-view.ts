import { componentHealth, type Application, type ApplicationStatus, type Condition } from '#api';
import type { KubeObject } from '#kube-core';
import type { ApplicationView } from './application.dto.js';

/**
 * An Application as the health tree the list, the watch stream and the
 * status endpoint show: each component of the spec with the health the
 * controller reported and the objects it applied for it. Pure.
 */
export function applicationView(obj: KubeObject): ApplicationView {
  const app = obj as Application;
  const status = (app.status ?? {}) as ApplicationStatus;
  const applied = status.appliedResources ?? [];
  const healthy = status.services?.length
    ? status.services.every((s) => s.healthy) && status.status === 'running'
    : undefined;
  return {
    name: app.metadata.name!,
    namespace: app.metadata.namespace!,
    uid: app.metadata.uid,
    resourceVersion: app.metadata.resourceVersion ?? '',
    generation: app.metadata.generation,
    observedGeneration: status.observedGeneration,
    createdAt: app.metadata.creationTimestamp,
    deleting: !!app.metadata.deletionTimestamp,
    phase: status.status,
    healthy,
    revision: status.latestRevision?.revision,
    components: componentHealth(app).map((c) => ({
      ...c,
      objects: applied
        .filter((r) => r.component === c.name)
        .map((r) => ({
          apiVersion: r.apiVersion,
          kind: r.kind,
          namespace: r.namespace,
          name: r.name,
          ...(r.trait ? { trait: r.trait } : {}),
        })),
    })),
    conditions: (status.conditions ?? []) as Condition[],
  };
}
