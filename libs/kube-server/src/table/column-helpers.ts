/**
 * Building blocks shared by every group of printed columns: the column spec,
 * the `col` constructor, the common Name/Age/Created At columns and the
 * formatting helpers kube's printers reuse across kinds.
 */
import { age } from './duration.js';
import { type StoredObject } from '#kube-core';

/** One printed column: kube's name/type/priority and how a cell is computed (priority 1 = `-o wide`). */
export interface ColumnSpec {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  priority?: number;
  format?: string;
  description?: string;
  cell: (obj: StoredObject) => unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- not typed yet: the columns read built-in objects at any depth (kubernetes-models types would replace it)
export type Any = Record<string, any>;
export const a = (o: StoredObject) => o as Any;
export const col = (
  name: string,
  cell: ColumnSpec['cell'],
  type: ColumnSpec['type'] = 'string',
  priority = 0,
): ColumnSpec => ({
  name,
  type,
  priority,
  cell,
  ...(name === 'Name' ? { format: 'name' } : {}),
});
export const NAME = col('Name', (o) => o.metadata.name);
export const AGE = col('Age', (o) => age(o.metadata.creationTimestamp));
export const CREATED = col('Created At', (o) => o.metadata.creationTimestamp, 'date');
export const join = (values: unknown[] | undefined, empty = '<none>') =>
  values && values.length ? values.join(',') : empty;
export const selector = (sel: Any | undefined) =>
  join(
    [
      ...Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`),
      ...(sel?.matchExpressions ?? []).map(
        (e: Any) => `${e.key} ${String(e.operator).toLowerCase()} (${(e.values ?? []).join(',')})`,
      ),
    ],
    '<none>',
  );
export const podSpec = (o: StoredObject) =>
  (a(o).spec?.template?.spec ?? a(o).spec?.jobTemplate?.spec?.template?.spec ?? {}) as Any;
export const containers = (wide = 1) => [
  col('Containers', (x) => join((podSpec(x).containers ?? []).map((c: Any) => c.name)), 'string', wide),
  col('Images', (x) => join((podSpec(x).containers ?? []).map((c: Any) => c.image)), 'string', wide),
];
export const workloadTail = () => [
  ...containers(),
  col('Selector', (x) => selector(a(x).spec?.selector), 'string', 1),
];

/** printers.go's EndpointSlice lists: at most three values, then " + N more...", or <unset>. */
export function limited(values: unknown[]): string {
  if (!values.length) return '<unset>';
  const shown = values.slice(0, 3).join(',');
  return values.length > 3 ? `${shown} + ${values.length - 3} more...` : shown;
}
