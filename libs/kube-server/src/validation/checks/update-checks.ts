/**
 * Update-only validation: the fields kube-apiserver refuses to change once an
 * object exists (each kind's ValidateXxxUpdate / strategy.ValidateUpdate in
 * kubernetes pkg/apis/.../validation and pkg/registry). Both objects are the
 * external (v1) form after defaulting; inputs are never mutated.
 */
import { type GroupVersionKind, semanticEqual } from '#kube-core';
import { forbidden, invalidRendered, type FieldCause } from '../field-errors.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- not typed yet: the update rules compare old and new objects at any depth (kubernetes-models types would replace it)
type Obj = Record<string, any>;

const IMMUTABLE = 'field is immutable';
const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** Go's json.Marshal of a value whose maps sort their keys (struct field order is kept as given). */
function goJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  return JSON.stringify(value);
}

/** metav1.LabelSelector as json.Marshal prints it: matchLabels (keys sorted), then matchExpressions. */
function selectorJson(selector: Obj | undefined): string {
  if (!selector) return 'null';
  const out: Obj = {};
  if (selector.matchLabels && Object.keys(selector.matchLabels).length) {
    out.matchLabels = Object.fromEntries(
      Object.entries(selector.matchLabels as Obj).sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  }
  if (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length) {
    out.matchExpressions = selector.matchExpressions.map((e: Obj) => ({
      key: e.key,
      operator: e.operator,
      ...(e.values?.length ? { values: e.values } : {}),
    }));
  }
  return JSON.stringify(out);
}

/** ValidateImmutableField: `Invalid value: <new>: field is immutable`. */
function immutable(field: string, now: unknown, before: unknown, render = goJson): FieldCause[] {
  if (semanticEqual(now, before)) return [];
  const rendered = typeof now === 'string' ? JSON.stringify(now) : render(now);
  return [invalidRendered(field, rendered, IMMUTABLE)];
}

function selectorImmutable(obj: Obj, old: Obj): FieldCause[] {
  return immutable('spec.selector', obj.spec?.selector, old.spec?.selector, (v) => selectorJson(v as Obj));
}

function statefulSet(obj: Obj, old: Obj): FieldCause[] {
  const [spec, before] = [obj.spec ?? {}, old.spec ?? {}];
  return [
    ...selectorImmutable(obj, old),
    ...immutable(
      'spec.volumeClaimTemplates',
      spec.volumeClaimTemplates ?? [],
      before.volumeClaimTemplates ?? [],
    ),
    ...immutable('spec.serviceName', spec.serviceName ?? '', before.serviceName ?? ''),
    ...immutable(
      'spec.podManagementPolicy',
      spec.podManagementPolicy ?? '',
      before.podManagementPolicy ?? '',
    ),
  ];
}

/**
 * Job (ValidateJobUpdate with the registry's options): the selector never changes; the template
 * neither, except while the job is suspended and idle (never started, or Suspended): then its
 * scheduling directives (labels, annotations, nodeSelector, tolerations, node affinity,
 * schedulingGates) and container resources may change.
 */
function job(obj: Obj, old: Obj): FieldCause[] {
  const [spec, before] = [obj.spec ?? {}, old.spec ?? {}];
  const causes = selectorImmutable(obj, old);
  const template: Obj = spec.template ?? {};
  const status: Obj = old.status ?? {};
  const suspended = before.suspend === true;
  const suspendedCondition = ((status.conditions ?? []) as Obj[]).some(
    (c) => c.type === 'Suspended' && c.status === 'True',
  );
  const mutable = suspended && (!status.startTime || suspendedCondition) && !(status.active > 0);
  const oldTemplate: Obj = structuredClone(before.template ?? {});
  if (mutable) {
    oldTemplate.metadata = { ...(oldTemplate.metadata ?? {}) };
    oldTemplate.spec = { ...(oldTemplate.spec ?? {}) };
    for (const key of ['labels', 'annotations']) oldTemplate.metadata[key] = template.metadata?.[key];
    for (const key of ['nodeSelector', 'tolerations', 'schedulingGates'])
      oldTemplate.spec[key] = template.spec?.[key];
    const affinity = template.spec?.affinity as Obj | undefined;
    if (oldTemplate.spec.affinity || affinity) {
      oldTemplate.spec.affinity = {
        ...(oldTemplate.spec.affinity ?? {}),
        nodeAffinity: affinity?.nodeAffinity,
      };
    }
  }
  if (!mutable) {
    causes.push(...immutable('spec.template', template, oldTemplate));
    return causes;
  }
  // validatePodResourceUpdatesOnly: container resources may change too.
  const oldSpec: Obj = structuredClone(oldTemplate.spec ?? {});
  for (const list of ['containers', 'initContainers']) {
    const now = (template.spec?.[list] ?? []) as Obj[];
    const was = (oldSpec[list] ?? []) as Obj[];
    if (now.length === was.length)
      now.forEach((c, i) => {
        if (was[i].name === c.name) was[i] = { ...was[i], resources: c.resources };
      });
  }
  causes.push(...immutable('spec.template.spec', template.spec ?? {}, oldSpec));
  return causes;
}

/** ConfigMap and Secret with `immutable: true`: Forbidden on immutable, data and binaryData (ValidateConfigMapUpdate). */
function immutableData(obj: Obj, old: Obj, keys: string[]): FieldCause[] {
  if (old.immutable !== true) return [];
  const causes: FieldCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
  for (const key of keys)
    if (!semanticEqual(obj[key], old[key])) causes.push(forbidden(key, IMMUTABLE_WHEN_SET));
  return causes;
}

function secret(obj: Obj, old: Obj): FieldCause[] {
  return [...immutable('type', obj.type ?? '', old.type ?? ''), ...immutableData(obj, old, ['data'])];
}

const UPDATABLE_POD_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** ValidatePodUpdate: the spec may change only in images, activeDeadlineSeconds and added tolerations. */
function pod(obj: Obj, old: Obj, opts: UpdateOptions): FieldCause[] {
  const spec: Obj = structuredClone(obj.spec ?? {});
  const before: Obj = old.spec ?? {};
  if (opts.bindPods && !before.nodeName) spec.nodeName = before.nodeName;
  for (const list of ['containers', 'initContainers']) {
    (spec[list] ?? []).forEach((c: Obj, i: number) => {
      const was = (before[list] ?? [])[i];
      if (was) c.image = was.image;
    });
  }
  spec.activeDeadlineSeconds = before.activeDeadlineSeconds;
  const oldTolerations: Obj[] = before.tolerations ?? [];
  const kept = (spec.tolerations ?? []).filter((t: Obj) => oldTolerations.some((o) => semanticEqual(o, t)));
  if (kept.length === oldTolerations.length) spec.tolerations = before.tolerations;
  if ((before.terminationGracePeriodSeconds ?? 0) < 0 && spec.terminationGracePeriodSeconds === 1)
    spec.terminationGracePeriodSeconds = before.terminationGracePeriodSeconds;
  if (semanticEqual(spec, before)) return [];
  return [
    forbidden(
      'spec',
      `pod updates may not change fields other than ${UPDATABLE_POD_FIELDS.join(',')}\n${specDiff(before, spec)}`,
    ),
  ];
}

/** PVCs: the spec is fixed but for resources.requests (bound claims), a first volumeName and volumeAttributesClassName. */
function persistentVolumeClaim(obj: Obj, old: Obj): FieldCause[] {
  const spec: Obj = structuredClone(obj.spec ?? {});
  const before: Obj = structuredClone(old.spec ?? {});
  if (!before.volumeName) before.volumeName = spec.volumeName;
  if (obj.status?.phase === 'Bound') {
    if (spec.resources?.requests) spec.resources.requests.storage = before.resources?.requests?.storage;
    spec.volumeAttributesClassName = before.volumeAttributesClassName;
  }
  if (semanticEqual(spec, before)) return [];
  return [
    forbidden(
      'spec',
      `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(before, spec)}`,
    ),
  ];
}

/** A short stand-in for go-cmp's diff: the top-level fields that differ. */
function specDiff(before: Obj, after: Obj): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines = keys
    .filter((k) => !semanticEqual(before[k], after[k]))
    .map((k) => `-\t${k}: ${goJson(before[k])}\n+\t${k}: ${goJson(after[k])}`);
  return `  spec{\n${lines.join('\n')}\n  }`;
}

/** CRDs: scope and names.kind are fixed once established (always, here). */
function customResourceDefinition(obj: Obj, old: Obj): FieldCause[] {
  const [spec, before] = [obj.spec ?? {}, old.spec ?? {}];
  return [
    ...immutable('spec.scope', spec.scope ?? '', before.scope ?? ''),
    ...immutable('spec.names.kind', spec.names?.kind ?? '', before.names?.kind ?? ''),
  ];
}

const roleRef = (obj: Obj, old: Obj) =>
  immutable('roleRef', obj.roleRef, old.roleRef, (v) => {
    const r = (v ?? {}) as Obj;
    return JSON.stringify({ apiGroup: r.apiGroup ?? '', kind: r.kind ?? '', name: r.name ?? '' });
  });

export interface UpdateOptions {
  /** Whether the update may bind a pod (set spec.nodeName once): the in-process scheduler's pods/binding. */
  bindPods?: boolean;
}

const CHECKS: Record<string, (obj: Obj, old: Obj, opts: UpdateOptions) => FieldCause[]> = {
  'apps/Deployment': selectorImmutable,
  'apps/ReplicaSet': selectorImmutable,
  'apps/DaemonSet': selectorImmutable,
  'apps/StatefulSet': statefulSet,
  'batch/Job': job,
  '/ConfigMap': (obj, old) => immutableData(obj, old, ['data', 'binaryData']),
  '/Secret': secret,
  '/Pod': pod,
  '/PersistentVolumeClaim': persistentVolumeClaim,
  'apiextensions.k8s.io/CustomResourceDefinition': customResourceDefinition,
  'rbac.authorization.k8s.io/RoleBinding': roleRef,
  'rbac.authorization.k8s.io/ClusterRoleBinding': roleRef,
};

/** The causes an update of `old` to `obj` fails with because it changes fields that cannot change. */
export function validateUpdate(
  gvk: GroupVersionKind,
  obj: object,
  old: object,
  opts: UpdateOptions = {},
): FieldCause[] {
  const check = CHECKS[`${gvk.group}/${gvk.kind}`];
  return check ? check(obj as Obj, old as Obj, opts) : [];
}
