import { toKubeYaml, type TypedObject } from '#kube-core';

export type OutputFormat = 'yaml' | 'json';

/** `yaml`: a multi-document stream; `json`: one v1 List, as kubectl prints. */
export function formatObjects(objects: readonly TypedObject[], format: OutputFormat): string {
  const items = objects.map(headerFirst);
  if (format === 'json') return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2)}\n`;
  return items.map((o) => toKubeYaml(o)).join('---\n');
}

/** Templates build objects in any key order; people read apiVersion, kind and metadata first. */
function headerFirst(object: TypedObject): TypedObject {
  const { apiVersion, kind, metadata, ...rest } = object;
  return { apiVersion, kind, metadata, ...rest } as TypedObject;
}
