import type { StoredObject } from '#kube-core';
import type { Core } from '../core.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { findBuiltinKind, unknownFields } from '../validation/index.js';

/**
 * The fields of `obj` its kind's schema does not declare, in strict decoding's form
 * (`spec.template.spec.containers[0].foo`): a structural CRD's own schema, a built-in kind's
 * model; none for a kind neither describes. fieldValidation and server-side apply both ask.
 */
export function unknownFieldPaths(core: Core, info: ResourceInfo, obj: object): string[] {
  if (info.crd) {
    const schema = core.crds.schemaFor(info);
    // CR pruning reports fields sorted; built-ins in the order the decoder met them.
    return schema ? [...schema.unknownFields(obj)].sort() : [];
  }
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  return findBuiltinKind(gvk) ? unknownFields(gvk, obj as StoredObject) : [];
}
