import { API_VERSION, LABELS } from '#api';
import { ownerReferenceTo, type TypedObject } from '#kube-core';
import type { AppSpec } from '../resolve/index.js';

/** Kinds that live outside namespaces: they must not be given the application's namespace. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
  'RuntimeClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'APIService',
  'CSIDriver',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
]);

export interface Placement {
  component: string;
  role: 'workload' | 'trait';
  /** workload.oam.dev/type, or trait.oam.dev/type for trait outputs. */
  type: string;
  /** Name of the output within its template (trait.oam.dev/resource). */
  outputName?: string;
  /** Name to give an object whose template left metadata.name empty. */
  defaultName: string;
}

/**
 * KubeVela's assembly rules: default name and namespace, the OAM labels,
 * the application's own labels and annotations, and an ownerReference when
 * the owner's uid is known and the object lives in its namespace. Returns a new object; the input is not touched.
 */
export function assemble(object: TypedObject, app: AppSpec, where: Placement): TypedObject {
  const meta = { ...(object.metadata ?? {}) };
  if (!meta.name) meta.name = where.defaultName;
  if (!meta.namespace && !CLUSTER_SCOPED.has(object.kind)) meta.namespace = app.namespace;
  const oam: Record<string, string> = {
    [LABELS.appName]: app.name,
    [LABELS.appNamespace]: app.namespace,
    [LABELS.component]: where.component,
    [LABELS.resourceType]: where.role === 'workload' ? 'WORKLOAD' : 'TRAIT',
  };
  if (app.revision) oam[LABELS.appRevision] = app.revision.name;
  if (where.role === 'workload') {
    oam[LABELS.workloadType] = where.type;
  } else {
    oam[LABELS.traitType] = where.type;
    if (where.outputName) oam[LABELS.traitResource] = where.outputName;
  }
  // The application's labels first, the template's over them, OAM's last: selectors must be able to trust them.
  meta.labels = { ...app.labels, ...(meta.labels ?? {}), ...oam };
  const annotations = { ...app.annotations, ...(meta.annotations ?? {}) };
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  // An ownerReference works only within the owner's namespace: objects elsewhere (or cluster-scoped)
  // are recorded by the controller instead.
  if (app.owner.uid && !CLUSTER_SCOPED.has(object.kind) && meta.namespace === app.namespace) {
    const { kind, name, uid } = app.owner;
    const owner = { apiVersion: API_VERSION, kind, metadata: { name, uid } };
    meta.ownerReferences = [ownerReferenceTo(owner, { controller: true, blockOwnerDeletion: true })];
  }
  return { ...object, metadata: meta };
}

/** A DNS-1123 name for a trait output whose template gave none: stable across renders. */
export function generatedName(...parts: string[]): string {
  const name = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return name.length <= 63 ? name : name.slice(0, 63).replace(/-$/, '');
}
