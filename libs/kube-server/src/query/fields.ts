/** Field selectors each resource supports besides metadata.name/metadata.namespace (as kube-apiserver). */
const EXTRA_FIELDS: Record<string, string[]> = {
  '/pods': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  '/events': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  'batch/jobs': ['status.successful'],
  'apps/replicasets': ['status.replicas'],
};

/** The selectable fields of a resource, by its storage key. */
export function selectableFields(storageKey: string): string[] {
  return ['metadata.name', 'metadata.namespace', ...(EXTRA_FIELDS[storageKey] ?? [])];
}
