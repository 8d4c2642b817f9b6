/**
 * The built-in resource table: what the server serves besides CRDs, as data.
 * Discovery, routing, the store and the handlers all read it.
 */
import type { GroupVersionKind } from '#kube-core';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** A served resource as discovery describes it: its kind (group '' for core), names, scope and verbs. */
export interface ResourceInfo extends GroupVersionKind {
  plural: string;
  singular: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  /** Subresources served besides the main resource. */
  subresources?: Array<'status' | 'scale' | 'finalize' | 'token' | PodConnectSubresource>;
  /** Resources sharing one store under another group/version (HPA v1/v2, events): the stored form's key. */
  storage?: { group: string; plural: string };
  /** Create-only resources that are never stored (TokenReview, SubjectAccessReview). */
  virtual?: boolean;
  /** For CRDs: the defining CRD's name. */
  crd?: string;
}

/** Pod subresources that reach a container (served with an honest refusal: no container runs here). */
export type PodConnectSubresource = 'log' | 'exec' | 'attach' | 'portforward';
export const POD_CONNECT_SUBRESOURCES: PodConnectSubresource[] = ['attach', 'exec', 'log', 'portforward'];

const ALL: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const NO_COLLECTION_DELETE: Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

function r(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  extra: Partial<ResourceInfo> = {},
): ResourceInfo {
  return { group, version, kind, plural, singular: kind.toLowerCase(), namespaced, verbs: ALL, ...extra };
}

export const BUILTIN_RESOURCES: ResourceInfo[] = [
  r('', 'v1', 'Namespace', 'namespaces', false, {
    verbs: NO_COLLECTION_DELETE,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
  }),
  r('', 'v1', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  r('', 'v1', 'Secret', 'secrets', true),
  r('', 'v1', 'Service', 'services', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
  }),
  r('', 'v1', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'], subresources: ['token'] }),
  r('', 'v1', 'Pod', 'pods', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', ...POD_CONNECT_SUBRESOURCES],
  }),
  r('', 'v1', 'Node', 'nodes', false, { shortNames: ['no'], subresources: ['status'] }),
  r('', 'v1', 'Event', 'events', true, { shortNames: ['ev'] }),
  r('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, {
    shortNames: ['pvc'],
    subresources: ['status'],
  }),
  r('', 'v1', 'Endpoints', 'endpoints', true, { shortNames: ['ep'] }),
  r('apps', 'v1', 'Deployment', 'deployments', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  r('apps', 'v1', 'ReplicaSet', 'replicasets', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  r('apps', 'v1', 'StatefulSet', 'statefulsets', true, {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  r('apps', 'v1', 'DaemonSet', 'daemonsets', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  r('apps', 'v1', 'ControllerRevision', 'controllerrevisions', true),
  r('batch', 'v1', 'Job', 'jobs', true, { categories: ['all'], subresources: ['status'] }),
  r('batch', 'v1', 'CronJob', 'cronjobs', true, {
    shortNames: ['cj'],
    categories: ['all'],
    subresources: ['status'],
  }),
  r('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, {
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
  }),
  r('autoscaling', 'v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, {
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    storage: { group: 'autoscaling', plural: 'horizontalpodautoscalers' },
  }),
  r('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, {
    shortNames: ['ing'],
    subresources: ['status'],
  }),
  r('networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false),
  r('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, { shortNames: ['netpol'] }),
  r('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, {
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
  r('coordination.k8s.io', 'v1', 'Lease', 'leases', true),
  r('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true),
  r('events.k8s.io', 'v1', 'Event', 'events', true, {
    shortNames: ['ev'],
    storage: { group: '', plural: 'events' },
  }),
  r('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, {
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
  }),
  r('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true),
  r('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true),
  r('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  r('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  r('authentication.k8s.io', 'v1', 'TokenReview', 'tokenreviews', false, {
    verbs: ['create'],
    virtual: true,
  }),
  r('authorization.k8s.io', 'v1', 'SubjectAccessReview', 'subjectaccessreviews', false, {
    verbs: ['create'],
    virtual: true,
  }),
];

/** The key a resource's objects are stored under ("apps/deployments", "/configmaps"). */
export function storageKey(info: ResourceInfo): string {
  const s = info.storage ?? { group: info.group, plural: info.plural };
  return `${s.group}/${s.plural}`;
}

/** Which version of a shared store is the stored form. */
export function isStorageForm(info: ResourceInfo): boolean {
  return !info.storage;
}

/**
 * Kinds whose registry strategy sets metadata.generation to 1 on create and bumps it when the
 * spec changes (PrepareForCreate/PrepareForUpdate in kubernetes pkg/registry, plus CRDs and
 * custom resources). Others keep whatever generation they were created with, never bumped.
 */
const GENERATION_KINDS = new Set([
  '/Pod',
  '/PodTemplate',
  '/ReplicationController',
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/NetworkPolicy',
  'policy/PodDisruptionBudget',
  'discovery.k8s.io/EndpointSlice',
  'scheduling.k8s.io/PriorityClass',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
]);

export function tracksGeneration(info: ResourceInfo): boolean {
  return Boolean(info.crd) || GENERATION_KINDS.has(`${info.group}/${info.kind}`);
}
