/** KubeVela's labels on everything it renders; tools select by them, so the names are fixed. */
export const LABELS = {
  appName: 'app.oam.dev/name',
  appNamespace: 'app.oam.dev/namespace',
  appRevision: 'app.oam.dev/appRevision',
  component: 'app.oam.dev/component',
  resourceType: 'app.oam.dev/resourceType',
  workloadType: 'workload.oam.dev/type',
  traitType: 'trait.oam.dev/type',
  traitResource: 'trait.oam.dev/resource',
} as const;

/** KubeVela's trait type for a component definition's own extra outputs (e.g. webservice's Service). */
export const AUXILIARY_WORKLOAD = 'AuxiliaryWorkload';
