/**
 * Every built-in kind the server serves, one record each: the one place to add or change a kind.
 *
 * A record says what discovery serves (plural, scope, verbs, short names, categories,
 * subresources: `status` and `scale` among them), how writes are validated (the OpenAPI schema
 * as a kubernetes-models class, the @kubernetes/client-node model that lists its fields, kube's
 * semantic checks), how patches and server-side apply merge its lists and maps (`rules`), the
 * columns `kubectl get` prints, the defaults kube-apiserver fills in, and whether its registry
 * strategy tracks metadata.generation. The rest of the server reads these records through
 * resources/builtin.ts; docs/embedded-api-server.md ("Adding a built-in kind") walks through one.
 */
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Endpoints } from 'kubernetes-models/v1/Endpoints';
import { Event as CoreEvent } from 'kubernetes-models/v1/Event';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Node } from 'kubernetes-models/v1/Node';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { ControllerRevision } from 'kubernetes-models/apps/v1/ControllerRevision';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler as HpaV1 } from 'kubernetes-models/autoscaling/v1/HorizontalPodAutoscaler';
import { HorizontalPodAutoscaler as HpaV2 } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { IngressClass } from 'kubernetes-models/networking.k8s.io/v1/IngressClass';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Lease } from 'kubernetes-models/coordination.k8s.io/v1/Lease';
import { EndpointSlice } from 'kubernetes-models/discovery.k8s.io/v1/EndpointSlice';
import { Event as EventsEvent } from 'kubernetes-models/events.k8s.io/v1/Event';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { TokenReview } from 'kubernetes-models/authentication.k8s.io/v1/TokenReview';
import { SubjectAccessReview } from 'kubernetes-models/authorization.k8s.io/v1/SubjectAccessReview';
import type { GroupVersionKind } from '#kube-core';
import type { PodConnectSubresource, ResourceInfo, Verb } from './builtin.js';
import {
  defaultCronJob,
  defaultDaemonSet,
  defaultDeployment,
  defaultJob,
  defaultNamespace,
  defaultPod,
  defaultReplicaSet,
  defaultSecret,
  defaultServiceObject,
  defaultStatefulSet,
  type Defaulter,
} from '../objects/defaults.js';
import {
  CONDITIONS,
  POD_SPEC,
  POD_TEMPLATE,
  atomicMap,
  keyed,
  keyedForApplyOnly,
  retainKeysStruct,
  under,
  workload,
  type RuleTable,
} from '../patch/schema/rules.js';
import type { ColumnSpec } from '../table/column-helpers.js';
import { CORE_COLUMNS } from '../table/columns-core.js';
import { OTHER_COLUMNS } from '../table/columns-other.js';
import { WORKLOAD_COLUMNS } from '../table/columns-workloads.js';
import type { FieldCause } from '../validation/field-errors.js';
import { validateHorizontalPodAutoscaler } from '../validation/checks/autoscaling-checks.js';
import { validateConfigMap, validateSecret } from '../validation/checks/config-checks.js';
import { validateIngress } from '../validation/checks/ingress-checks.js';
import type { Obj } from '../validation/checks/meta-checks.js';
import { validatePodSpec } from '../validation/checks/pod-checks.js';
import { validateService } from '../validation/checks/service-checks.js';
import { validatePersistentVolumeClaim } from '../validation/checks/storage-checks.js';
import {
  validateCronJob,
  validateDaemonSet,
  validateDeployment,
  validateJob,
  validateReplicaSet,
  validateStatefulSet,
} from '../validation/checks/workload-checks.js';

/** A kubernetes-models class: its prototype's validate() runs the schema check on `this`. */
export interface ModelClass {
  prototype: { validate(): void };
}

/** One built-in kind at one version: everything the server knows about it. */
export interface BuiltinKind extends GroupVersionKind {
  /** What discovery, routing and the store read (ResourceInfo). */
  resource: ResourceInfo;
  /** The OpenAPI schema check (a precompiled kubernetes-models validator). */
  schema: ModelClass;
  /** The @kubernetes/client-node model name (its field list: unknown-field warnings). */
  model: string;
  /** The semantic checks kube's own validation adds on top of the schema. */
  checks?: (obj: Obj) => FieldCause[];
  /** List and map semantics for strategic merge patch and server-side apply (ObjectMeta's are added to all). */
  rules: RuleTable;
  /** Server-side printing (`kubectl get`); kinds without one get Name and Created At. */
  columns?: ColumnSpec[];
  /** The defaults kube-apiserver fills in on decode. */
  defaults?: Defaulter;
  /** metadata.generation is 1 on create and bumped when the spec changes (kube's registry strategy). */
  generation: boolean;
}

/** What a record may say besides its names, its scope and its schema. */
interface More {
  verbs?: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: ResourceInfo['subresources'];
  /** Shares another version's store (HPA v1/v2, events.k8s.io Events): the stored form's group and plural. */
  storage?: { group: string; plural: string };
  /** Create-only and never stored (TokenReview, SubjectAccessReview). */
  virtual?: boolean;
  checks?: (obj: Obj) => FieldCause[];
  rules?: RuleTable;
  columns?: ColumnSpec[];
  defaults?: Defaulter;
  generation?: boolean;
}

const ALL: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const NO_COLLECTION_DELETE: Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** Pod subresources that reach a container (served with an honest refusal: no container runs here). */
export const POD_CONNECT_SUBRESOURCES: PodConnectSubresource[] = ['attach', 'exec', 'log', 'portforward'];

function kind(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  schema: ModelClass,
  model: string,
  more: More = {},
): BuiltinKind {
  const { verbs, shortNames, categories, subresources, storage, virtual } = more;
  const resource: ResourceInfo = {
    group,
    version,
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    verbs: verbs ?? ALL,
    ...(shortNames ? { shortNames } : {}),
    ...(categories ? { categories } : {}),
    ...(subresources ? { subresources } : {}),
    ...(storage ? { storage } : {}),
    ...(virtual ? { virtual } : {}),
  };
  return {
    group,
    version,
    kind,
    resource,
    schema,
    model,
    ...(more.checks ? { checks: more.checks } : {}),
    rules: more.rules ?? {},
    ...(more.columns ? { columns: more.columns } : {}),
    ...(more.defaults ? { defaults: more.defaults } : {}),
    generation: more.generation ?? false,
  };
}

const validatePod = (obj: Obj): FieldCause[] => validatePodSpec(obj.spec, 'spec');

const HPA = {
  shortNames: ['hpa'],
  categories: ['all'],
  subresources: ['status'],
  checks: validateHorizontalPodAutoscaler,
  columns: WORKLOAD_COLUMNS.HorizontalPodAutoscaler,
  generation: true,
} satisfies More;
const RBAC = 'rbac.authorization.k8s.io';

/** In discovery's order. */
export const BUILTIN_KINDS: readonly BuiltinKind[] = [
  kind('', 'v1', 'Namespace', 'namespaces', false, Namespace, 'V1Namespace', {
    verbs: NO_COLLECTION_DELETE,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    rules: { 'status.conditions': CONDITIONS },
    columns: CORE_COLUMNS.Namespace,
    defaults: defaultNamespace,
  }),
  kind('', 'v1', 'ConfigMap', 'configmaps', true, ConfigMap, 'V1ConfigMap', {
    shortNames: ['cm'],
    checks: validateConfigMap,
    columns: CORE_COLUMNS.ConfigMap,
  }),
  kind('', 'v1', 'Secret', 'secrets', true, Secret, 'V1Secret', {
    checks: validateSecret,
    columns: CORE_COLUMNS.Secret,
    defaults: defaultSecret,
  }),
  kind('', 'v1', 'Service', 'services', true, Service, 'V1Service', {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
    checks: validateService,
    rules: {
      'spec.ports': keyed('port', ['port', 'protocol'], { protocol: 'TCP' }),
      'spec.selector': atomicMap,
      'status.conditions': CONDITIONS,
    },
    columns: CORE_COLUMNS.Service,
    defaults: defaultServiceObject,
  }),
  kind('', 'v1', 'ServiceAccount', 'serviceaccounts', true, ServiceAccount, 'V1ServiceAccount', {
    shortNames: ['sa'],
    subresources: ['token'],
    rules: { secrets: keyed('name') },
    columns: CORE_COLUMNS.ServiceAccount,
  }),
  kind('', 'v1', 'Pod', 'pods', true, Pod, 'V1Pod', {
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', ...POD_CONNECT_SUBRESOURCES],
    checks: validatePod,
    rules: {
      ...under('spec', POD_SPEC),
      'status.conditions': CONDITIONS,
      'status.podIPs': keyed('ip'),
      'status.hostIPs': keyed('ip'),
    },
    columns: CORE_COLUMNS.Pod,
    defaults: defaultPod,
    generation: true,
  }),
  kind('', 'v1', 'Node', 'nodes', false, Node, 'V1Node', {
    shortNames: ['no'],
    subresources: ['status'],
    rules: { 'status.conditions': CONDITIONS, 'status.addresses': keyed('type') },
    columns: CORE_COLUMNS.Node,
  }),
  kind('', 'v1', 'Event', 'events', true, CoreEvent, 'CoreV1Event', {
    shortNames: ['ev'],
    columns: CORE_COLUMNS.Event,
  }),
  kind(
    '',
    'v1',
    'PersistentVolumeClaim',
    'persistentvolumeclaims',
    true,
    PersistentVolumeClaim,
    'V1PersistentVolumeClaim',
    {
      shortNames: ['pvc'],
      subresources: ['status'],
      checks: validatePersistentVolumeClaim,
      rules: { 'spec.selector': atomicMap, 'status.conditions': CONDITIONS },
      columns: CORE_COLUMNS.PersistentVolumeClaim,
    },
  ),
  kind('', 'v1', 'Endpoints', 'endpoints', true, Endpoints, 'V1Endpoints', { shortNames: ['ep'] }),
  kind('apps', 'v1', 'Deployment', 'deployments', true, Deployment, 'V1Deployment', {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
    checks: validateDeployment,
    rules: workload({ 'spec.strategy': retainKeysStruct }),
    columns: WORKLOAD_COLUMNS.Deployment,
    defaults: defaultDeployment,
    generation: true,
  }),
  kind('apps', 'v1', 'ReplicaSet', 'replicasets', true, ReplicaSet, 'V1ReplicaSet', {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
    checks: validateReplicaSet,
    rules: workload(),
    columns: WORKLOAD_COLUMNS.ReplicaSet,
    defaults: defaultReplicaSet,
    generation: true,
  }),
  kind('apps', 'v1', 'StatefulSet', 'statefulsets', true, StatefulSet, 'V1StatefulSet', {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
    checks: validateStatefulSet,
    rules: workload(),
    columns: WORKLOAD_COLUMNS.StatefulSet,
    defaults: defaultStatefulSet,
    generation: true,
  }),
  kind('apps', 'v1', 'DaemonSet', 'daemonsets', true, DaemonSet, 'V1DaemonSet', {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
    checks: validateDaemonSet,
    rules: workload(),
    columns: WORKLOAD_COLUMNS.DaemonSet,
    defaults: defaultDaemonSet,
    generation: true,
  }),
  kind(
    'apps',
    'v1',
    'ControllerRevision',
    'controllerrevisions',
    true,
    ControllerRevision,
    'V1ControllerRevision',
  ),
  kind('batch', 'v1', 'Job', 'jobs', true, Job, 'V1Job', {
    categories: ['all'],
    subresources: ['status'],
    checks: validateJob,
    rules: {
      ...under('spec.template', POD_TEMPLATE),
      'spec.selector': atomicMap,
      // Job conditions merge by type in SMP but are atomic for apply.
      'status.conditions': { kind: 'list', strategy: 'merge', mergeKey: 'type', listType: 'atomic' },
    },
    columns: WORKLOAD_COLUMNS.Job,
    defaults: defaultJob,
    generation: true,
  }),
  kind('batch', 'v1', 'CronJob', 'cronjobs', true, CronJob, 'V1CronJob', {
    shortNames: ['cj'],
    categories: ['all'],
    subresources: ['status'],
    checks: validateCronJob,
    rules: {
      ...under('spec.jobTemplate.spec.template', POD_TEMPLATE),
      'spec.jobTemplate.spec.selector': atomicMap,
    },
    columns: WORKLOAD_COLUMNS.CronJob,
    defaults: defaultCronJob,
    generation: true,
  }),
  kind(
    'autoscaling',
    'v2',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    true,
    HpaV2,
    'V2HorizontalPodAutoscaler',
    {
      ...HPA,
      rules: { 'status.conditions': CONDITIONS },
    },
  ),
  kind(
    'autoscaling',
    'v1',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    true,
    HpaV1,
    'V1HorizontalPodAutoscaler',
    {
      ...HPA,
      storage: { group: 'autoscaling', plural: 'horizontalpodautoscalers' },
    },
  ),
  kind('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, Ingress, 'V1Ingress', {
    shortNames: ['ing'],
    subresources: ['status'],
    checks: validateIngress,
    columns: OTHER_COLUMNS.Ingress,
    generation: true,
  }),
  kind('networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false, IngressClass, 'V1IngressClass', {
    generation: true,
  }),
  kind(
    'networking.k8s.io',
    'v1',
    'NetworkPolicy',
    'networkpolicies',
    true,
    NetworkPolicy,
    'V1NetworkPolicy',
    {
      shortNames: ['netpol'],
      generation: true,
    },
  ),
  kind(
    'policy',
    'v1',
    'PodDisruptionBudget',
    'poddisruptionbudgets',
    true,
    PodDisruptionBudget,
    'V1PodDisruptionBudget',
    {
      shortNames: ['pdb'],
      subresources: ['status'],
      rules: { 'spec.selector': atomicMap, 'status.conditions': CONDITIONS },
      generation: true,
    },
  ),
  kind('coordination.k8s.io', 'v1', 'Lease', 'leases', true, Lease, 'V1Lease'),
  kind('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true, EndpointSlice, 'V1EndpointSlice', {
    columns: OTHER_COLUMNS.EndpointSlice,
    generation: true,
  }),
  kind('events.k8s.io', 'v1', 'Event', 'events', true, EventsEvent, 'EventsV1Event', {
    shortNames: ['ev'],
    storage: { group: '', plural: 'events' },
    columns: CORE_COLUMNS.Event,
  }),
  kind(
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    'customresourcedefinitions',
    false,
    CustomResourceDefinition,
    'V1CustomResourceDefinition',
    {
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      subresources: ['status'],
      rules: { 'status.conditions': keyedForApplyOnly(['type']) },
      generation: true,
    },
  ),
  kind(RBAC, 'v1', 'Role', 'roles', true, Role, 'V1Role'),
  kind(RBAC, 'v1', 'RoleBinding', 'rolebindings', true, RoleBinding, 'V1RoleBinding', {
    columns: OTHER_COLUMNS.RoleBinding,
  }),
  kind(RBAC, 'v1', 'ClusterRole', 'clusterroles', false, ClusterRole, 'V1ClusterRole'),
  kind(
    RBAC,
    'v1',
    'ClusterRoleBinding',
    'clusterrolebindings',
    false,
    ClusterRoleBinding,
    'V1ClusterRoleBinding',
    {
      columns: OTHER_COLUMNS.ClusterRoleBinding,
    },
  ),
  kind('authentication.k8s.io', 'v1', 'TokenReview', 'tokenreviews', false, TokenReview, 'V1TokenReview', {
    verbs: ['create'],
    virtual: true,
  }),
  kind(
    'authorization.k8s.io',
    'v1',
    'SubjectAccessReview',
    'subjectaccessreviews',
    false,
    SubjectAccessReview,
    'V1SubjectAccessReview',
    {
      verbs: ['create'],
      virtual: true,
    },
  ),
];
