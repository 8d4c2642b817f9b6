import { type FieldCause, invalid, required } from './field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isValidPathSegmentName } from './syntax.js';

export interface ResourceIdentity {
  kind: string;
  namespaced: boolean;
  group: string;
}

type NameRule = (name: string) => string[];

const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** CronJob names leave room for the 11-character suffix of the Jobs it creates. */
const CRONJOB_NAME_MAX = 52;

/** The name rule kube's per-kind validation passes to ValidateObjectMeta. */
function nameRule(resource: ResourceIdentity): NameRule | undefined {
  const { kind, group } = resource;
  if (group === '' && kind === 'Namespace') return isDns1123Label;
  // KEP-5311 RelaxedServiceNameValidation (GA and locked on in 1.37): DNS-1123 labels, not DNS-1035.
  if (group === '' && kind === 'Service') return isDns1123Label;
  if (group === RBAC_GROUP) return isValidPathSegmentName;
  // Never persisted, so never name-checked.
  if (group === 'authentication.k8s.io' && kind === 'TokenReview') return undefined;
  if (group === 'authorization.k8s.io' && kind === 'SubjectAccessReview') return undefined;
  if (group === 'batch' && kind === 'CronJob') {
    return (name) => [
      ...isDns1123Subdomain(name),
      ...(name.length > CRONJOB_NAME_MAX ? [`must be no more than ${CRONJOB_NAME_MAX} characters`] : []),
    ];
  }
  return isDns1123Subdomain;
}

/** generateName prefixes may end in '-': kube masks the trailing dash before checking. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

/**
 * `metadata.name` (or, with `asPrefix`, `metadata.generateName`) checked the way
 * kube-apiserver checks it for this kind, with its exact messages.
 */
export function validateObjectName(resource: ResourceIdentity, name: string, asPrefix = false): FieldCause[] {
  const field = asPrefix ? 'metadata.generateName' : 'metadata.name';
  if (!name) return asPrefix ? [] : [required('metadata.name', 'name or generateName is required')];
  const rule = nameRule(resource);
  if (!rule) return [];
  return rule(asPrefix ? maskTrailingDash(name) : name).map((msg) => invalid(field, name, msg));
}
