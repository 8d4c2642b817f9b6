/**
 * The list and map semantics of the built-in kinds, the building blocks of the rule tables
 * behind strategic merge patch (`x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`)
 * and server-side apply (`x-kubernetes-list-type` / `list-map-keys` / `map-type`): each kind's
 * table is in its record in resources/kinds.ts, keyed by a field path. Paths join field names
 * with dots and mark list items with `[]`: `spec.template.spec.containers[].ports`. A list
 * missing from a kind's table is atomic for both (the Kubernetes default for a list without tags, e.g. `tolerations`, `args`).
 * Values follow the Kubernetes 1.32 OpenAPI.
 */

export interface ListRule {
  kind: 'list';
  /** Strategic merge patch: `merge` merges items by `mergeKey` (or as a set of primitives without one). */
  strategy: 'merge' | 'replace';
  mergeKey?: string;
  /** The items carry `patchStrategy: retainKeys` (a one-of: `$retainKeys` clears the other members). */
  retainKeys?: boolean;
  /** Server-side apply: associative list (`map`), set of primitives (`set`) or `atomic`. */
  listType: 'map' | 'set' | 'atomic';
  mapKeys?: string[];
  /** Defaults of key fields (`protocol: TCP`), used when an item omits them. */
  keyDefaults?: Record<string, unknown>;
}

export interface MapRule {
  kind: 'map';
  /** Server-side apply: an atomic map is owned and replaced as a whole. */
  mapType: 'atomic' | 'granular';
  /** Strategic merge patch `retainKeys` on a struct field (Deployment `spec.strategy`). */
  retainKeys?: boolean;
}

export type FieldRule = ListRule | MapRule;
export type RuleTable = Record<string, FieldRule>;

export function keyed(
  mergeKey: string,
  mapKeys: string[] = [mergeKey],
  keyDefaults?: Record<string, unknown>,
): ListRule {
  return {
    kind: 'list',
    strategy: 'merge',
    mergeKey,
    listType: 'map',
    mapKeys,
    ...(keyDefaults ? { keyDefaults } : {}),
  };
}
/** A list SSA treats as associative but SMP replaces (no patch strategy in the Go tags). */
export function keyedForApplyOnly(mapKeys: string[]): ListRule {
  return { kind: 'list', strategy: 'replace', listType: 'map', mapKeys };
}
export const primitiveSet: ListRule = { kind: 'list', strategy: 'merge', listType: 'set' };
export const atomicMap: MapRule = { kind: 'map', mapType: 'atomic' };
export const retainKeysStruct: MapRule = { kind: 'map', mapType: 'granular', retainKeys: true };

export function under(prefix: string, table: RuleTable): RuleTable {
  return Object.fromEntries(Object.entries(table).map(([path, rule]) => [`${prefix}.${path}`, rule]));
}

/** ObjectMeta, for every kind including custom resources. */
export const OBJECT_META: RuleTable = {
  'metadata.finalizers': primitiveSet,
  'metadata.ownerReferences': keyed('uid'),
};

const CONTAINER: RuleTable = {
  ports: keyed('containerPort', ['containerPort', 'protocol'], { protocol: 'TCP' }),
  env: keyed('name'),
  volumeMounts: keyed('mountPath'),
  volumeDevices: keyed('devicePath'),
  'resources.claims': keyedForApplyOnly(['name']),
};

export const POD_SPEC: RuleTable = {
  ...Object.fromEntries(
    ['containers', 'initContainers', 'ephemeralContainers'].flatMap((list) => [
      [list, keyed('name')],
      ...Object.entries(under(`${list}[]`, CONTAINER)),
    ]),
  ),
  volumes: { ...keyed('name'), retainKeys: true },
  imagePullSecrets: keyed('name'),
  hostAliases: keyed('ip'),
  topologySpreadConstraints: keyed('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
  schedulingGates: keyed('name'),
  resourceClaims: { ...keyed('name'), retainKeys: true },
};

export const POD_TEMPLATE: RuleTable = { ...under('spec', POD_SPEC) };
export const CONDITIONS = keyed('type');

/** Kinds with a pod template at `spec.template`, a label selector and conditions. */
export function workload(extra: RuleTable = {}): RuleTable {
  return {
    ...under('spec.template', POD_TEMPLATE),
    'spec.selector': atomicMap,
    'status.conditions': CONDITIONS,
    ...extra,
  };
}

/** API groups served by Go structs in kube-apiserver: strategic merge patch works for these only. */
export const BUILT_IN_GROUPS = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
]);
