/** KubeVela's trait type for a component definition's own extra outputs (e.g. webservice's Service). */
export const AUXILIARY_WORKLOAD = 'AuxiliaryWorkload';
