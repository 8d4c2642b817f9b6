/**
 * Every built-in kind the server validates: its OpenAPI schema (a precompiled
 * kubernetes-models validator), the client-node model that lists its fields,
 * and the semantic checks kube's own validation adds on top.
 */
import type { GroupVersionKind } from '#kube-core';
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
import type { FieldCause } from './field-errors.js';
import { validateHorizontalPodAutoscaler } from './checks/autoscaling-checks.js';
import { validateConfigMap, validateSecret } from './checks/config-checks.js';
import { validateIngress } from './checks/ingress-checks.js';
import type { Obj } from './checks/meta-checks.js';
import { validatePodSpec } from './checks/pod-checks.js';
import { validateService } from './checks/service-checks.js';
import { validatePersistentVolumeClaim } from './checks/storage-checks.js';
import {
  validateCronJob,
  validateDaemonSet,
  validateDeployment,
  validateJob,
  validateReplicaSet,
  validateStatefulSet,
} from './checks/workload-checks.js';

/** A kubernetes-models class: its prototype's validate() runs the schema check on `this`. */
interface ModelClass {
  prototype: { validate(): void };
}

export interface BuiltinKind {
  group: string;
  version: string;
  kind: string;
  schema: ModelClass;
  /** The @kubernetes/client-node model name (its field list). */
  model: string;
  checks?: (obj: Obj) => FieldCause[];
}

const validatePod = (obj: Obj): FieldCause[] => validatePodSpec(obj.spec, 'spec');

function k(
  group: string,
  version: string,
  kind: string,
  schema: ModelClass,
  model: string,
  checks?: (obj: Obj) => FieldCause[],
): BuiltinKind {
  return { group, version, kind, schema, model, checks };
}

const RBAC = 'rbac.authorization.k8s.io';

export const BUILTIN_KINDS: readonly BuiltinKind[] = [
  k('', 'v1', 'Namespace', Namespace, 'V1Namespace'),
  k('', 'v1', 'ConfigMap', ConfigMap, 'V1ConfigMap', validateConfigMap),
  k('', 'v1', 'Secret', Secret, 'V1Secret', validateSecret),
  k('', 'v1', 'Service', Service, 'V1Service', validateService),
  k('', 'v1', 'ServiceAccount', ServiceAccount, 'V1ServiceAccount'),
  k('', 'v1', 'Pod', Pod, 'V1Pod', validatePod),
  k('', 'v1', 'Event', CoreEvent, 'CoreV1Event'),
  k(
    '',
    'v1',
    'PersistentVolumeClaim',
    PersistentVolumeClaim,
    'V1PersistentVolumeClaim',
    validatePersistentVolumeClaim,
  ),
  k('', 'v1', 'Endpoints', Endpoints, 'V1Endpoints'),
  k('', 'v1', 'Node', Node, 'V1Node'),
  k('apps', 'v1', 'Deployment', Deployment, 'V1Deployment', validateDeployment),
  k('apps', 'v1', 'ReplicaSet', ReplicaSet, 'V1ReplicaSet', validateReplicaSet),
  k('apps', 'v1', 'StatefulSet', StatefulSet, 'V1StatefulSet', validateStatefulSet),
  k('apps', 'v1', 'DaemonSet', DaemonSet, 'V1DaemonSet', validateDaemonSet),
  k('apps', 'v1', 'ControllerRevision', ControllerRevision, 'V1ControllerRevision'),
  k('batch', 'v1', 'Job', Job, 'V1Job', validateJob),
  k('batch', 'v1', 'CronJob', CronJob, 'V1CronJob', validateCronJob),
  k(
    'autoscaling',
    'v1',
    'HorizontalPodAutoscaler',
    HpaV1,
    'V1HorizontalPodAutoscaler',
    validateHorizontalPodAutoscaler,
  ),
  k(
    'autoscaling',
    'v2',
    'HorizontalPodAutoscaler',
    HpaV2,
    'V2HorizontalPodAutoscaler',
    validateHorizontalPodAutoscaler,
  ),
  k('networking.k8s.io', 'v1', 'Ingress', Ingress, 'V1Ingress', validateIngress),
  k('networking.k8s.io', 'v1', 'IngressClass', IngressClass, 'V1IngressClass'),
  k('networking.k8s.io', 'v1', 'NetworkPolicy', NetworkPolicy, 'V1NetworkPolicy'),
  k('policy', 'v1', 'PodDisruptionBudget', PodDisruptionBudget, 'V1PodDisruptionBudget'),
  k('coordination.k8s.io', 'v1', 'Lease', Lease, 'V1Lease'),
  k('discovery.k8s.io', 'v1', 'EndpointSlice', EndpointSlice, 'V1EndpointSlice'),
  k('events.k8s.io', 'v1', 'Event', EventsEvent, 'EventsV1Event'),
  k(
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    CustomResourceDefinition,
    'V1CustomResourceDefinition',
  ),
  k(RBAC, 'v1', 'Role', Role, 'V1Role'),
  k(RBAC, 'v1', 'RoleBinding', RoleBinding, 'V1RoleBinding'),
  k(RBAC, 'v1', 'ClusterRole', ClusterRole, 'V1ClusterRole'),
  k(RBAC, 'v1', 'ClusterRoleBinding', ClusterRoleBinding, 'V1ClusterRoleBinding'),
  k('authentication.k8s.io', 'v1', 'TokenReview', TokenReview, 'V1TokenReview'),
  k('authorization.k8s.io', 'v1', 'SubjectAccessReview', SubjectAccessReview, 'V1SubjectAccessReview'),
];

const byGvk = new Map(BUILTIN_KINDS.map((b) => [`${b.group}/${b.version}/${b.kind}`, b]));

export function findBuiltinKind(gvk: GroupVersionKind): BuiltinKind | undefined {
  return byGvk.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
}

export function requireBuiltinKind(gvk: GroupVersionKind): BuiltinKind {
  const found = findBuiltinKind(gvk);
  if (!found) {
    const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    throw new Error(`no built-in schema for kind ${gvk.kind} in ${apiVersion}`);
  }
  return found;
}
