/**
 * Fields no manager owns: the object identity and server-set metadata (kube's
 * stripMetaManager), and the fields a request's (sub)resource cannot write (reset fields:
 * `status` through the main resource, everything but `status` through /status).
 */
import { fieldElement } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';

const STRIPPED = FieldSet.of(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ['metadata', 'name'],
    ['metadata', 'namespace'],
    ['metadata', 'creationTimestamp'],
    ['metadata', 'selfLink'],
    ['metadata', 'uid'],
    ['metadata', 'clusterName'],
    ['metadata', 'generation'],
    ['metadata', 'managedFields'],
    ['metadata', 'resourceVersion'],
  ].map((path) => path.map(fieldElement)),
);

const STATUS = fieldElement('status');

export function stripMeta(set: FieldSet): FieldSet {
  return set.difference(STRIPPED);
}

/** Removes what the request cannot own: `status` for the main resource, all but `status` for /status. */
export function withoutResetFields(set: FieldSet, subresource: string | undefined): FieldSet {
  if (subresource === 'status') {
    const status = set.child(STATUS);
    const kept = new FieldSet();
    if (set.has([STATUS])) kept.insert([STATUS]);
    return status ? kept.union(prefixed(STATUS, status)) : kept;
  }
  if (subresource) return set;
  return set.recursiveDifference(FieldSet.of([[STATUS]]));
}

function prefixed(pe: string, set: FieldSet): FieldSet {
  return FieldSet.of(set.paths().map((path) => [pe, ...path]));
}
