/** PersistentVolumeClaim checks (core/validation ValidatePersistentVolumeClaimSpec). */
import { type FieldCause, required } from '../field-errors.js';
import { type Obj, asList, asObj } from './meta-checks.js';

export function validatePersistentVolumeClaim(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  const causes: FieldCause[] = [];
  if (asList(spec.accessModes).length === 0) {
    causes.push(required('spec.accessModes', 'at least 1 access mode is required'));
  }
  // kube requires the requested size even when the claim names a volume.
  if (!asObj(asObj(spec.resources).requests).storage) causes.push(required('spec.resources[storage]'));
  return causes;
}
