/**
 * Revision and history bookkeeping for the Deployment controller: the
 * pod-template-hash label, the revision / revision-history / desired-replicas /
 * max-replicas annotations a ReplicaSet carries, and the shape of a new
 * ReplicaSet. Kept apart from the controller because these are the pieces
 * `kubectl rollout history/undo` reads back, and they must match kube exactly.
 */
import { deepCopy, semanticEqual, type StoredObject } from '#kube-core';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { DeploymentSpec } from './deployment-rollout.js';
import type { Deployment, ReplicaSet } from './sim.js';
import { parseTime } from './values.js';
import { controllerRef } from './ownership.js';

export const HASH_LABEL = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
const SKIP_COPY = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);
const REV_HISTORY_LIMIT_CHARS = 2000;

export const revisionOf = (rs: StoredObject) => {
  const n = Number(rs.metadata.annotations?.[REVISION]);
  return Number.isInteger(n) ? n : 0;
};
const created = (o: StoredObject) => parseTime(o.metadata.creationTimestamp) ?? 0;
/** Oldest first, by creation time then name (the controller's stable ordering of ReplicaSets). */
export const byCreation = (a: StoredObject, b: StoredObject) =>
  created(a) - created(b) || String(a.metadata.name).localeCompare(String(b.metadata.name));

/** EqualIgnoreHash: the templates are the same apart from the pod-template-hash label. */
export function equalIgnoreHash(a: IPodTemplateSpec | undefined, b: IPodTemplateSpec | undefined): boolean {
  const strip = (t: IPodTemplateSpec | undefined) => {
    const template = t ?? {};
    if (!template.metadata?.labels || !(HASH_LABEL in template.metadata.labels)) return template;
    const { [HASH_LABEL]: _hash, ...labels } = template.metadata.labels;
    return { ...template, metadata: { ...template.metadata, labels } };
  };
  return semanticEqual(strip(a), strip(b));
}

/** The new ReplicaSet for the deployment's template under `hash` (replicas and annotations are set by the caller). */
export function buildReplicaSet(d: Deployment, spec: DeploymentSpec, hash: string): ReplicaSet {
  const template: IPodTemplateSpec = deepCopy(spec.template ?? {});
  template.metadata ??= {};
  template.metadata.labels = { ...(template.metadata.labels ?? {}), [HASH_LABEL]: hash };
  const selector = deepCopy(spec.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [HASH_LABEL]: hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels: template.metadata.labels,
      ownerReferences: [controllerRef(d)],
    },
    spec: {
      replicas: 0,
      ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector,
      template,
    },
  };
}

/**
 * SetNewReplicaSetAnnotations: copy the deployment's annotations, keep the revision highest, remember rollbacks.
 * `sizes` gives the desired and max replicas recorded on a ReplicaSet that does not exist yet.
 */
export function setNewReplicaSetAnnotations(
  rs: StoredObject,
  deploymentAnnotations: Record<string, string> | undefined,
  newRevision: string,
  exists: boolean,
  sizes: () => { desired: number; max: number },
): boolean {
  let changed = false;
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  for (const [k, v] of Object.entries(deploymentAnnotations ?? {})) {
    if (SKIP_COPY.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const oldRevision = annotations[REVISION];
  const oldInt = oldRevision === undefined ? 0 : Number(oldRevision);
  if (Number.isNaN(oldInt)) return false;
  const newInt = Number(newRevision);
  if (oldInt < newInt) {
    annotations[REVISION] = newRevision;
    changed = true;
    if (oldRevision !== undefined) {
      const history = annotations[REVISION_HISTORY];
      let list = history ? history.split(',') : [];
      let total = (history?.length ?? 0) + oldRevision.length + 1;
      while (total > REV_HISTORY_LIMIT_CHARS && list.length) total -= list.shift()!.length + 1;
      list = [...list, oldRevision];
      annotations[REVISION_HISTORY] = list.join(',');
    }
  }
  if (!exists) {
    const { desired, max } = sizes();
    annotations[DESIRED_REPLICAS] = String(desired);
    annotations[MAX_REPLICAS] = String(max);
    changed = true;
  }
  rs.metadata.annotations = annotations;
  return changed;
}
