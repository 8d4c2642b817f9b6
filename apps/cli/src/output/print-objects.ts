import { stringify } from 'yaml';
import type { KubeObject } from '#api';

export type OutputFormat = 'yaml' | 'json';

/** `yaml`: a multi-document stream; `json`: one v1 List, as kubectl prints. */
export function formatObjects(objects: readonly KubeObject[], format: OutputFormat): string {
  if (format === 'json')
    return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, 2)}\n`;
  return objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
}
